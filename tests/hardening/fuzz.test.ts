import http from "node:http";
import fc from "fast-check";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/schema";
import { isStorableText } from "~/modules/forms/storable-text";
import { showServerLogsOnFailure } from "../support/clients";
import { startAppServer, type AppServer } from "../support/app-server";
import { counterDrift, movedDrift } from "../support/counter-drift";
import { createPostgresDatabase } from "../support/postgres";
import { signUpAndSignIn } from "../support/sign-up";
import { driftReader, openTestDb, projectIdBySlug, tableColumns, type TestDb } from "../support/test-db";

/**
 * A seeded fuzzer against the built app (as `npm start` runs it), on SQLite and on PostgreSQL.
 * Every public page, endpoint, form action (every intent) and method, signed out and as a founder signed in
 * (with the site's own Origin, so actions are reached): bad JSON, wrong types, huge and unicode strings, NUL
 * and other control characters, lone surrogates, arrays for scalars, repeated fields, bad ids, broken
 * %-encoding, odd content types and methods. The same seeded sequence goes to both databases, one request at
 * a time, and must get the same status on both (a request neither answered 429).
 *
 * Asserted: no answer ≥ 500 and every 405 with Allow; afterwards no stored text with control characters, no
 * text past the spec's limits, every e-mail well-formed and lowercase, counters moved exactly as the raw rows
 * did; and no request holding the event loop 200 ms. The loop's worst delay is read from /healthz every 250 ms
 * while the fuzz runs; a shared machine can starve the server as long, so the requests of a slow poll are sent
 * again alone, twice, and a request that holds the loop both times fails the test (decision "seeded fuzz").
 *
 * FUZZ_SEED (default below) and FUZZ_REQUESTS (default 5,200 per database) explore other sequences.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 15_008);
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 5_200);
const MAX_EVENT_LOOP_DELAY_MS = 200;
const HEALTH_POLL_MS = 250;
const PASSWORD = "fuzz-secret-123";

// ---------------------------------------------------------------------------------------------------------------
// The abstract requests: the same sequence for both databases; the ids of each database's own rows are named
// (a Ref) and filled in when the request is sent.

type RefName =
  | "demoSlug"
  | "demoProjectId"
  | "demoTierId"
  | "ownSlug"
  | "ownProjectId"
  | "ownQrId"
  | "ownTierId"
  | "ownLeadId"
  | "founderEmail";

class Ref {
  constructor(readonly name: RefName) {}
}
/** Text already in wire form: a malformed %-sequence, say, that no encoder would produce. */
class Raw {
  constructor(readonly wire: string) {}
}
type Value = string | Ref | Raw;

type Body =
  | { kind: "none" }
  | { kind: "form"; fields: Array<[string, Value]>; contentType?: string }
  | { kind: "json"; value: unknown; contentType?: string }
  | { kind: "text"; text: string; contentType?: string };

type FuzzRequest = {
  group: string;
  method: string;
  path: Value[];
  query: Array<[string, Value]>;
  body: Body;
  signedIn: boolean;
  /** Sent from one of a few busy addresses, to meet the rate limits (its status is not compared across databases). */
  flood: boolean;
  /** The `Idempotency-Key` header of a pitch form sent to `/pitch/{slug}/submit`. */
  idempotencyKey?: string;
  /** A Host no URL can be made of, or a viewer cookie this app never signed. */
  odd: OddHeaders;
};

type OddHeaders = { host?: string; viewerCookie?: string };

const ref = (name: RefName) => fc.constant(new Ref(name));
const raw = (...wires: string[]) => fc.constantFrom(...wires.map((wire) => new Raw(wire)));

const CONTROL = ["\u0000", "\u0001", "\u0007", "\u0008", "\u000b", "\u000c", "\u001b", "\u001f", "\u007f"];
const LONE_SURROGATES = ["\ud800", "\udfff", "a\ud83dz", "\udc00\ud800"];

/** Any text a client might send: ordinary, unicode, control characters, lone surrogates, huge. */
const fuzzText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 30 }) },
  { weight: 2, arbitrary: fc.tuple(fc.string({ maxLength: 10 }), fc.constantFrom(...CONTROL, ...LONE_SURROGATES)).map(([text, bad]) => `${text}${bad}${text}`) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom("a", "é", "😀", "x ", "\n", "<b>", "=1+1"), fc.constantFrom(99, 100, 101, 254, 256, 1_001, 2_100, 5_000, 20_000))
      .map(([unit, count]) => unit.repeat(count)),
  },
  { weight: 1, arbitrary: fc.constantFrom("", " ", "null", "undefined", "0", "-1", "1e999", "true", "on", "[]", "{}", "__proto__", "constructor") },
);

const fuzzEmail: fc.Arbitrary<Value> = fc.oneof(
  fc.constantFrom("ada@example.com", "Ada@Example.COM", " ada@example.com ", "bo+tag@example.org", "cy@example.com"),
  fc.emailAddress().map((email) => email.slice(0, 300)),
  fc.constantFrom("no-at-sign", "a@b", "@example.com", "a@@example.com", "a b@example.com", "a@example.com\r\nBcc: x@example.com", "a\u0000@example.com"),
  ref("founderEmail"),
  fuzzText,
);

const idOf = (name: RefName): fc.Arbitrary<Value> =>
  fc.oneof(
    { weight: 3, arbitrary: ref(name) },
    { weight: 1, arbitrary: fc.uuid() },
    { weight: 1, arbitrary: fuzzText },
    { weight: 1, arbitrary: raw("%", "%zz", "%ED%A0%80", "%C3%28", "%00", "..", "%2e%2e", "a%2Fb", "%FF%FE") },
  );

const projectIdValue: fc.Arbitrary<Value> = fc.oneof(idOf("ownProjectId"), ref("demoProjectId"));
const slugValue: fc.Arbitrary<Value> = fc.oneof(
  { weight: 3, arbitrary: ref("demoSlug") },
  { weight: 2, arbitrary: ref("ownSlug") },
  { weight: 1, arbitrary: fuzzText },
  { weight: 1, arbitrary: fc.constant("a".repeat(3_000)) },
  { weight: 1, arbitrary: raw("%", "demo%", "%E0%A4%A", "%00", "%ED%A0%80", "%2e%2e%2f") },
);

/** A field value, sometimes of the wrong kind entirely. */
const fieldValue = (good: fc.Arbitrary<Value>): fc.Arbitrary<Value> =>
  fc.oneof({ weight: 3, arbitrary: good }, { weight: 2, arbitrary: fuzzText }, { weight: 1, arbitrary: raw("%", "%zz", "%ED%A0%80", "%C0%80", "%00") });

/** Form fields: the named ones, some missing, some repeated, plus strays. */
function formFields(named: Record<string, fc.Arbitrary<Value>>): fc.Arbitrary<Array<[string, Value]>> {
  const entries = Object.entries(named).map(([name, value]) =>
    fc.oneof(
      { weight: 6, arbitrary: fieldValue(value).map((v): Array<[string, Value]> => [[name, v]]) },
      { weight: 1, arbitrary: fc.constant([] as Array<[string, Value]>) },
      { weight: 1, arbitrary: fc.array(fieldValue(value), { minLength: 2, maxLength: 12 }).map((vs) => vs.map((v): [string, Value] => [name, v])) },
    ),
  );
  const strays = fc.array(fc.tuple(fuzzText.map((name) => name.slice(0, 50)), fieldValue(fuzzText)), { maxLength: 2 });
  return fc.tuple(fc.tuple(...entries), strays).map(([chosen, extra]) => [...chosen.flat(), ...(extra as Array<[string, Value]>)]);
}

/** A JSON body shaped like `shape`, with leaves of wrong types, arrays for scalars, unicode and control text. */
function jsonLike(shape: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<unknown> {
  const leaf = (good: fc.Arbitrary<unknown>) =>
    fc.oneof(
      { weight: 5, arbitrary: good },
      { weight: 2, arbitrary: fuzzText },
      { weight: 1, arbitrary: fc.array(good, { maxLength: 3 }) },
      { weight: 1, arbitrary: fc.constantFrom(null, true, 0, -1, 1.5, 1e308, {}, [], { $ne: 1 }) },
    );
  const record = fc.record(Object.fromEntries(Object.entries(shape).map(([key, good]) => [key, leaf(good)])), { requiredKeys: [] });
  return fc.oneof(
    { weight: 8, arbitrary: record },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
    { weight: 1, arbitrary: fc.constantFrom(null, [], "string", 42) },
  );
}

const badJsonText = fc.constantFrom(
  "",
  "{",
  '{"projectId":',
  "nul",
  "\ufeff{}",
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
  "[".repeat(20_000) + "]".repeat(20_000),
  '{"a":' + "[".repeat(2_000) + "]".repeat(2_000) + "}",
  `{"projectId":"${"x".repeat(40_000)}"}`,
  '{"__proto__":{"isAdmin":true}}',
);

const METHODS = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "PROPFIND", "FUZZ"] as const;
const oddContentType = fc.constantFrom(
  "text/plain",
  "multipart/form-data; boundary=zzz",
  "multipart/form-data",
  "application/json; charset=utf-16",
  "APPLICATION/X-WWW-FORM-URLENCODED",
  "application/x-www-form-urlencoded; charset=latin1",
  "application/xml",
  "",
  "application/x-www-form-urlencoded, application/json",
);

const visitorIntent = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom("intro", "subscribe", "signal") },
  { weight: 1, arbitrary: fuzzText },
);
const roleTag = fc.constantFrom("Angel", "Operator", "Press", "Designer", "PM", "Founder", "Engineer", "Ninja");

const visitorFormFields = formFields({
  intent: visitorIntent,
  name: fc.constantFrom("Ada Lovelace", "Bo"),
  email: fuzzEmail,
  linkedinUrl: fc.constantFrom("https://www.linkedin.com/in/ada", "http://x", "javascript:alert(1)", ""),
  note: fc.constantFrom("Let's talk", ""),
  roleTags: roleTag,
  consent: fc.constantFrom("on", "true", "off"),
  tierId: fc.oneof(ref("demoTierId"), ref("ownTierId")),
  message: fc.constantFrom("Go team", ""),
  showName: fc.constantFrom("on", "off"),
  showMessage: fc.constantFrom("on", "off"),
  website: fc.constantFrom("", "http://spam.example"),
  via: fc.constantFrom("fetch", "form"),
});

const noBody: Body = { kind: "none" };
const request = (group: string, method: string, pathParts: Value[], options: Partial<FuzzRequest> = {}): FuzzRequest => ({
  group,
  method,
  path: pathParts,
  query: [],
  body: noBody,
  signedIn: false,
  flood: false,
  odd: {},
  ...options,
});

/** Pages and downloads, read with GET (now and then HEAD or an odd method). */
const pageRequest: fc.Arbitrary<FuzzRequest> = fc
  .tuple(
    fc.oneof(
      fc.constantFrom<Value[]>([""], ["auth"], ["dashboard"], ["my-projects"], ["project", "create"], ["privacy"], ["terms"], ["support"]),
      fc.constantFrom<Value[]>(["pledge-success"], ["saved"], ["projects", "new"], ["app-icon-generator"], ["manifest.webmanifest"], ["favicon.svg"], ["apple-touch-icon.png"]),
      fc.tuple(fc.constantFrom("app-icons", "icons"), fc.oneof(fc.constantFrom("concept-1.png", "concept-4.png", "icon-192.png", "icon-512.png"), fuzzText)).map((parts): Value[] => parts),
      slugValue.map((slug): Value[] => ["pitch", slug]),
      slugValue.map((slug): Value[] => ["p", slug]),
      slugValue.map((slug): Value[] => ["pitch", slug, "manifest.webmanifest"]),
      fc
        .tuple(projectIdValue, fc.constantFrom("edit", "qr-codes", "updates", "analytics", "contacts.csv", "leads", "leads.vcf", "booth"))
        .map(([id, page]): Value[] => ["project", id, page]),
      projectIdValue.map((id): Value[] => ["project", id, "leads", "settings"]),
      projectIdValue.map((id): Value[] => ["projects", id, "edit"]),
      fc.tuple(projectIdValue, idOf("ownLeadId")).map(([id, lead]): Value[] => ["project", id, "leads", lead, "vcard.vcf"]),
      fc.tuple(projectIdValue, idOf("ownQrId"), fc.constantFrom("print", "print.svg")).map(([id, qr, file]): Value[] => ["project", id, "qr", qr, file]),
      fc.array(fuzzText.map((text) => text.slice(0, 60)), { minLength: 1, maxLength: 3 }),
      raw("%", "%zz", "pitch%", "%ED%A0%80", "a".repeat(2_100)).map((wire): Value[] => [wire]),
    ),
    fc.array(
      fc.tuple(
        fc.constantFrom("returnTo", "qr", "dialog", "sent", "size", "status", "action", "q", "after", "event", "mode", "token", "key"),
        fieldValue(fc.constantFrom("/dashboard", "/..//evil.example", "letter", "a6", "intro", "1", "A".repeat(43))),
      ),
      { maxLength: 3 },
    ),
    fc.oneof({ weight: 8, arbitrary: fc.constant("GET") }, { weight: 1, arbitrary: fc.constant("HEAD") }, { weight: 1, arbitrary: fc.constantFrom(...METHODS) }),
    fc.boolean(),
  )
  .map(([parts, query, method, signedIn]) => request("pages", method, parts, { query, signedIn }));

/** The pitch page's forms, posted to the page and to its `/submit` address. */
const pitchFormRequest: fc.Arbitrary<FuzzRequest> = fc
  .tuple(slugValue, fc.boolean(), visitorFormFields, fc.oneof({ weight: 9, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: oddContentType }), fc.boolean(), fc.nat(5))
  .map(([slug, submit, fields, contentType, signedIn, floodDie]) =>
    request("pitch forms", "POST", submit ? ["pitch", slug, "submit"] : ["pitch", slug], {
      body: { kind: "form", fields, contentType },
      signedIn: signedIn && floodDie === 1,
      flood: floodDie === 0,
    }),
  );

const authRequest: fc.Arbitrary<FuzzRequest> = fc.oneof(
  fc
    .tuple(
      formFields({
        intent: fc.constantFrom("signin", "signup"),
        email: fuzzEmail,
        password: fc.constantFrom(PASSWORD, "short", "x".repeat(200)),
        name: fc.constantFrom("Fuzz Founder", ""),
        returnTo: fc.constantFrom("/dashboard", "/..//evil.example/login", "//evil.example", "/%2e%2e//evil.example", "https://evil.example"),
      }),
      fc.nat(9),
    )
    .map(([fields, floodDie]) => request("auth", "POST", ["auth"], { body: { kind: "form", fields }, flood: floodDie === 0 })),
  // Signed out only: the founder's own session stays for the rest of the run.
  fc.constantFrom("POST", "GET").map((method) => request("auth", method, ["auth", "sign-out"])),
);

const tokenValue: fc.Arbitrary<Value> = fc.oneof(
  fuzzText,
  fc.tuple(fc.base64String({ maxLength: 40 }), fc.string({ maxLength: 8 }), fc.base64String({ maxLength: 60 })).map(([a, b, c]) => `${a}.${b}.${c}`),
  raw("%", "%zz", "a.b.c%", "%ED%A0%80", "x".repeat(3_000)),
);

const unsubscribeRequest: fc.Arbitrary<FuzzRequest> = fc.oneof(
  fc
    .tuple(formFields({ token: tokenValue, email: fuzzEmail }), fc.boolean(), fc.nat(9))
    .map(([fields, withToken, floodDie]) =>
      request("unsubscribe", "POST", ["unsubscribe"], {
        body: { kind: "form", fields: withToken ? fields : fields.filter(([name]) => name !== "token") },
        flood: floodDie === 0,
      }),
    ),
  fc
    .tuple(tokenValue, fc.constantFrom("GET", "POST", "PUT", "DELETE"), fc.option(oddContentType, { nil: undefined }))
    .map(([token, method, contentType]) =>
      request("unsubscribe", method, ["unsubscribe", "one-click"], {
        query: [["token", token]],
        body: method === "POST" ? { kind: "text", text: "List-Unsubscribe=One-Click", contentType: contentType ?? "application/x-www-form-urlencoded" } : noBody,
      }),
    ),
  tokenValue.map((token) => request("unsubscribe", "GET", ["unsubscribe"], { query: [["token", token]] })),
  // Decision 37: the confirmation mailed to a typed address, opened and posted.
  tokenValue.map((token) => request("unsubscribe", "GET", ["unsubscribe"], { query: [["confirm", token]] })),
  formFields({ confirm: tokenValue }).map((fields) => request("unsubscribe", "POST", ["unsubscribe"], { body: { kind: "form", fields } })),
);

/** Decision 38: the saved list's confirmation and "stop" links, opened and posted with any token. */
const listMailRequest: fc.Arbitrary<FuzzRequest> = fc
  .tuple(fc.constantFrom<Value>("confirm", "stop"), tokenValue, formFields({ token: tokenValue }), fc.boolean())
  .map(([page, token, fields, post]) =>
    post
      ? request("list mail", "POST", ["list-mail", page], { body: { kind: "form", fields } })
      : request("list mail", "GET", ["list-mail", page], { query: [["token", token]] }),
  );

const functionBodies: Record<string, fc.Arbitrary<unknown>> = {
  "submit-intro": jsonLike({
    projectId: fc.oneof(ref("demoProjectId"), ref("ownProjectId")),
    contact: jsonLike({ name: fc.constant("Ada"), email: fuzzEmail, linkedinUrl: fc.constant("https://www.linkedin.com/in/ada") }),
    note: fc.constant("Hello"),
    roleTags: fc.array(roleTag, { maxLength: 9 }),
    website: fc.constant(""),
  }),
  "subscribe-updates": jsonLike({
    projectId: fc.oneof(ref("demoProjectId"), ref("ownProjectId")),
    contact: jsonLike({ name: fc.constant("Bo"), email: fuzzEmail }),
    consent: fc.constantFrom(true, "on"),
  }),
  "track-scan": jsonLike({
    projectId: fc.oneof(ref("demoProjectId"), ref("ownProjectId")),
    qrCodeId: fc.oneof(ref("ownQrId"), fc.constant(null)),
    viewerFingerprint: fc.oneof(fc.string({ unit: fc.constantFrom(..."0123456789abcdef"), minLength: 32, maxLength: 32 }), fuzzText),
  }),
  "handle-unsubscribe": jsonLike({ email: fuzzEmail }),
  "save-pitch": jsonLike({ projectId: fc.oneof(ref("demoProjectId"), ref("ownProjectId")), qrCodeId: fc.oneof(ref("ownQrId"), fc.constant(null)) }),
  "email-saved-list": jsonLike({ email: fuzzEmail, slugs: fc.array(fc.oneof(ref("ownSlug"), ref("demoSlug"), fuzzText), { maxLength: 60 }) }),
  "generate-qr-code": jsonLike({ slug: fc.oneof(ref("ownSlug"), ref("demoSlug")), qrCodeId: ref("ownQrId") }),
  "generate-app-icon": jsonLike({ concept: fc.constantFrom(1, 2, 3, 4, "1") }),
};

const functionRequest: fc.Arbitrary<FuzzRequest> = fc
  .tuple(
    fc.constantFrom(...Object.keys(functionBodies)),
    fc.oneof({ weight: 8, arbitrary: fc.constant("json") }, { weight: 2, arbitrary: fc.constant("bad") }, { weight: 1, arbitrary: fc.constant("odd") }),
    fc.oneof({ weight: 9, arbitrary: fc.constant("POST") }, { weight: 1, arbitrary: fc.constantFrom(...METHODS) }),
    fc.boolean(),
    fc.nat(9),
  )
  .chain(([name, kind, method, signedIn, floodDie]) =>
    (kind === "json" ? functionBodies[name]!.map((value): Body => ({ kind: "json", value })) : kind === "bad" ? badJsonText.map((text): Body => ({ kind: "text", text, contentType: "application/json" })) : fc.tuple(functionBodies[name]!, oddContentType).map(([value, contentType]): Body => ({ kind: "json", value, contentType }))).map(
      (body) => request("api functions", method, ["api", "functions", name], { body, signedIn, flood: floodDie === 0 }),
    ),
  );

const apiReadRequest: fc.Arbitrary<FuzzRequest> = fc.oneof(
  fc
    .tuple(fc.array(fc.tuple(fc.constantFrom("projectId", "since", "limit", "after"), fieldValue(fc.oneof(ref("ownProjectId"), fc.constant("10")))), { maxLength: 3 }), fc.constantFrom("GET", "GET", "POST", "DELETE"))
    .map(([query, method]) => request("api reads", method, ["api", "activity"], { query })),
  // Bad ids only for the live wall: a good one opens an endless stream (its own suites cover it).
  fc
    .tuple(fc.oneof(fuzzText, fc.uuid(), raw("%", "%00", "%ED%A0%80")), fc.option(fc.constantFrom("-1", "x", "1e99", "99999999999999999999"), { nil: undefined }))
    .map(([id, after]) => request("api reads", "GET", ["api", "wall", id, "stream"], { query: after === undefined ? [] : [["after", after]] })),
  fc.array(fuzzText.map((text) => text.slice(0, 40)), { minLength: 1, maxLength: 3 }).map((parts) => request("api reads", "GET", ["api", ...parts])),
  // The router's `.data` variant of a streaming route answers at once, never a silent hold.
  fc.oneof(ref("demoProjectId"), ref("ownProjectId")).map((id) => request("api reads", "GET", ["api", "wall", id, "stream.data"])),
  fc.tuple(projectIdValue, fc.boolean()).map(([id, signedIn]) => request("api reads", "GET", ["project", id, "booth", "stream.data"], { signedIn })),
  // The booth's stream: the owner's opens (and is cut as soon as it answers), anyone else's is refused.
  fc
    .tuple(projectIdValue, fc.option(fc.oneof(fuzzText, fc.constantFrom("2026-01-01T00:00:00.000Z", "-1", "1e99")), { nil: undefined }), fc.constantFrom("GET", "HEAD", "POST"), fc.boolean())
    .map(([id, today, method, signedIn]) =>
      request("api reads", method, ["project", id, "booth", "stream"], { query: today === undefined ? [] : [["today", today]], signedIn }),
    ),
);

const projectFormFields = {
  title: fc.constantFrom("Fuzzed pitch", "T"),
  slug: fc.constant<Value>(new Ref("ownSlug")),
  oneLiner: fc.constantFrom("A one-liner", ""),
  summary: fc.constantFrom("Summary", ""),
  videoUrl: fc.constantFrom("https://youtu.be/dQw4w9WgXcQ", "ftp://x", ""),
  deckUrl: fc.constantFrom("https://example.com/deck.pdf", ""),
  calendlyUrl: fc.constantFrom("", "not a url"),
  status: fc.constantFrom("published", "draft", "deleted"),
  metrics: fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)),
  problemPoints: fc.array(fuzzText, { maxLength: 6 }).map((value) => JSON.stringify(value)),
  solutionPoints: fc.constantFrom("[]", "[1,2]", "{", JSON.stringify(["a".repeat(400)])),
  tiers: fc
    .oneof(
      fc.array(fc.record({ rangeLabel: fuzzText, rangeMin: fc.oneof(fc.integer(), fc.double(), fc.constant("5")), rangeMax: fc.option(fc.integer()), perks: fc.array(fuzzText, { maxLength: 4 }) }), { maxLength: 8 }),
      fc.jsonValue({ maxDepth: 2 }),
    )
    .map((value) => JSON.stringify(value)),
};

const founderRequest: fc.Arbitrary<FuzzRequest> = fc
  .tuple(
    fc.oneof(
      formFields(projectFormFields).map((fields) => ({ path: ["project", "create"] as Value[], fields, pick: "create" })),
      fc
        .tuple(
          projectIdValue,
          fc.oneof(
            formFields({ intent: fc.constantFrom("save", ""), ...projectFormFields }),
            formFields({ intent: fc.constant("create-qr"), label: fc.constantFrom("Booth", "x".repeat(101)), eventTag: fc.constantFrom("expo", "") }),
            formFields({ intent: fc.constant("delete-qr"), qrCodeId: idOf("ownQrId").filter((v) => !(v instanceof Ref)) }),
            formFields({ intent: fc.constant("post-update"), body: fc.constantFrom("We shipped", "x".repeat(3_000)) }),
            formFields({ intent: fc.constant("create-booth-link"), days: fc.constantFrom("1", "3", "7", "2", "", "1e3") }),
            formFields({ intent: fc.constant("revoke-booth-link"), linkId: fc.oneof(fc.uuid(), fuzzText) }),
            formFields({ intent: fuzzText }),
          ),
        )
        .map(([id, fields]) => ({ path: ["project", id, "edit"] as Value[], fields, pick: "edit" })),
      fc
        .tuple(projectIdValue, formFields({ intent: fc.constant("triage"), leadId: idOf("ownLeadId"), status: fc.constantFrom("new", "contacted", "meeting", "passed", "lost"), note: fc.constantFrom("Call", "") }))
        .map(([id, fields]) => ({ path: ["project", id, "leads"] as Value[], fields, pick: "leads" })),
      fc
        .tuple(
          projectIdValue,
          fc.oneof(
            formFields({ intent: fc.constant("alerts"), introAlerts: fc.constantFrom("instant", "daily", "off", "hourly"), signalAlerts: fc.constantFrom("instant", "daily", "off") }),
            // Only addresses the app refuses without a look-up: nothing in the test may reach the network.
            formFields({ intent: fc.constant("add-webhook"), url: fc.constantFrom("https://127.0.0.1/hook", "http://10.0.0.1/x", "https://[::1]/x", "ftp://127.0.0.1/", "not a url") }),
            formFields({ intent: fc.constant("delete-webhook"), endpointId: fc.uuid() }),
          ),
        )
        .map(([id, fields]) => ({ path: ["project", id, "leads", "settings"] as Value[], fields, pick: "settings" })),
    ),
    fc.oneof({ weight: 9, arbitrary: fc.constant(true) }, { weight: 2, arbitrary: fc.constant(false) }),
    fc.oneof({ weight: 12, arbitrary: fc.constant("POST") }, { weight: 1, arbitrary: fc.constantFrom(...METHODS) }),
    fc.oneof({ weight: 10, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: oddContentType }),
  )
  .map(([target, signedIn, method, contentType]) =>
    request(signedIn ? "founder, signed in" : "founder, signed out", method, target.path, {
      body: method === "GET" || method === "HEAD" ? noBody : { kind: "form", fields: target.fields, contentType },
      signedIn,
    }),
  );

/**
 * A few idempotency keys, each sent again with the same request (a phone resending what it kept
 * offline: the first answer again, nothing written twice) and with other requests (422, nothing written), on both
 * pitches, plus malformed keys (400).
 */
const IDEMPOTENCY_KEYS = ["fuzz-replay-key-0001", "fuzz-replay-key-0002", "fuzz-replay-key-0003"];
const REPLAYED_NOTE = "Sent again and again";
const replayedIntro: Array<[string, Value]> = [
  ["intent", "intro"],
  ["name", "Replay Visitor"],
  ["email", "replay.visitor@example.com"],
  ["note", REPLAYED_NOTE],
];
const idempotencyRequest: fc.Arbitrary<FuzzRequest> = fc
  .tuple(
    fc.oneof(ref("demoSlug"), ref("ownSlug")),
    fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...IDEMPOTENCY_KEYS) }, { weight: 1, arbitrary: fc.constantFrom("short", "key with spaces 0123", "ü".repeat(20), "k".repeat(65)) }),
    fc.oneof({ weight: 3, arbitrary: fc.constant(replayedIntro) }, { weight: 2, arbitrary: visitorFormFields }),
  )
  .map(([slug, idempotencyKey, fields]) => request("idempotency keys", "POST", ["pitch", slug, "submit"], { body: { kind: "form", fields }, idempotencyKey }));

/** Now and then a malformed Host header (400), or a made-up, altered, unsigned or garbled viewer cookie (no cookie). */
const oddHeaders: fc.Arbitrary<OddHeaders> = fc.oneof(
  { weight: 24, arbitrary: fc.constant({}) },
  { weight: 1, arbitrary: fc.constantFrom("a b", "exa%mple.com", "[::1", "example.com:99999", "<script>", "").map((host): OddHeaders => ({ host })) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom("0123456789abcdef0123456789abcdef", "0123456789abcdef0123456789abcdef.AAAAAAAAAAAAAAAAAAAAAA", "0123456789ABCDEF0123456789ABCDEF", "x".repeat(300), "%00", ".")
      .map((value): OddHeaders => ({ viewerCookie: `pitchqr_viewer=${value}` })),
  },
);

const fuzzRequest: fc.Arbitrary<FuzzRequest> = fc
  .tuple(
    fc.oneof(
      { weight: 5, arbitrary: pageRequest },
      { weight: 6, arbitrary: pitchFormRequest },
      { weight: 2, arbitrary: authRequest },
      { weight: 2, arbitrary: unsubscribeRequest },
      { weight: 1, arbitrary: listMailRequest },
      { weight: 5, arbitrary: functionRequest },
      { weight: 2, arbitrary: apiReadRequest },
      { weight: 5, arbitrary: founderRequest },
    ),
    oddHeaders,
  )
  .map(([fuzz, odd]) => ({ ...fuzz, odd }));

// ---------------------------------------------------------------------------------------------------------------
// Sending: node:http, so any method, path bytes and body go out exactly as written.

/** UTF-8 bytes, %-encoded except unreserved characters (lone surrogates become U+FFFD, as a browser sends them). */
function percentEncode(text: string): string {
  let out = "";
  for (const byte of Buffer.from(text, "utf8")) {
    const char = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

type Refs = Record<RefName, string>;

const wire = (value: Value, refs: Refs): string =>
  value instanceof Raw ? value.wire : percentEncode(value instanceof Ref ? refs[value.name] : value);

function resolveJson(value: unknown, refs: Refs): unknown {
  if (value instanceof Ref) return refs[value.name];
  if (value instanceof Raw) return value.wire;
  if (Array.isArray(value)) return value.map((item) => resolveJson(item, refs));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([key, item]) => [key, resolveJson(item, refs)]));
  }
  return value;
}

function encodeRequest(fuzz: FuzzRequest, refs: Refs): { path: string; contentType?: string; body?: Buffer } {
  const query = fuzz.query.map(([name, value]) => `${percentEncode(name)}=${wire(value, refs)}`).join("&");
  // Within Node's 16 KB header limit: past it Node itself refuses the request (431) before the app sees it.
  const requestPath = `/${fuzz.path.map((part) => wire(part, refs)).join("/")}${query ? `?${query}` : ""}`.slice(0, MAX_WIRE_PATH).replace(/%[0-9A-Fa-f]?$/, "");
  const body = fuzz.body;
  switch (body.kind) {
    case "none":
      return { path: requestPath };
    case "form":
      return {
        path: requestPath,
        contentType: body.contentType ?? "application/x-www-form-urlencoded",
        body: Buffer.from(body.fields.map(([name, value]) => `${percentEncode(name)}=${wire(value, refs)}`).join("&")),
      };
    case "json":
      return { path: requestPath, contentType: body.contentType ?? "application/json", body: Buffer.from(JSON.stringify(resolveJson(body.value, refs)) ?? "") };
    case "text":
      return { path: requestPath, contentType: body.contentType, body: Buffer.from(body.text) };
  }
}

const MAX_WIRE_PATH = 8_000;

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

/** One retry on a fresh connection: a kept-alive socket the server closed (after a 413, say) fails the next request sent on it. */
type Answer = { status: number; allow: string | undefined };

async function send(server: AppServer, fuzz: FuzzRequest, refs: Refs, address: string, cookie: string | null): Promise<Answer> {
  try {
    return await sendOnce(server, fuzz, refs, address, cookie, agent);
  } catch {
    return sendOnce(server, fuzz, refs, address, cookie, false);
  }
}

function sendOnce(server: AppServer, fuzz: FuzzRequest, refs: Refs, address: string, cookie: string | null, via: http.Agent | false): Promise<Answer> {
  const encoded = encodeRequest(fuzz, refs);
  const headers: Record<string, string | number> = {
    origin: server.url,
    "x-forwarded-for": address,
    "user-agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
    accept: "text/html,application/json;q=0.9,*/*;q=0.8",
  };
  const cookies = [cookie && fuzz.signedIn ? cookie : null, fuzz.odd.viewerCookie ?? null].filter(Boolean);
  if (cookies.length) headers.cookie = cookies.join("; ");
  if (fuzz.odd.host !== undefined) headers.host = fuzz.odd.host;
  if (fuzz.idempotencyKey !== undefined) headers["idempotency-key"] = fuzz.idempotencyKey;
  if (encoded.contentType !== undefined && encoded.contentType !== "") headers["content-type"] = encoded.contentType;
  if (encoded.body) headers["content-length"] = encoded.body.length;
  return new Promise((resolve, reject) => {
    const outgoing = http.request({ host: "127.0.0.1", port: server.port, method: fuzz.method, path: encoded.path, headers, agent: via }, (response) => {
      const answer = { status: response.statusCode ?? 0, allow: response.headers.allow };
      if ((response.headers["content-type"] ?? "").startsWith("text/event-stream")) {
        response.destroy();
        return resolve(answer);
      }
      response.resume();
      response.on("end", () => resolve(answer));
      response.on("error", () => resolve(answer));
    });
    outgoing.on("error", (error) => reject(new Error(`${fuzz.method} ${encoded.path}: ${error.message}`)));
    outgoing.setTimeout(30_000, () => outgoing.destroy(new Error("no answer within 30 s")));
    outgoing.end(encoded.body);
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Reading what was stored: the same checks on both databases.

/** Every text and JSON column of the app's tables (SQLite's declared types; PostgreSQL's text, varchar, json and jsonb). */
async function textColumns(db: TestDb): Promise<Array<{ table: string; column: string }>> {
  return (await tableColumns(db)).filter(({ table, dataType }) => !table.startsWith("kysely_") && /text|char|json/i.test(dataType));
}

/** The non-null values of `table.column`, as the driver returns them (named `value`, so the reader leaves JSON text and 0/1 as stored). */
async function storedValues(db: TestDb, table: string, column: string): Promise<unknown[]> {
  const value = sql.ref(column);
  const rows = await db
    .selectFrom(table as keyof Database)
    .select(value.as("value"))
    .where(value, "is not", null)
    .execute();
  return rows.map((row) => row.value);
}

/** The spec's limits on what visitors and founders type (the forms' schemas). */
const TEXT_LIMITS: Array<{ table: string; column: string; max: number }> = [
  { table: "contacts", column: "name", max: 100 },
  { table: "contacts", column: "email", max: 255 },
  { table: "contacts", column: "note", max: 1_000 },
  { table: "contacts", column: "linkedin_url", max: 2_048 },
  { table: "signals", column: "message", max: 1_000 },
  { table: "projects", column: "title", max: 100 },
  { table: "projects", column: "slug", max: 80 },
  { table: "projects", column: "one_liner", max: 300 },
  { table: "qr_codes", column: "label", max: 100 },
  { table: "qr_codes", column: "event_tag", max: 50 },
  { table: "users", column: "name", max: 100 },
  { table: "users", column: "email", max: 255 },
  { table: "signal_tiers", column: "range_label", max: 60 },
  { table: "project_updates", column: "body", max: 2_000 },
  { table: "leads", column: "note", max: 2_000 },
];

const WELL_FORMED_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Every key bound to its request, and the replayed intro written at most once per key and pitch. */
async function idempotencyViolations(db: TestDb): Promise<string[]> {
  const violations: string[] = [];
  const unbound = await db.selectFrom("visitor_submissions").select("idempotency_key").where("request_fingerprint", "is", null).execute();
  if (unbound.length) violations.push(`${unbound.length} idempotency keys recorded without their request's fingerprint`);
  const replayed = await db
    .selectFrom("intros")
    .select((eb) => ["project_id", eb.fn.countAll().as("copies")])
    .where("note", "=", REPLAYED_NOTE)
    .groupBy("project_id")
    .execute();
  for (const row of replayed) {
    if (Number(row.copies) > IDEMPOTENCY_KEYS.length) violations.push(`the replayed intro was written ${String(row.copies)} times on project ${String(row.project_id)}`);
  }
  return violations;
}

async function schemaViolations(db: TestDb): Promise<string[]> {
  const violations: string[] = [];
  for (const { table, column } of await textColumns(db)) {
    for (const value of await storedValues(db, table, column)) {
      const text = typeof value === "string" ? value : JSON.stringify(value);
      if (!isStorableText(text) || text.includes("\\u0000")) violations.push(`${table}.${column} holds control characters: ${JSON.stringify(text.slice(0, 80))}`);
    }
  }
  for (const { table, column, max } of TEXT_LIMITS) {
    for (const value of await storedValues(db, table, column).catch(() => [])) {
      if ([...String(value)].length > max) violations.push(`${table}.${column} is ${[...String(value)].length} characters, past ${max}`);
    }
  }
  for (const table of ["users", "contacts"] as const) {
    for (const { email: value } of await db.selectFrom(table).select("email").execute()) {
      const email = String(value);
      if (email !== email.toLowerCase() || !WELL_FORMED_EMAIL.test(email)) violations.push(`${table}.email ${JSON.stringify(email)} is not a well-formed lowercase address`);
    }
  }
  return violations;
}

// ---------------------------------------------------------------------------------------------------------------

type Store = { server: AppServer; reader: () => TestDb; drop?: () => Promise<void> };
type RunResult = {
  statuses: number[];
  table: string;
  reachedDomain: number;
  worstDelayMs: number;
  delays: number[];
  /** 405 answers that did not say which methods the address accepts. */
  withoutAllow: string[];
  /** Polls that saw the loop held 200 ms or more, and the requests sent meanwhile. */
  slowWindows: string[];
  /** Requests that held the loop 200 ms or more each time they were sent again alone. */
  culprits: string[];
};

// The idempotency cases follow the rest, so the sequence before them stays the one earlier runs explored.
const sequence = [...fc.sample(fuzzRequest, { seed: SEED, numRuns: REQUESTS }), ...fc.sample(idempotencyRequest, { seed: SEED, numRuns: Math.ceil(REQUESTS / 20) })];
const statusesByDialect = new Map<string, number[]>();
/** Each database's answers by group, printed once at the end (the same table twice when both answered alike). */
const tablesByDialect = new Map<string, string>();

async function postForm(server: AppServer, formPath: string, fields: Record<string, string>, cookie = ""): Promise<Response> {
  return fetch(`${server.url}${formPath}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url, cookie, "x-forwarded-for": "10.250.0.1" },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });
}

/** A founder of this run, signed up and signed in through /auth, with a published project, a tier, a QR code and a lead. */
async function prepareFounder(server: AppServer, db: TestDb, dialect: string): Promise<{ refs: Refs; cookie: string }> {
  const email = `fuzz-founder-${dialect}@example.com`;
  const cookie = await signUpAndSignIn(server.url, email, PASSWORD);
  const ownSlug = `fuzz-${dialect}`;
  const created = await postForm(
    server,
    "/project/create",
    {
      title: "Fuzz target",
      slug: ownSlug,
      oneLiner: "A project for the fuzzer",
      status: "published",
      tiers: JSON.stringify([{ rangeLabel: "$1k", rangeMin: 1_000, rangeMax: null, perks: [] }]),
    },
    cookie,
  );
  expect(created.status).toBe(302);
  const ownProjectId = /\/project\/([^/]+)\/edit/.exec(created.headers.get("location") ?? "")![1]!;
  expect((await postForm(server, `/project/${ownProjectId}/edit`, { intent: "create-qr", label: "Booth" }, cookie)).status).toBe(200);
  expect((await postForm(server, `/pitch/${ownSlug}`, { intent: "intro", name: "Lead", email: "lead@example.com", note: "Hi" })).status).toBe(302);
  const demoProjectId = await projectIdBySlug(db, "demo-project");
  const idOf = (row: { id: string | number }) => String(row.id);
  return {
    cookie,
    refs: {
      demoSlug: "demo-project",
      demoProjectId,
      demoTierId: idOf(await db.selectFrom("signal_tiers").select("id").where("project_id", "=", demoProjectId).orderBy("sort_order").limit(1).executeTakeFirstOrThrow()),
      ownSlug,
      ownProjectId,
      ownQrId: idOf(await db.selectFrom("qr_codes").select("id").where("project_id", "=", ownProjectId).executeTakeFirstOrThrow()),
      ownTierId: idOf(await db.selectFrom("signal_tiers").select("id").where("project_id", "=", ownProjectId).executeTakeFirstOrThrow()),
      ownLeadId: idOf(await db.selectFrom("leads").select("id").where("project_id", "=", ownProjectId).executeTakeFirstOrThrow()),
      founderEmail: email,
    },
  };
}

async function runFuzz(store: Store, dialect: string): Promise<RunResult> {
  const reader = store.reader();
  try {
    const { refs, cookie } = await prepareFounder(store.server, reader, dialect);
    const before = await counterDrift(driftReader(reader));

    const healthDelay = async () => ((await (await fetch(`${store.server.url}/healthz`)).json()) as { eventLoopMaxDelayMs: number }).eventLoopMaxDelayMs;
    const addressOf = (index: number) =>
      sequence[index]!.flood ? "10.251.0.1" : `10.${100 + Math.floor(index / 62_500)}.${Math.floor(index / 250) % 250}.${(index % 250) + 1}`;
    // Every route once before measuring: the first request of each loads and compiles its code.
    for (const [index, fuzz] of sequence.slice(0, 40).entries()) await send(store.server, fuzz, refs, `10.252.0.${index + 1}`, cookie);
    await healthDelay();

    const delays: number[] = [];
    const slowWindows: Array<{ delayMs: number; from: number; to: number }> = [];
    let sent = 0;
    let polledAt = 0;
    let polling = true;
    const poller = (async () => {
      while (polling) {
        const delayMs = await healthDelay();
        delays.push(delayMs);
        if (delayMs >= MAX_EVENT_LOOP_DELAY_MS) slowWindows.push({ delayMs, from: polledAt, to: sent });
        polledAt = sent;
        await new Promise((resolve) => setTimeout(resolve, HEALTH_POLL_MS));
      }
    })();

    const statuses: number[] = [];
    const withoutAllow: string[] = [];
    const counts = new Map<string, Map<number, number>>();
    let reachedDomain = 0;
    try {
      for (const [index, fuzz] of sequence.entries()) {
        // Busy addresses meet the rate limits; every other request speaks for a client of its own.
        const address = addressOf(index);
        sent = index;
        const { status, allow } = await send(store.server, fuzz, refs, address, cookie);
        statuses.push(status);
        if (status === 405 && !allow) withoutAllow.push(`#${index} ${fuzz.method} ${describeRequest(fuzz).slice(0, 120)}`);
        const groupCounts = counts.get(fuzz.group) ?? new Map<number, number>();
        groupCounts.set(status, (groupCounts.get(status) ?? 0) + 1);
        counts.set(fuzz.group, groupCounts);
        if (status !== 429 && status < 500) reachedDomain += 1;
      }
    } finally {
      polling = false;
      await poller;
    }
    delays.push(await healthDelay());

    // A slow poll is either a request that holds the loop (it does so every time) or this shared machine taking
    // the CPU away (it does not repeat): each request sent in a slow window is sent again, alone, twice, with
    // /healthz read after each; one that holds the loop both times is the culprit.
    const culprits: string[] = [];
    const replayed = new Set<number>();
    for (const window of slowWindows) {
      for (let index = window.from; index <= window.to; index += 1) {
        if (replayed.has(index)) continue;
        replayed.add(index);
        const alone: number[] = [];
        for (const attempt of [1, 2]) {
          await healthDelay();
          await send(store.server, sequence[index]!, refs, `10.253.${attempt}.${(index % 250) + 1}`, cookie);
          alone.push(await healthDelay());
        }
        if (Math.min(...alone) >= MAX_EVENT_LOOP_DELAY_MS) culprits.push(`#${index} held the loop ${alone.join(" and ")} ms: ${sequence[index]!.method} ${describeRequest(sequence[index]!).slice(0, 300)}`);
      }
    }

    const table = [...counts.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([group, byStatus]) => `  ${group.padEnd(22)} ${[...byStatus.entries()].sort(([a], [b]) => a - b).map(([status, count]) => `${status}×${count}`).join("  ")}`)
      .join("\n");

    const after = await counterDrift(driftReader(reader));
    expect(movedDrift(before, after)).toEqual([]);
    expect(await schemaViolations(reader)).toEqual([]);
    expect(await idempotencyViolations(reader)).toEqual([]);
    // The keys were both replayed and reused: some answers repeated the first one, some refused another request.
    expect(counts.get("idempotency keys")?.get(200)).toBeGreaterThan(0);
    expect(counts.get("idempotency keys")?.get(422)).toBeGreaterThan(0);
    return {
      statuses,
      table,
      reachedDomain,
      worstDelayMs: Math.max(...delays),
      delays,
      withoutAllow,
      slowWindows: slowWindows.map((window) => `${window.delayMs} ms (#${window.from}..#${window.to})`),
      culprits,
    };
  } finally {
    await reader.destroy();
  }
}

function report(dialect: string, result: RunResult, elapsedMs: number) {
  const serverErrors = result.statuses.filter((status) => status >= 500).length;
  console.log(
    `fuzz [${dialect}] seed ${SEED}: ${result.statuses.length} requests in ${(elapsedMs / 1000).toFixed(1)} s, ` +
      `${result.reachedDomain} reached the app (not 429), ${serverErrors} answered ≥ 500; ` +
      `event loop worst delay ${result.worstDelayMs} ms over ${result.delays.length} /healthz polls` +
      (result.slowWindows.length ? ` (${result.slowWindows.length} polls ≥ ${MAX_EVENT_LOOP_DELAY_MS} ms: ${result.slowWindows.join(", ")}; ${result.culprits.length} of their requests held the loop again when sent alone)` : ""),
  );
  tablesByDialect.set(dialect, result.table);
}

/** The answers by group: one table when both databases answered alike, else each database's. */
function reportTables() {
  const [sqlite, postgres] = [tablesByDialect.get("sqlite"), tablesByDialect.get("postgres")];
  if (sqlite !== undefined && sqlite === postgres) console.log(`fuzz answers by group, the same on SQLite and PostgreSQL:\n${sqlite}`);
  else for (const [dialect, table] of tablesByDialect) console.log(`fuzz answers by group on ${dialect}:\n${table}`);
}

function expectNoServerErrors(server: AppServer, result: RunResult) {
  const failures = result.statuses.flatMap((status, index) => (status >= 500 ? [`#${index} ${status} ${sequence[index]!.method} ${describeRequest(sequence[index]!)}`] : []));
  if (failures.length) console.error(`answers ≥ 500:\n${failures.slice(0, 30).join("\n")}\nserver errors logged:\n${server.logs.filter((line) => line.includes('"level":50')).slice(0, 10).join("\n")}`);
  expect(failures).toEqual([]);
}

function describeRequest(fuzz: FuzzRequest): string {
  const placeholders = Object.fromEntries(
    (["demoSlug", "demoProjectId", "demoTierId", "ownSlug", "ownProjectId", "ownQrId", "ownTierId", "ownLeadId", "founderEmail"] as RefName[]).map((name) => [name, `{${name}}`]),
  ) as Refs;
  const encoded = encodeRequest(fuzz, placeholders);
  const key = fuzz.idempotencyKey === undefined ? "" : ` Idempotency-Key: ${fuzz.idempotencyKey}`;
  return `${encoded.path} ${encoded.contentType ?? ""} ${encoded.body?.toString("utf8").slice(0, 300) ?? ""}${key}${fuzz.signedIn ? " (signed in)" : ""}${fuzz.odd.host !== undefined ? ` Host: ${fuzz.odd.host}` : ""}${fuzz.odd.viewerCookie ? ` Cookie: ${fuzz.odd.viewerCookie.slice(0, 60)}` : ""}`;
}

describe(`seeded fuzz (seed ${SEED}, ${REQUESTS} requests per database)`, () => {
  describe("on SQLite", () => {
    let server: AppServer;
    beforeAll(async () => {
      server = await startAppServer();
    });
    afterAll(async () => {
      await server?.stop();
    });
    showServerLogsOnFailure(() => [server]);

    it("answers every request below 500, stores nothing malformed and never holds the event loop 200 ms", { timeout: 480_000 }, async () => {
      const started = Date.now();
      const result = await runFuzz({ server, reader: () => openTestDb({ dataDir: server.dataDir }) }, "sqlite");
      report("sqlite", result, Date.now() - started);
      statusesByDialect.set("sqlite", result.statuses);
      expectNoServerErrors(server, result);
      expect(result.reachedDomain).toBeGreaterThan(REQUESTS / 2);
      expect(result.culprits).toEqual([]);
      expect(result.withoutAllow).toEqual([]);
    });
  });

  describe("on PostgreSQL", () => {
    let server: AppServer;
    let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
    beforeAll(async () => {
      database = await createPostgresDatabase("pitchqr_fuzz");
      server = await startAppServer({ env: { DATABASE_URL: database.url } });
    });
    afterAll(async () => {
      await server?.stop();
      await database?.drop();
    });
    showServerLogsOnFailure(() => [server]);

    it("answers every request below 500, stores nothing malformed and never holds the event loop 200 ms", { timeout: 480_000 }, async () => {
      const started = Date.now();
      const result = await runFuzz({ server, reader: () => openTestDb({ dataDir: server.dataDir, databaseUrl: database.url }) }, "postgres");
      report("postgres", result, Date.now() - started);
      statusesByDialect.set("postgres", result.statuses);
      expectNoServerErrors(server, result);
      expect(result.reachedDomain).toBeGreaterThan(REQUESTS / 2);
      expect(result.culprits).toEqual([]);
      expect(result.withoutAllow).toEqual([]);
    });
  });

  it("gives the same answer on both databases for the same request", () => {
    reportTables();
    const sqlite = statusesByDialect.get("sqlite");
    const postgres = statusesByDialect.get("postgres");
    expect(sqlite && postgres, "both runs finished").toBeTruthy();
    const differences = sequence.flatMap((fuzz, index) => {
      const [a, b] = [sqlite![index]!, postgres![index]!];
      if (fuzz.flood || a === 429 || b === 429 || a === b) return [];
      return [`#${index} sqlite ${a}, postgres ${b}: ${fuzz.method} ${describeRequest(fuzz)}`];
    });
    expect(differences).toEqual([]);
  });
});
