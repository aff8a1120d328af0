import { describe, expect, it } from "vitest";
import { createLocalProjectEvents } from "~/modules/realtime/project-events.server";
import { ProjectFeeds, type ProjectFeed } from "~/modules/realtime/project-feeds.server";

/** A feed whose reads wait until the test lets them end, counting them. */
class CountingFeed implements ProjectFeed {
  reads = 0;
  #release: (() => void)[] = [];
  refresh(): Promise<void> {
    this.reads += 1;
    return new Promise((resolve) => this.#release.push(resolve));
  }
  finishReads() {
    for (const release of this.#release.splice(0)) release();
  }
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("project feeds", () => {
  it("reads once per event for all of a project's streams, and events during a read make one more read", async () => {
    const events = createLocalProjectEvents();
    const feeds = new ProjectFeeds<CountingFeed>(events, { readWhenMade: false, wants: (event) => event.kind === "wall", onError: () => {} });
    const joined = Array.from({ length: 100 }, () => feeds.join("p1", () => new CountingFeed()));
    const feed = joined[0]!.feed;
    expect(joined.every((membership) => membership.feed === feed)).toBe(true);

    await events.publish({ projectId: "p1", kind: "wall" });
    await events.publish({ projectId: "p1", kind: "content" });
    await settle();
    expect(feed.reads).toBe(1);
    // Three events while that read runs: one more read, after it.
    for (let n = 0; n < 3; n += 1) await events.publish({ projectId: "p1", kind: "wall" });
    await settle();
    expect(feed.reads).toBe(1);
    feed.finishReads();
    await settle();
    expect(feed.reads).toBe(2);
    feed.finishReads();
  });

  it("ends a project's feed with its last stream, and a feed made for walls reads at once", async () => {
    const events = createLocalProjectEvents();
    const feeds = new ProjectFeeds<CountingFeed>(events, { readWhenMade: true, wants: () => true, onError: () => {} });
    const first = feeds.join("p1", () => new CountingFeed());
    const second = feeds.join("p1", () => new CountingFeed());
    await settle();
    expect(first.feed.reads).toBe(1);
    first.feed.finishReads();
    first.leave();
    first.leave();
    expect(feeds.size).toBe(1);
    second.leave();
    expect(feeds.size).toBe(0);
    await events.publish({ projectId: "p1", kind: "wall" });
    await settle();
    expect(first.feed.reads).toBe(1);
    const again = feeds.join("p1", () => new CountingFeed());
    expect(again.feed).not.toBe(first.feed);
  });
});
