import {
  additionalSupportersText,
  avatarStyle,
  initials,
  TYPE_STYLES,
  WALL_ENTRY_CLASSES as C,
  WALL_LIST_CLASSES,
  WALL_PREVIEW,
} from "~/browser/wall-model";
import type { PublicWallEntry } from "~/modules/recognition/wall.server";
import { formatPitchTime } from "~/modules/time/relative-time";
import { currentClockStep, subscribeToClock } from "~/browser/clock";
import { followWallStream } from "~/browser/wall-stream";
import { replayLivePing } from "~/browser/live-ping";
import { pluralWord } from "~/modules/formats/counts";

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** A wall entry as `recognition-wall.tsx` renders it (user text only ever as text). */
function entryItem(entry: PublicWallEntry): HTMLLIElement {
  const item = element("li", C.item);
  item.dataset.entryId = String(entry.id);
  item.dataset.wallSeq = String(entry.seq);
  const avatar = element("span", `${C.avatar} ${avatarStyle(entry.displayName)}`, initials(entry.displayName));
  avatar.setAttribute("aria-hidden", "true");
  const body = element("div", C.body);
  const heading = element("div", C.heading);
  const time = element("time", C.time, formatPitchTime(entry.createdAt, new Date()));
  time.dateTime = entry.createdAt;
  heading.append(element("span", C.name, entry.displayName), time);
  const tags = element("ul", C.tags);
  tags.setAttribute("aria-label", "Type, roles and tier");
  tags.append(element("li", `${C.type} ${TYPE_STYLES[entry.type]}`, entry.type), ...entry.roleTags.map((tag) => element("li", C.role, tag)));
  body.append(heading, tags);
  if (entry.message) body.append(element("p", C.message, `“${entry.message}”`));
  item.append(avatar, body);
  return item;
}

/** The wall's lists, created when the wall was empty until now. */
function wallLists(wall: HTMLElement): { container: HTMLElement; list: HTMLOListElement } {
  let container = wall.querySelector<HTMLElement>("[data-wall-entries]");
  if (!container) {
    container = element("div", WALL_LIST_CLASSES.container);
    container.dataset.wallEntries = "";
    const empty = wall.querySelector("[data-wall-empty]");
    if (empty) empty.replaceWith(container);
    else wall.append(container);
  }
  let list = container.querySelector<HTMLOListElement>('ol[aria-label="Wall entries, newest first"]');
  if (!list) {
    list = element("ol", WALL_LIST_CLASSES.list);
    list.setAttribute("aria-label", "Wall entries, newest first");
    list.setAttribute("aria-live", "polite");
    list.setAttribute("aria-relevant", "additions");
    container.prepend(list);
  }
  return { container, list };
}

/** Keeps the first WALL_PREVIEW entries in view and the rest behind 'Show N more', as the server renders it. */
function overflowIntoEarlier(container: HTMLElement, list: HTMLOListElement) {
  const overflow = [...list.children].slice(WALL_PREVIEW);
  if (!overflow.length) return;
  let details = container.querySelector("details");
  if (!details) {
    details = element("details", WALL_LIST_CLASSES.details);
    const earlier = element("ol", WALL_LIST_CLASSES.list);
    earlier.setAttribute("aria-label", "Earlier wall entries");
    details.append(element("summary", WALL_LIST_CLASSES.summary), earlier);
    list.after(details);
  }
  details.querySelector("ol")?.prepend(...overflow);
  const summary = details.querySelector("summary");
  if (summary) summary.textContent = `Show ${details.querySelectorAll("ol > li").length} more`;
}

function setStat(name: string, value: number, singular: string, plural: string) {
  const stat = document.querySelector(`[data-stat="${name}"]`);
  const [label, number] = [stat?.querySelector("dt"), stat?.querySelector("dd")];
  if (label) label.textContent = pluralWord(value, singular, plural);
  if (number) number.textContent = String(value);
}

/**
 * The Recognition Wall kept live over its stream (`followWallStream`, as the React page's `useLiveWall`):
 * each new entry is prepended once, the counts follow `stats` events, and the Live badge shows while connected.
 */
export function enhanceLiveWall(projectId: string): void {
  const wall = document.querySelector<HTMLElement>("[data-live-wall]");
  if (!wall) return;
  const rendered = [...wall.querySelectorAll<HTMLElement>("[data-entry-id]")];
  const known = new Set(rendered.map((item) => Number(item.dataset.entryId)));
  let highest = Math.max(0, ...rendered.map((item) => Number(item.dataset.wallSeq) || 0));
  let hiddenSupporters = Number(/\d+/.exec(wall.querySelector("[data-hidden-supporters]")?.textContent ?? "")?.[0] ?? 0);

  const badgeTemplate = document.querySelector<HTMLTemplateElement>('template[data-pitch-template="live-badge"]');
  const setLive = (live: boolean) => {
    const badge = wall.querySelector("[data-live-badge]");
    if (live && !badge && badgeTemplate) wall.querySelector("[data-wall-header]")?.append(badgeTemplate.content.cloneNode(true));
    if (!live) badge?.remove();
  };

  const showSupporters = () => {
    setStat("supporters", known.size + hiddenSupporters, "Supporter", "Supporters");
    let line = wall.querySelector<HTMLElement>("[data-hidden-supporters]");
    if (hiddenSupporters > 0 && !line) {
      const { container } = wallLists(wall);
      line = element("p", `${WALL_LIST_CLASSES.hiddenSupporters} ${known.size ? "border-t border-slate-100" : ""}`);
      line.dataset.hiddenSupporters = "";
      container.append(line);
    }
    if (line) line.textContent = additionalSupportersText(hiddenSupporters);
  };

  followWallStream(projectId, {
    highestSeen: () => highest,
    onLive: setLive,
    onEntry(entry) {
      if (known.has(entry.id)) return;
      known.add(entry.id);
      highest = Math.max(highest, entry.seq);
      const { container, list } = wallLists(wall);
      list.prepend(entryItem(entry));
      overflowIntoEarlier(container, list);
      showSupporters();
      replayLivePing(wall);
    },
    onStats(stats) {
      if (stats.signals !== undefined) setStat("signals", stats.signals, "Interest signal", "Interest signals");
      if (stats.hiddenSupporters !== undefined) {
        hiddenSupporters = stats.hiddenSupporters;
        showSupporters();
      }
    },
  });
}

/**
 * Relative times ('5 minutes ago') kept current on the React page's clock (`subscribeToClock`, 30 s steps); a
 * `data-day` time (the latest update's date, decision 65) shows its day and is left alone.
 */
export function keepTimesCurrent(root: ParentNode): void {
  const update = () => {
    const now = new Date(currentClockStep());
    for (const time of root.querySelectorAll("time[datetime]:not([data-day])")) {
      const text = formatPitchTime(time.getAttribute("datetime") ?? "", now);
      if (text && time.textContent !== text) time.textContent = text;
    }
  };
  update();
  subscribeToClock(update);
}
