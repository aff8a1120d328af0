// Test clients for the live wall's event stream and the instances around it: an SSE reader with fetch
// (as EventSource reads it), signals posted over HTTP as the pitch page's enhanced form sends them, and a
// TCP proxy in front of PostgreSQL that can cut and refuse connections (the shared server itself keeps running).
import net from "node:net";

export type StreamedEntry = { seq: number; displayName: string };

export type WallStreamClient = {
  entries: StreamedEntry[];
  /** The `id:` of the last entry event, what a reconnecting EventSource sends as `Last-Event-ID`. */
  lastEventId(): string | null;
  close(): void;
};

/** Opens `/api/wall/{projectId}/stream` and records every `entry` event until closed. */
export async function openWallStreamClient(baseUrl: string, projectId: string, options: { lastEventId?: string } = {}): Promise<WallStreamClient> {
  const controller = new AbortController();
  const headers: Record<string, string> = { accept: "text/event-stream" };
  if (options.lastEventId !== undefined) headers["last-event-id"] = options.lastEventId;
  const response = await fetch(`${baseUrl}/api/wall/${encodeURIComponent(projectId)}/stream`, { headers, signal: controller.signal });
  if (!response.ok || !response.body) throw new Error(`wall stream answered ${response.status}`);
  const entries: StreamedEntry[] = [];
  let lastId: string | null = null;
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    let buffer = "";
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const fields = new Map<string, string>();
          for (const line of block.split("\n")) {
            const colon = line.indexOf(":");
            if (colon > 0) fields.set(line.slice(0, colon), line.slice(colon + 1).trimStart());
          }
          if (fields.get("event") !== "entry") continue;
          const entry = JSON.parse(fields.get("data") ?? "{}") as StreamedEntry;
          entries.push({ seq: entry.seq, displayName: entry.displayName });
          lastId = fields.get("id") ?? lastId;
        }
      }
    } catch {
      // closed by the test
    }
  })();
  return { entries, lastEventId: () => lastId, close: () => controller.abort() };
}

let addressCounter = 0;

/** A public signal with 'Show my name', posted to the pitch page as the enhanced form does, as its own client. */
export async function postPublicSignal(baseUrl: string, slug: string, fields: { tierId: string; name: string; email: string }): Promise<void> {
  addressCounter += 1;
  const response = await fetch(`${baseUrl}/pitch/${slug}`, {
    method: "POST",
    redirect: "manual",
    headers: {
      origin: baseUrl,
      "content-type": "application/x-www-form-urlencoded",
      "x-forwarded-for": `10.88.${Math.floor(addressCounter / 250) % 256}.${(addressCounter % 250) + 1}`,
      "user-agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148",
    },
    body: new URLSearchParams({ via: "fetch", intent: "signal", showName: "on", ...fields }),
  });
  if (response.status >= 300) throw new Error(`signal answered ${response.status}: ${await response.text()}`);
}

export type DatabaseProxy = {
  /** A copy of `databaseUrl` that goes through the proxy. */
  url: string;
  /** Refuses new connections whose PostgreSQL start-up message names this application, until `admitAll`. */
  refuseApplication(name: string): void;
  /** Drops every open connection and refuses new ones, until `admitAll`. */
  refuseAll(): void;
  /**
   * Stops forwarding, both ways, on the open connections of this application, without closing them: what a NAT or
   * firewall that forgets a connection does. New connections are still forwarded.
   */
  stallApplication(name: string): number;
  /**
   * Stops forwarding on every open connection, and holds new ones unanswered, without closing any: a database
   * whose packets are silently dropped. Until `resumeAll`, which forwards all of them again.
   */
  silenceAll(): void;
  resumeAll(): void;
  admitAll(): void;
  close(): Promise<void>;
};

/** The `application_name` of a PostgreSQL start-up message, if the buffer holds the whole message. */
function startupApplicationName(buffer: Buffer): string | null | undefined {
  if (buffer.length < 8) return undefined;
  const length = buffer.readInt32BE(0);
  if (buffer.length < length) return undefined;
  const parts = buffer.subarray(8, length).toString("utf8").split("\0");
  for (let i = 0; i + 1 < parts.length; i += 2) if (parts[i] === "application_name") return parts[i + 1]!;
  return null;
}

/** A TCP proxy in front of a PostgreSQL server, which can cut and refuse connections like an outage would. */
export async function startDatabaseProxy(databaseUrl: string): Promise<DatabaseProxy> {
  const target = new URL(databaseUrl);
  const open = new Map<net.Socket, string | null>();
  const upstreams = new Map<net.Socket, net.Socket>();
  let refused: { all: true } | { application: string } | null = null;
  const isRefused = (application: string | null) => refused !== null && ("all" in refused || refused.application === application);

  const stalled = new Set<net.Socket>();
  let held: net.Socket[] | null = null;
  const stall = (socket: net.Socket, upstream: net.Socket) => {
    socket.unpipe(upstream);
    upstream.unpipe(socket);
    socket.pause();
    upstream.pause();
  };
  const forward = (client: net.Socket) => {
    if (refused && "all" in refused) return void client.resetAndDestroy();
    let head = Buffer.alloc(0);
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    const finish = () => {
      open.delete(client);
      upstreams.delete(client);
      if (!client.destroyed) client.destroy();
      if (!upstream.destroyed) upstream.destroy();
    };
    client.on("error", finish).on("close", finish);
    upstream.on("error", finish).on("close", finish);
    const readStartup = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const application = startupApplicationName(head);
      if (application === undefined) return;
      client.off("data", readStartup);
      if (isRefused(application)) return void client.resetAndDestroy();
      open.set(client, application);
      upstreams.set(client, upstream);
      upstream.write(head);
      client.pipe(upstream);
      upstream.pipe(client);
    };
    client.on("data", readStartup);
  };
  const server = net.createServer((client) => {
    if (!held) return forward(client);
    client.pause();
    client.on("error", () => client.destroy());
    held.push(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  const url = new URL(databaseUrl);
  url.hostname = "127.0.0.1";
  url.port = String(port);
  const dropRefused = () => {
    for (const [socket, application] of open) if (isRefused(application)) socket.resetAndDestroy();
  };
  return {
    url: url.toString(),
    refuseApplication(name) {
      refused = { application: name };
    },
    refuseAll() {
      refused = { all: true };
      dropRefused();
    },
    stallApplication(name) {
      let count = 0;
      for (const [socket, application] of open) {
        const upstream = upstreams.get(socket);
        if (application !== name || !upstream) continue;
        stall(socket, upstream);
        count += 1;
      }
      return count;
    },
    silenceAll() {
      held = [];
      for (const [socket, upstream] of upstreams) {
        stall(socket, upstream);
        stalled.add(socket);
      }
    },
    resumeAll() {
      for (const socket of stalled) {
        const upstream = upstreams.get(socket);
        if (!upstream) continue;
        socket.pipe(upstream);
        upstream.pipe(socket);
      }
      stalled.clear();
      const waiting = held ?? [];
      held = null;
      for (const client of waiting) {
        if (client.destroyed) continue;
        forward(client);
        client.resume();
      }
    },
    admitAll() {
      refused = null;
    },
    close() {
      for (const socket of open.keys()) socket.destroy();
      for (const socket of held ?? []) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
