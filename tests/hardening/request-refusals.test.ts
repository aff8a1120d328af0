import fs from "node:fs";
import http from "node:http";
import { describe, expect, it } from "vitest";
import type { AppServer } from "../support/app-server";
import { withAppServer } from "../support/with-app-server";

/**
 * Fuzzed requests used to answer 500 (and log at error level) for methods, content
 * types, paths and tokens a route does not accept, and request bodies were buffered whole before any size
 * check (4 × 256 MB peaked the server at 2,159 MB). Now every such request is a 4xx logged at info, and a body
 * is cut off with 413 as soon as it passes its route's limit.
 */

const PAGE_METHODS = "GET, HEAD, POST";
const FORM = "application/x-www-form-urlencoded";
const LONG_SLUG = "a".repeat(10_000);

type Case = {
  method: string;
  path: string;
  status: number | "4xx";
  allow?: string;
  contentType?: string;
  body?: string;
  /** A Host (or, from the trusted proxy, X-Forwarded-Host) header in place of the server's own. */
  host?: string;
  forwardedHost?: string;
};

const methodCases: Case[] = [
  ...["PUT", "DELETE", "PATCH", "OPTIONS"].flatMap((method) =>
    ["/", "/pitch/demo-project", "/pitch/demo-project/submit", "/unsubscribe?token=x", "/unsubscribe/one-click?token=x", "/dashboard", "/project/create", "/no-such-page"].map(
      (path): Case => ({ method, path, status: 405, allow: PAGE_METHODS }),
    ),
  ),
  ...["GET", "PUT", "DELETE", "PATCH"].flatMap((method) =>
    ["submit-intro", "subscribe-updates", "track-scan", "handle-unsubscribe", "generate-qr-code", "generate-app-icon"].map(
      (name): Case => ({ method, path: `/api/functions/${name}`, status: 405, allow: "POST" }),
    ),
  ),
  ...["POST", "PUT", "DELETE"].map((method): Case => ({ method, path: "/api/activity", status: 405, allow: "GET, HEAD" })),
];

const badMultipart = { contentType: "multipart/form-data; boundary=zzz", body: "--zzz\r\nnot a part" };
const contentTypeCases: Case[] = [
  ...["/pitch/demo-project", "/pitch/demo-project/submit", "/unsubscribe", "/auth", "/auth/forgot-password", "/auth/reset-password", "/project/create"].flatMap((path): Case[] => [
    { method: "POST", path, status: 415, contentType: "application/json", body: '{"intent":"intro"}' },
    { method: "POST", path, status: 415, ...badMultipart },
    { method: "POST", path, status: 415, contentType: "text/plain", body: "intent=intro" },
  ]),
  { method: "POST", path: "/api/functions/submit-intro", status: 415, contentType: FORM, body: "name=x" },
  { method: "POST", path: "/api/functions/track-scan", status: 415, ...badMultipart },
  // A page without an action: React Router's own 405, which names what the page does accept.
  { method: "POST", path: "/privacy", status: 405, allow: "GET, HEAD", contentType: FORM, body: "a=b" },
  { method: "POST", path: "/dashboard", status: 405, allow: "GET, HEAD", contentType: FORM, body: "a=b" },
  // A post with no body at all cannot be read as a form.
  { method: "POST", path: "/pitch/demo-project", status: 400 },
];

const pathCases: Case[] = [
  { method: "GET", path: "/pitch/foo%", status: 400 },
  { method: "GET", path: "/%", status: 400 },
  { method: "GET", path: "/pitch/%E0%A4%A", status: 400 },
  { method: "POST", path: "/pitch/foo%/submit", status: 400, contentType: FORM, body: "intent=intro" },
  { method: "GET", path: `/pitch/${LONG_SLUG}`, status: "4xx" },
  { method: "POST", path: `/pitch/${LONG_SLUG}/submit`, status: "4xx", contentType: FORM, body: "intent=intro" },
  { method: "GET", path: `/pitch/${"a".repeat(1_000)}`, status: 404 },
];

const tokenCases: Case[] = ["not-a-token", "a.b.c", "%%%", "..", `${"x".repeat(5_000)}.1.2`, "%E0%A4%A"].map((token) => ({
  method: "POST",
  path: `/unsubscribe/one-click?token=${token}`,
  status: 400,
  contentType: FORM,
  body: "List-Unsubscribe=One-Click",
}));

// A Host header no URL can be made of was a 500 logged as an error (React Router builds the request's URL from it).
const hostCases: Case[] = [
  ...["a b", "exa%mple.com", "[::1", "example.com:99999", "<script>"].flatMap((host): Case[] => [
    { method: "GET", path: "/privacy", status: 400, host },
    { method: "POST", path: "/pitch/demo-project/submit", status: 400, contentType: FORM, body: "intent=intro", host },
  ]),
  { method: "GET", path: "/privacy", status: 400, forwardedHost: "a b" },
  { method: "GET", path: "/", status: 400, forwardedHost: "[::1" },
];

export const REFUSAL_CASES = [...methodCases, ...contentTypeCases, ...pathCases, ...tokenCases, ...hostCases];

function errorLines(server: AppServer): string[] {
  return server.logs.filter((line) => /"level":(50|60)/.test(line));
}

for (const dialect of ["sqlite", "postgres"] as const) {
  describe(`requests a route does not accept (${dialect})`, () => {
    const server = withAppServer(dialect === "postgres" ? { postgres: "pitchqr_refusals" } : {});

    it(`answers each of ${REFUSAL_CASES.length} cases with its 4xx, never 500, and logs none at error level`, async () => {
      const answers: string[] = [];
      const expected: string[] = [];
      for (const testCase of REFUSAL_CASES) {
        const response = await send(server.url, testCase);
        const label = `${testCase.method} ${testCase.path.slice(0, 60)}${testCase.host ? ` Host: ${testCase.host}` : ""}${testCase.forwardedHost ? ` X-Forwarded-Host: ${testCase.forwardedHost}` : ""}`;
        const status = testCase.status === "4xx" && response.status >= 400 && response.status < 500 ? "4xx" : response.status;
        answers.push(`${label} → ${status}${testCase.allow ? ` Allow: ${response.headers.allow}` : ""}`);
        expected.push(`${label} → ${testCase.status}${testCase.allow ? ` Allow: ${testCase.allow}` : ""}`);
      }
      expect(answers).toEqual(expected);
      expect(errorLines(server)).toEqual([]);
    });

    it("answers the router's .data variant of a live stream at once with 404, never a silent hold", async () => {
      const page = await (await fetch(`${server.url}/pitch/demo-project`)).text();
      const projectId = /data-project-id="([^"]+)"/.exec(page)?.[1];
      expect(projectId).toBeDefined();
      for (const path of [`/api/wall/${projectId}/stream.data`, `/project/${projectId}/booth/stream.data`]) {
        const response = await fetch(`${server.url}${path}`, { signal: AbortSignal.timeout(10_000) });
        expect([path, response.status]).toEqual([path, 404]);
        await response.body?.cancel();
      }
      // The stream itself still opens.
      const stream = await fetch(`${server.url}/api/wall/${projectId}/stream`, { signal: AbortSignal.timeout(10_000) });
      expect(stream.headers.get("content-type")).toMatch(/^text\/event-stream/);
      await stream.body?.cancel();
    });
  });
}

describe("request bodies past their route's limit", () => {
  const server = withAppServer();

  it("are answered 413 and the connection is closed, chunked or with a Content-Length", async () => {
    const cases = [
      { path: "/pitch/demo-project/submit", contentType: FORM, bytes: 1024 * 1024, chunked: true },
      { path: "/pitch/demo-project/submit", contentType: FORM, bytes: 1024 * 1024, chunked: false },
      { path: "/project/create", contentType: FORM, bytes: 300 * 1024, chunked: true },
      { path: "/project/create", contentType: FORM, bytes: 300 * 1024, chunked: false },
      { path: "/api/functions/submit-intro", contentType: "application/json", bytes: 100 * 1024, chunked: true },
      { path: "/api/functions/track-scan", contentType: "application/json", bytes: 8 * 1024, chunked: false },
      { path: "/unsubscribe/one-click?token=x", contentType: FORM, bytes: 64 * 1024, chunked: true },
    ];
    const outcomes = [];
    for (const testCase of cases) outcomes.push(await streamBody(server.url, testCase));
    expect(outcomes.map(({ status, socketClosed }) => ({ status, socketClosed }))).toEqual(cases.map(() => ({ status: 413, socketClosed: true })));
    expect(errorLines(server)).toEqual([]);
  });

  it("leaves the largest legitimate project form (about 200 KB) to the route", async () => {
    const response = await fetch(`${server.url}/project/create`, {
      method: "POST",
      headers: { "content-type": FORM, origin: server.url },
      body: new URLSearchParams({ title: "x", summary: "é".repeat(22_000) }).toString(),
      redirect: "manual",
    });
    expect(response.status).not.toBe(413);
    expect(response.status).toBeLessThan(500);
  });

  it("keeps memory bounded: 4 + 4 concurrent 64 MB bodies are refused early and RSS stays within 50 MB", async () => {
    const rssBefore = residentMegabytes(server.pid);
    const huge = 64 * 1024 * 1024;
    const outcomes = await Promise.all([
      ...Array.from({ length: 4 }, () => streamBody(server.url, { path: "/pitch/demo-project", contentType: FORM, bytes: huge, chunked: true })),
      ...Array.from({ length: 4 }, () => streamBody(server.url, { path: "/api/functions/subscribe-updates", contentType: "application/json", bytes: huge, chunked: true })),
    ]);
    const rssAfter = residentMegabytes(server.pid);
    console.log(`RSS before ${rssBefore} MB, after ${rssAfter} MB; bytes sent before each 413: ${outcomes.map((outcome) => outcome.sentBeforeAnswer).join(", ")}`);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(Array(8).fill(413));
    for (const outcome of outcomes) expect(outcome.sentBeforeAnswer).toBeLessThan(huge / 4);
    expect(rssAfter - rssBefore).toBeLessThan(50);
    expect(errorLines(server)).toEqual([]);
  });
});

async function send(baseUrl: string, testCase: Case): Promise<{ status: number; headers: http.IncomingHttpHeaders }> {
  // node:http rather than fetch: fetch normalises paths (a lone `%`) and refuses some methods.
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { origin: baseUrl };
    if (testCase.contentType) headers["content-type"] = testCase.contentType;
    if (testCase.body !== undefined) headers["content-length"] = String(Buffer.byteLength(testCase.body));
    if (testCase.host !== undefined) headers.host = testCase.host;
    if (testCase.forwardedHost !== undefined) headers["x-forwarded-host"] = testCase.forwardedHost;
    const request = http.request(`${baseUrl}${testCase.path}`, { method: testCase.method, headers }, (response) => {
      response.resume();
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers }));
    });
    request.on("error", reject);
    request.end(testCase.body);
  });
}

type Streamed = { status: number; socketClosed: boolean; sentBeforeAnswer: number };

/** Posts `bytes` of body generated on the fly, stopping as soon as the server answers. */
function streamBody(baseUrl: string, options: { path: string; contentType: string; bytes: number; chunked: boolean }): Promise<Streamed> {
  return new Promise((resolve, reject) => {
    const chunk = Buffer.alloc(64 * 1024, "a");
    const headers: Record<string, string> = { "content-type": options.contentType, origin: baseUrl };
    if (!options.chunked) headers["content-length"] = String(options.bytes);
    let sent = 0;
    let status = 0;
    let sentBeforeAnswer = 0;
    const request = http.request(`${baseUrl}${options.path}`, { method: "POST", headers, agent: false }, (response) => {
      status = response.statusCode ?? 0;
      sentBeforeAnswer = sent;
      response.resume();
    });
    request.on("socket", (socket) => {
      socket.on("close", () => resolve({ status, socketClosed: true, sentBeforeAnswer }));
    });
    // Writing after the server closed the connection fails (EPIPE, ECONNRESET): expected once it answered.
    request.on("error", (error) => {
      if (!status) reject(error);
    });
    const write = () => {
      while (!status && sent < options.bytes && !request.destroyed) {
        const piece = chunk.subarray(0, Math.min(chunk.length, options.bytes - sent));
        sent += piece.length;
        if (!request.write(piece)) return void request.once("drain", write);
      }
      if (!status && sent >= options.bytes) request.end();
    };
    write();
  });
}

function residentMegabytes(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
  return Math.round(Number(match![1]) / 1024);
}
