import type { AppIconConcept } from "./concepts";

/**
 * The three app icon concepts as SVG (decision 11). Shapes and gradients only, no text, so the server renders
 * them without any font. Drawn on a 1024 canvas: a full-bleed background (iOS rounds the corners itself and
 * refuses transparency) and a glyph inside the centre 560 px, which is also inside the safe zone of a
 * maskable web app icon (a circle of 40% radius).
 */

const CANVAS = 1024;
/** The glyph's box: 232..792 on both axes. */
const G0 = 232;
const G1 = 792;
const FINDER = 216;

type Stop = readonly [offset: number, color: string];

type IconOptions = {
  /** Rounded corners and a transparent outside, for favicons; app icons stay full-bleed squares. */
  rounded?: boolean;
};

/** A coordinate to a hundredth of a pixel of the 1024 px canvas: `56.16`, not `56.160000000000004`. */
const at = (value: number) => Math.round(value * 100) / 100;

function rectPath(x: number, y: number, w: number, h: number, radius: number): string {
  const r = at(radius);
  const [left, top, across, down] = [at(x + radius), at(y), at(w - 2 * radius), at(h - 2 * radius)];
  return `M${left} ${top}h${across}a${r} ${r} 0 0 1 ${r} ${r}v${down}a${r} ${r} 0 0 1 -${r} ${r}h-${across}a${r} ${r} 0 0 1 -${r} -${r}v-${down}a${r} ${r} 0 0 1 ${r} -${r}z`;
}

/** A QR finder mark: a rounded ring with a rounded square inside (one path, even-odd). */
function finder(x: number, y: number, size = FINDER): string {
  const ring = size / 6;
  const inner = size * 0.4;
  const offset = (size - inner) / 2;
  return [
    rectPath(x, y, size, size, size * 0.26),
    rectPath(x + ring, y + ring, size - 2 * ring, size - 2 * ring, size * 0.26 - ring * 0.6),
    rectPath(x + offset, y + offset, inner, inner, inner * 0.24),
  ].join("");
}

/** Small rounded square modules, 56 px. */
function modules(cells: ReadonlyArray<readonly [number, number]>, size = 56): string {
  return cells.map(([x, y]) => rectPath(x, y, size, size, size * 0.26)).join("");
}

function linearGradient(id: string, stops: readonly Stop[]): string {
  return `<linearGradient id="${id}" x1="0" y1="0" x2="1" y2="1">${stops.map(([offset, color]) => `<stop offset="${offset}" stop-color="${color}"/>`).join("")}</linearGradient>`;
}

/** Background, light from the top left, and a soft shadow under the glyph. */
function frame(stops: readonly Stop[], shadowColor: string, glyph: string, options: IconOptions): string {
  const clip = options.rounded ? ` clip-path="url(#corners)"` : "";
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${CANVAS}" height="${CANVAS}" viewBox="0 0 ${CANVAS} ${CANVAS}">`,
    "<defs>",
    linearGradient("bg", stops),
    `<radialGradient id="light" cx="0.18" cy="0.1" r="0.95"><stop offset="0" stop-color="#ffffff" stop-opacity="0.28"/><stop offset="0.6" stop-color="#ffffff" stop-opacity="0"/></radialGradient>`,
    `<filter id="shadow" x="-20%" y="-20%" width="140%" height="140%"><feDropShadow dx="0" dy="10" stdDeviation="14" flood-color="${shadowColor}" flood-opacity="0.28"/></filter>`,
    options.rounded ? `<clipPath id="corners"><rect width="${CANVAS}" height="${CANVAS}" rx="224"/></clipPath>` : "",
    "</defs>",
    `<g${clip}>`,
    `<rect width="${CANVAS}" height="${CANVAS}" fill="url(#bg)"/>`,
    `<rect width="${CANVAS}" height="${CANVAS}" fill="url(#light)"/>`,
    `<g filter="url(#shadow)">${glyph}</g>`,
    "</g>",
    "</svg>",
  ].join("");
}

/** 1: three finder marks and a sparse module pattern in white on indigo to violet. */
function minimalistQr(options: IconOptions): string {
  const right = G1 - FINDER;
  const glyph = `<path fill="#ffffff" fill-rule="evenodd" d="${[
    finder(G0, G0),
    finder(right, G0),
    finder(G0, right),
    modules([
      [484, 232],
      [484, 392],
      [232, 484],
      [392, 484],
      [484, 484],
      [576, 576],
      [736, 576],
      [656, 656],
      [576, 736],
      [736, 736],
    ]),
  ].join("")}"/>`;
  return frame(
    [
      [0, "#4f46e5"],
      [0.55, "#7c3aed"],
      [1, "#c026d3"],
    ],
    "#1e1b4b",
    glyph,
    options,
  );
}

/** 2: finder marks on the left, rising bars and an upward arrow on the right, on teal to emerald. */
function growth(options: IconOptions): string {
  const bars = [
    [504, 656],
    [616, 552],
    [728, 448],
  ]
    .map(([x, y]) => rectPath(x!, y!, 64, G1 - y!, 22))
    .join("");
  const glyph = [
    `<path fill="#ffffff" fill-rule="evenodd" d="${finder(G0, G0)}${finder(G0, G1 - FINDER)}"/>`,
    `<path fill="#ffffff" fill-opacity="0.92" d="${bars}"/>`,
    `<path fill="none" stroke="#fde047" stroke-width="44" stroke-linecap="round" stroke-linejoin="round" d="M500 408L604 318L664 362L770 252"/>`,
    `<path fill="#fde047" stroke="#fde047" stroke-width="20" stroke-linejoin="round" d="M800 220L796 316L704 226Z"/>`,
  ].join("");
  return frame(
    [
      [0, "#115e59"],
      [0.5, "#0d9488"],
      [1, "#22c55e"],
    ],
    "#042f2e",
    glyph,
    options,
  );
}

/** 3: finder marks joined to a hub and its nodes, on sky to indigo. */
function connection(options: IconOptions): string {
  const right = G1 - FINDER;
  const hub = { x: 680, y: 680 };
  const nodes = [
    { x: 770, y: 540, r: 26 },
    { x: 540, y: 770, r: 26 },
    { x: 772, y: 772, r: 20 },
  ];
  const links = [
    `M${hub.x} ${hub.y}L${right + FINDER / 2} ${G0 + FINDER}`,
    `M${hub.x} ${hub.y}L${G0 + FINDER} ${right + FINDER / 2}`,
    `M${G0 + FINDER} ${G0 + FINDER}L${hub.x} ${hub.y}`,
    ...nodes.map((node) => `M${hub.x} ${hub.y}L${node.x} ${node.y}`),
  ].join("");
  const circle = (x: number, y: number, r: number) => `M${x - r} ${y}a${r} ${r} 0 1 0 ${2 * r} 0a${r} ${r} 0 1 0 -${2 * r} 0z`;
  const glyph = [
    `<path fill="none" stroke="#ffffff" stroke-opacity="0.7" stroke-width="18" stroke-linecap="round" d="${links}"/>`,
    `<path fill="#ffffff" fill-rule="evenodd" d="${finder(G0, G0)}${finder(right, G0)}${finder(G0, right)}"/>`,
    `<path fill="#ffffff" d="${nodes.map((node) => circle(node.x, node.y, node.r)).join("")}"/>`,
    `<path fill="#ffffff" d="${circle(hub.x, hub.y, 60)}"/>`,
    `<path fill="#4f46e5" d="${circle(hub.x, hub.y, 26)}"/>`,
  ].join("");
  return frame(
    [
      [0, "#0ea5e9"],
      [0.5, "#4f46e5"],
      [1, "#6d28d9"],
    ],
    "#1e1b4b",
    glyph,
    options,
  );
}

const BUILDERS: Record<AppIconConcept, (options: IconOptions) => string> = { 1: minimalistQr, 2: growth, 3: connection };

/** The concept's SVG on a 1024 canvas (scale it by rendering at another width). */
export function appIconSvg(concept: AppIconConcept, options: IconOptions = {}): string {
  return BUILDERS[concept](options);
}
