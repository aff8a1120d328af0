// Live walls and booth screens share one read per instance (decision 43): a new entry or scan costs the
// same statements with 100 open streams of a project as with one, and every stream still gets everything once, in
// order, from its own cursor.
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from "kysely";
import { expect, it, onTestFinished } from "vitest";
import { validate } from "~/modules/forms/validation";
import { createLogger } from "~/modules/logging/logger.server";
import { LiveStreams } from "~/modules/realtime/live-streams.server";
import { openWallStream } from "~/modules/recognition/wall-stream.server";
import { openBoothStream } from "~/modules/booth/booth-stream.server";
import { recordScans } from "~/modules/scans/scans.server";
import { signalSchema } from "~/modules/signals/signal-form";
import { recordSignal } from "~/modules/signals/signals.server";
import { describeEachDialect } from "../support/databases";
import { projectEventsFor } from "../support/realtime";
import { createProject, testMailLinks } from "../support/fixtures";

const logger = createLogger("silent");
const anonymous = { userId: null };

/**
 * Counts the statements run through the database handle it is plugged into: one result per statement (a query built
 * of subqueries is transformed once per part, but answers once).
 */
class CountingPlugin implements KyselyPlugin {
  statements = 0;
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    this.statements += 1;
    return args.result;
  }
}

/** Reads a Server-Sent Events response in the background; `waitFor` resolves once what arrived matches. */
function follow(response: Response) {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const state = { text: "" };
  const waiters: (() => void)[] = [];
  void (async () => {
    for (;;) {
      const chunk = await reader.read().catch(() => ({ done: true as const, value: undefined }));
      if (chunk.done) break;
      state.text += decoder.decode(chunk.value, { stream: true });
      for (const wake of waiters.splice(0)) wake();
    }
  })();
  return {
    get text() {
      return state.text;
    },
    async waitFor(pattern: RegExp, timeoutMs = 15_000): Promise<string> {
      const deadline = Date.now() + timeoutMs;
      while (!pattern.test(state.text)) {
        if (Date.now() > deadline) throw new Error(`stream never matched ${pattern}; it got:\n${state.text}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 250);
        });
      }
      return state.text;
    },
    /** The wall numbers of the entries it got, in the order they came. */
    entrySeqs(): number[] {
      return [...state.text.matchAll(/^id: (\d+)\nevent: entry$/gm)].map((match) => Number(match[1]));
    },
  };
}

function publicSignal(tierId: string, name: string) {
  const result = validate(signalSchema, { tierId, name, email: `${name.toLowerCase().replace(/\W/g, "")}@example.com`, showName: "on" });
  if (!result.ok) throw new Error(`fixture invalid: ${result.formError}`);
  return result.data;
}

describeEachDialect("live walls share one read per instance", (getDb, dialect) => {
  /** Opens `walls` live walls of a new project, then writes one entry: the statements the walls ran for it. */
  async function statementsForOneEntry(walls: number) {
    const database = getDb();
    const project = await createProject(database.db);
    const events = await projectEventsFor(database, dialect, logger);
    const counter = new CountingPlugin();
    const deps = { db: database.db.withPlugin(counter), events, streams: new LiveStreams(), logger };
    onTestFinished(() => deps.streams.closeAll());
    const clients = await Promise.all(
      Array.from({ length: walls }, () => openWallStream(deps, project.id, null, new AbortController().signal, "203.0.113.5").then(follow)),
    );
    await Promise.all(clients.map((client) => client.waitFor(/event: stats/)));

    counter.statements = 0;
    await recordSignal(database.db, testMailLinks, project.id, publicSignal(project.tiers[0]!.id, "Ada Lovelace"), anonymous);
    await events.publish({ projectId: project.id, kind: "wall" });
    await Promise.all(clients.map((client) => client.waitFor(/"signals":1/)));
    const statements = counter.statements;

    for (const client of clients) expect(client.entrySeqs()).toEqual([1]);
    return statements;
  }

  it("costs the same statements per new entry with 100 open walls as with one, and each wall gets it once", async () => {
    const one = await statementsForOneEntry(1);
    const hundred = await statementsForOneEntry(100);
    expect(one).toBeGreaterThan(0);
    expect(hundred).toBe(one);
  });

  it("sends every wall each entry once, in order, and a wall resuming from an older cursor what it missed", async () => {
    const database = getDb();
    const { db } = database;
    const project = await createProject(db);
    const events = await projectEventsFor(database, dialect, logger);
    const deps = { db, events, streams: new LiveStreams(), logger };
    onTestFinished(() => deps.streams.closeAll());
    const tier = project.tiers[0]!.id;
    await recordSignal(db, testMailLinks, project.id, publicSignal(tier, "First One"), anonymous);
    await recordSignal(db, testMailLinks, project.id, publicSignal(tier, "Second One"), anonymous);

    const fresh = follow(await openWallStream(deps, project.id, null, new AbortController().signal));
    await fresh.waitFor(/event: stats/);
    // Back after a dropped connection, having seen only the first entry: the shared feed started after it.
    const resumed = follow(await openWallStream(deps, project.id, 1, new AbortController().signal));
    await resumed.waitFor(/event: stats/);
    const fromStart = follow(await openWallStream(deps, project.id, 0, new AbortController().signal));
    await fromStart.waitFor(/event: stats/);

    // Written in a burst: events coalesce, entries still arrive one by one, in order.
    for (let n = 3; n <= 8; n += 1) {
      await recordSignal(db, testMailLinks, project.id, publicSignal(tier, `Writer ${n}`), anonymous);
      void events.publish({ projectId: project.id, kind: "wall" });
    }
    await Promise.all([fresh, resumed, fromStart].map((client) => client.waitFor(/^id: 8\nevent: entry$[\s\S]*event: stats/m)));
    expect(fresh.entrySeqs()).toEqual([3, 4, 5, 6, 7, 8]);
    expect(resumed.entrySeqs()).toEqual([2, 3, 4, 5, 6, 7, 8]);
    expect(fromStart.entrySeqs()).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });
});

describeEachDialect("booth screens share one read per instance", (getDb, dialect) => {
  /** Opens `screens` booth screens of a new project, then stores one scan batch: the statements the screens ran for it. */
  async function statementsForOneBatch(screens: number) {
    const database = getDb();
    const project = await createProject(database.db);
    const events = await projectEventsFor(database, dialect, logger);
    const counter = new CountingPlugin();
    const deps = { db: database.db.withPlugin(counter), events, streams: new LiveStreams(), logger };
    onTestFinished(() => deps.streams.closeAll());
    const today = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000);
    const owner = { kind: "member" as const, userId: project.ownerId };
    const clients = await Promise.all(
      Array.from({ length: screens }, () => openBoothStream(deps, owner, project.id, today, null, new AbortController().signal, "203.0.113.5").then(follow)),
    );
    await Promise.all(clients.map((client) => client.waitFor(/event: counters/)));

    counter.statements = 0;
    await recordScans(database.db, [
      { projectId: project.id, qrCodeId: null, viewerFingerprint: "v1" },
      { projectId: project.id, qrCodeId: null, viewerFingerprint: "v2" },
    ]);
    await events.publish({ projectId: project.id, kind: "activity" });
    await Promise.all(clients.map((client) => client.waitFor(/"scans":2,/)));
    const statements = counter.statements;

    // The batch's two scans, summarised on one line.
    for (const client of clients) expect(client.text.match(/"kind":"scan","at":"[^"]+","count":2,/g)).toHaveLength(1);
    return statements;
  }

  it("costs the same statements per scan batch with 100 open booth screens as with one", async () => {
    const one = await statementsForOneBatch(1);
    const hundred = await statementsForOneBatch(100);
    expect(one).toBeGreaterThan(0);
    expect(hundred).toBe(one);
  });
});

