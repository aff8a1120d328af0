import pino from "pino";
import { expect, it } from "vitest";
import type { DomainError } from "~/modules/errors.server";
import { LiveStreams } from "~/modules/realtime/live-streams.server";
import { createLocalProjectEvents } from "~/modules/realtime/project-events.server";
import { MAX_STREAMS_PER_ADDRESS } from "~/modules/realtime/event-stream.server";
import { openWallStream } from "~/modules/recognition/wall-stream.server";
import { describeEachDialect } from "../support/databases";
import { createProject } from "../support/fixtures";

describeEachDialect("live wall streams per network address", (getDb) => {
  it("holds a venue's 500 streams from one address open, refuses the next with a wait, and frees a place when one closes", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const deps = { db, events: createLocalProjectEvents(), streams: new LiveStreams(), logger: pino({ level: "silent" }) };
    const venue = "203.0.113.9";
    const open = (address: string) => {
      const controller = new AbortController();
      return openWallStream(deps, project.id, null, controller.signal, address).then((response) => ({ response, controller }));
    };
    const streams = await Promise.all(Array.from({ length: MAX_STREAMS_PER_ADDRESS }, () => open(venue)));
    expect(deps.streams.openFrom(venue)).toBe(MAX_STREAMS_PER_ADDRESS);

    const refused = await open(venue).then(
      () => null,
      (error: DomainError) => error,
    );
    expect(refused).toMatchObject({ code: "rate_limited", status: 429 });
    expect(refused!.retryAfterSeconds).toBeGreaterThan(0);
    // Another network still gets its stream.
    const neighbour = await open("198.51.100.20");
    expect(neighbour.response.status).toBe(200);

    streams[0]!.controller.abort();
    expect(deps.streams.openFrom(venue)).toBe(MAX_STREAMS_PER_ADDRESS - 1);
    const again = await open(venue);
    expect(again.response.status).toBe(200);

    deps.streams.closeAll();
    expect(deps.streams.openFrom(venue)).toBe(0);
  });
});
