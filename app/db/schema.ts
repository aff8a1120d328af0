import type { Generated, Selectable } from "kysely";

/**
 * The database as the application sees it, after `app/db/normalize.server.ts` has smoothed over the
 * driver differences: booleans are booleans, JSON columns are parsed values, timestamps are ISO strings.
 */
export type Timestamp = string;

export interface UsersTable {
  id: string;
  name: string;
  email: string;
  /** The address was confirmed through the link mailed at sign-up (better-auth's e-mail verification). */
  email_verified: boolean;
  /** Made before addresses were confirmed (decision 83): mailed as if confirmed, never treated as proven. */
  email_confirmation_waived: Generated<boolean>;
  image: string | null;
  /** The founder's IANA time zone (decision 53); null shows dates in UTC until one is set. */
  time_zone: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  token: string;
  expires_at: Timestamp;
  ip_address: string | null;
  user_agent: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AccountsTable {
  id: string;
  user_id: string;
  account_id: string;
  provider_id: string;
  access_token: string | null;
  refresh_token: string | null;
  id_token: string | null;
  access_token_expires_at: Timestamp | null;
  refresh_token_expires_at: Timestamp | null;
  scope: string | null;
  password: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface VerificationsTable {
  id: string;
  identifier: string;
  value: string;
  expires_at: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface RateLimitsTable {
  id: string;
  key: string;
  count: number;
  last_request: number;
}

export type Metric = { label: string; value: string };
export type ProjectStatus = "draft" | "published";

export interface ProjectsTable {
  id: string;
  owner_id: string;
  title: string;
  slug: string;
  one_liner: string;
  summary: string | null;
  video_url: string | null;
  deck_url: string | null;
  /** The uploaded deck the pitch page shows (`decks.id`), null for none; a `deck_url` is shown only without one. */
  deck_id: Generated<string | null>;
  /** Whether visitors may download the uploaded deck's PDF; off by default. */
  deck_download: Generated<boolean>;
  calendly_url: string | null;
  metrics: Metric[];
  problem_points: string[];
  solution_points: string[];
  status: ProjectStatus;
  last_shipped_at: Timestamp | null;
  content_version: Generated<number>;
  /** The last number given to an entry on this project's wall (see `recognition_entries.wall_seq`). */
  wall_seq: Generated<number>;
  /** The qualifying question asked with intros and signals; null: none. */
  question_prompt: Generated<string | null>;
  /** Its answers to choose from; empty for free text. */
  question_options: Generated<string[]>;
  question_required: Generated<boolean>;
  created_at: Generated<Timestamp>;
  updated_at: Generated<Timestamp>;
}

export interface QrCodesTable {
  id: string;
  project_id: string;
  label: string;
  event_tag: string | null;
  total_scans: Generated<number>;
  unique_scans: Generated<number>;
  created_at: Generated<Timestamp>;
  /** Left the active list (decision 64); an archived code still opens its pitch and counts. */
  archived_at: Timestamp | null;
  /** The event's last day, `YYYY-MM-DD`; after it the code still works and analytics say the event ended. */
  event_ends_on: string | null;
}

/** Every slug a project has had, its current one included (decision 63): a slug belongs to one project for good. */
export interface ProjectSlugsTable {
  slug: string;
  project_id: string;
  created_at: Timestamp;
}

/** A code re-pointed from one project to another (decision 64): the project it left still names its scans. */
export interface QrCodeMovesTable {
  id: string;
  qr_code_id: string;
  from_project_id: string;
  to_project_id: string;
  moved_at: Timestamp;
}

export interface ScansTable {
  id: Generated<number>;
  project_id: string;
  qr_code_id: string | null;
  viewer_fingerprint: string | null;
  scanned_at: Generated<Timestamp>;
}

/** What the person did first: Intro and Supporter as in the spec; Subscriber for someone who first followed updates. */
export type ContactIntent = "Intro" | "Supporter" | "Subscriber";

/**
 * One person in one project: unique per (project_id, email), e-mails stored lower-case (decision 22). Their
 * intros and signals are rows of their own pointing here; following updates is `subscribed`.
 */
export interface ContactsTable {
  id: string;
  project_id: string;
  /** The name they gave most recently. */
  name: string;
  email: string;
  intent: ContactIntent;
  subscribed: Generated<boolean>;
  /** The latest intro's roles, LinkedIn URL and note (every intro is kept in `intros`). */
  role_tags: string[];
  linkedin_url: string | null;
  note: string | null;
  user_id: string | null;
  /**
   * Where the visitor came from on their first action: `qr:{code id}`, `direct` or `unknown` (decision 16); an
   * `unknown` one takes the source of their first later action that has one (decision 54).
   */
  source: Generated<string>;
  created_at: Generated<Timestamp>;
  /** Subscribed by the project's own team and not yet confirmed by the address: no updates until it is (decision 79). */
  awaiting_confirmation: Generated<boolean>;
}

/** One intro request, as the visitor wrote it. */
export interface IntrosTable {
  id: string;
  project_id: string;
  contact_id: string;
  role_tags: string[];
  linkedin_url: string | null;
  note: string | null;
  user_id: string | null;
  source: Generated<string>;
  created_at: Generated<Timestamp>;
  /** When the row was written (a held or offline form acted earlier, `created_at`); null only if written without one. */
  recorded_at: Timestamp | null;
  /** The answer to the project's qualifying question, if it asked one. */
  answer: Generated<string | null>;
}

/** A contact merged into another by migration 0012: unsubscribe links mailed with its id still work. */
export interface ContactMergesTable {
  merged_id: string;
  contact_id: string;
}

export interface SignalTiersTable {
  id: string;
  project_id: string;
  range_label: string;
  range_min: number;
  range_max: number | null;
  perks: string[];
  sort_order: number;
}

export interface SignalsTable {
  id: string;
  project_id: string;
  contact_id: string;
  signal_tier_id: string | null;
  range_label: string;
  range_min: number;
  range_max: number | null;
  amount: number;
  event_source: string | null;
  is_public: boolean;
  message: string | null;
  /** The visitor also chose to show the message on the Recognition Wall (only with their name shown). */
  message_public: Generated<boolean>;
  user_id: string | null;
  /** Where the visitor came from: `qr:{code id}`, `direct` or `unknown` (decision 16). */
  source: Generated<string>;
  /** The answer to the project's qualifying question, if it asked one. */
  answer: Generated<string | null>;
  created_at: Generated<Timestamp>;
  /** When the row was written (a held or offline form acted earlier, `created_at`); null only if written without one. */
  recorded_at: Timestamp | null;
  /** The wall entry this signal put up, if any (migration "repeat-signals"). */
  wall_entry_id: Generated<number | null>;
}

export type RecognitionType = "Intro" | "Supporter" | "Pilot";

export interface RecognitionEntriesTable {
  id: Generated<number>;
  project_id: string;
  type: RecognitionType;
  display_name: string;
  role_tags: string[];
  message: string | null;
  is_public: Generated<boolean>;
  hidden: Generated<boolean>;
  /** Per project, in commit order: what the live wall streams by (migration "wall-sequence"). */
  wall_seq: number;
  created_at: Generated<Timestamp>;
}

export interface ProjectStatsTable {
  project_id: string;
  total_scans: Generated<number>;
  unique_scans: Generated<number>;
  intros: Generated<number>;
  subscribers: Generated<number>;
  signals: Generated<number>;
  /** Page loads not counted as scans, by reason (decision 15). */
  excluded_bots: Generated<number>;
  excluded_previews: Generated<number>;
  excluded_prefetches: Generated<number>;
  /** The signed-in owner, and any device the team marked (decision 52). */
  excluded_owner_views: Generated<number>;
  /** Fetched by an app, not shown in a browser (decision 52). */
  excluded_app_fetches: Generated<number>;
}

export interface ScanHoursTable {
  project_id: string;
  /** '' for scans without a QR code. */
  qr_code_id: string;
  hour: Timestamp;
  scans: number;
}

/** Scans per code, UTC hour and coarse audience labels (decision 67); never a user agent or an address. */
export interface ScanAudienceHoursTable {
  project_id: string;
  /** '' for scans without a QR code. */
  qr_code_id: string;
  hour: Timestamp;
  device: string;
  browser: string;
  /** The app whose built-in browser opened the page; '' for none. */
  in_app: string;
  scans: number;
}

export interface ProjectViewersTable {
  project_id: string;
  viewer_fingerprint: string;
  /** The daily-salted hash of address and user agent the viewer was first seen with (decision 15). */
  address_hash: string | null;
  /** The source of the viewer's latest page load of the project (decision 16). */
  last_source: string | null;
}

/** Exact counters per project and source (`qr:{id}`, `direct`, `unknown`; `*` for people of any source). */
export interface SourceStatsTable {
  project_id: string;
  source: string;
  scans: Generated<number>;
  viewers: Generated<number>;
  intros: Generated<number>;
  subscribers: Generated<number>;
  signals: Generated<number>;
  people: Generated<number>;
  /** Viewers who saved the pitch to their phone's list. */
  saves: Generated<number>;
}

/** One viewer who saved a pitch: counted once per project, attributed to a source. */
export interface PitchSavesTable {
  project_id: string;
  viewer_fingerprint: string;
  source: string;
}

export interface FormRefusalsTable {
  id: string;
  project_id: string;
  /**
   * Which limit refused it: `browser`, `address` or `email`; since decision 50, only the ceilings on held forms
   * (`browser`, `address`, and since decision 80 `project`).
   */
  reason: string;
  refused_at: Timestamp;
}

/** Why a visitor form was held for review (decision 50). */
export type HoldReason = "honeypot" | "speed" | "burst" | "browser" | "address" | "email" | "held_browser";

/** A visitor form held for the founder's review: kept with its content, counted nowhere until accepted. */
export interface HeldSubmissionsTable {
  id: string;
  project_id: string;
  intent: "intro" | "subscribe" | "signal";
  name: string;
  email: string;
  /** The form's own fields as the visitor sent them, checked by its schema again when the founder accepts. */
  submitted_fields: Record<string, unknown>;
  reason: HoldReason;
  /** The reason in words for the founder: "12 forms from one browser within 40 seconds". */
  reason_text: string;
  /** Where the person came from when they sent it (`qr:{id}`, `direct`, `unknown`), kept for the accept. */
  source: string;
  user_id: string | null;
  /** The browser it came from (viewer cookie and address hash), so the same browser's next forms are held too. */
  browser_key: string;
  received_at: Timestamp;
  /** When the person sent it (a phone's offline time included), restored on accept; null on rows before it was kept. */
  sent_at: Timestamp | null;
}

/**
 * A visitor form accepted within the burst window, with what its write did (decision 95), so that a burst found
 * by the same browser's next form moves it to held as well. Dropped once older than the window.
 */
export interface AcceptedFormsTable {
  id: string;
  project_id: string;
  browser_key: string;
  intent: "intro" | "subscribe" | "signal";
  name: string;
  email: string;
  submitted_fields: Record<string, unknown>;
  source: string;
  user_id: string | null;
  sent_at: Timestamp;
  received_at: Timestamp;
  receipt: FormReceipt;
}

/** What one accepted visitor form wrote, as much as moving it to held must undo. */
export type FormReceipt = {
  /** The intro's or signal's row; none for a subscription, or a signal that only updated an earlier one. */
  rowId?: string;
  /** The signal repeated an earlier one (its row was updated, not written): nothing of it can be taken back. */
  repeated?: boolean;
  contact?: { id: string; created: boolean };
  /** A subscription this form turned on (off before). */
  subscribed?: boolean;
  /** The source keys under which this form made the person new (`source_people` rows it inserted). */
  newPeople?: string[];
  /** The lead the form wrote to, and its state before (null: the form created it). */
  lead?: { id: string; before: LeadSnapshot | null };
  /** The lead event's id: its alerts and webhook deliveries carry it. */
  eventId?: string;
  /** The mails queued to the visitor. */
  mailIds?: string[];
  wallEntryId?: number;
};

/** A lead's columns a visitor action changes, as they were before it. */
export type LeadSnapshot = {
  name: string;
  last_activity_at: string;
  did_intro: boolean;
  did_subscribe: boolean;
  did_signal: boolean;
  source: string;
  awaiting_since: string | null;
  first_response_at: string | null;
  question: string | null;
  answer: string | null;
};

export interface SourceViewersTable {
  project_id: string;
  source: string;
  viewer_fingerprint: string;
}

export interface SourcePeopleTable {
  project_id: string;
  source: string;
  email: string;
}

export interface QrCodeViewersTable {
  qr_code_id: string;
  viewer_fingerprint: string;
}

export interface FormRateLimitsTable {
  key: string;
  window_started_at: number;
  count: number;
}

export type MailStatus = "pending" | "sent" | "failed";

export interface MailOutboxTable {
  id: string;
  kind: string;
  recipient: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  mail_headers: Record<string, string>;
  status: Generated<MailStatus>;
  attempts: Generated<number>;
  next_attempt_at: Timestamp;
  locked_until: Timestamp | null;
  /** The worker holding the claim (until `locked_until`); only it may settle the message. */
  claimed_by: string | null;
  /** When the holder began sending; set while the outcome of that attempt is unknown. */
  attempt_started_at: Timestamp | null;
  /**
   * When the holder had given the SMTP server the whole message and was about to end its data: from then on the
   * server may have it, so it is never sent again (decision "mail-end-of-data").
   */
  handed_over_at: Timestamp | null;
  last_error: string | null;
  /** Where the recipient's answer goes (a founder's reply to a lead: the founder's address), or null. */
  reply_to: string | null;
  /** An RFC 5545 `METHOD:REQUEST` calendar the message carries as its invitation, or null. */
  calendar_ics: string | null;
  /** Files the message carries (the morning-after report's contacts CSV, decision 66), or null. */
  attachments: MailAttachment[] | null;
  created_at: Generated<Timestamp>;
  sent_at: Timestamp | null;
}

/** A file attached to a message: text content (UTF-8), its file name and MIME type. */
export type MailAttachment = { filename: string; contentType: string; content: string };

export interface ProjectUpdatesTable {
  id: string;
  project_id: string;
  body: string;
  created_at: Generated<Timestamp>;
  /** The digest run that mailed this update; null until then. */
  digest_slot: string | null;
}

export interface DigestRunsTable {
  /** The local date of the Friday this run belongs to, e.g. '2026-11-20'. */
  slot: string;
  slot_at: Timestamp;
  ran_at: Timestamp;
  projects: Generated<number>;
  messages: Generated<number>;
  /** The last address queued by a batch of this run (in project id, then e-mail order); null before the first. */
  cursor_project_id: string | null;
  cursor_email: string | null;
  /** Set by the batch that found nobody left; a run without it is continued by the next pass. */
  finished_at: Timestamp | null;
  /** A run of one update sent now (slot `now:{update id}`, decision 79): its project; null for a Friday's run. */
  project_id: string | null;
  /** The zone the dates of a run sent now are written in; null for a Friday's run (the digest's own zone). */
  time_zone: string | null;
}

/** A recurring job's run for one slot (the UTC hour), claimed by the instance that runs it (decision 80). */
export interface RecurringJobRunsTable {
  job: string;
  /** The UTC hour it ran for, e.g. '2026-12-02T03'. */
  slot: string;
  started_at: Timestamp;
}

/** A public form's idempotency key, with the answer a repeat of that submission gets (decision 13). */
export interface VisitorSubmissionsTable {
  project_id: string;
  idempotency_key: string;
  intent: string;
  outcome: { message: string; blurb?: string };
  /** sha256 of the intent and normalised fields the key was first sent with; null on rows from before 0023. */
  request_fingerprint: string | null;
  created_at: Generated<Timestamp>;
}

export type LeadStatus = "new" | "contacted" | "meeting" | "passed";

/** One person per project: their contacts merged by e-mail, kept by every visitor write. */
export interface LeadsTable {
  id: string;
  project_id: string;
  /**
   * Lower-case, as every contact's e-mail is stored; null for a person met in person without one (decision 92),
   * until the team adds it.
   */
  email: string | null;
  /**
   * What tells a person met in person again without an e-mail (decision 92): `linkedin:{in/slug}` or `phone:{digits}`,
   * unique per project; null when no capture named one.
   */
  met_key: string | null;
  /** The name they gave most recently. */
  name: string;
  first_seen_at: Timestamp;
  last_activity_at: Timestamp;
  did_intro: Generated<boolean>;
  did_subscribe: Generated<boolean>;
  did_signal: Generated<boolean>;
  /**
   * Where they came from, the same key and rule as their contact's `source` (decision 54): their first action's,
   * until then `unknown` (a later attributed action fills it in).
   */
  source: Generated<string>;
  /** The founder's private triage: never on a public surface or in an e-mail. */
  status: Generated<LeadStatus>;
  note: string | null;
  triaged_at: Timestamp | null;
  /** The founder's first response (a status change, a reply or a logged call), null while the lead waits: the response clock. */
  first_response_at: Timestamp | null;
  /**
   * Where the response clock starts (decision 84): the first visitor action, or when the founder marked a person met
   * in person as awaiting a follow-up; null for someone only met in person, who is not waiting.
   */
  awaiting_since: Timestamp | null;
  /** The founder's hot, warm or cold, null until chosen. */
  temperature: "hot" | "warm" | "cold" | null;
  /** Their latest answer to the project's qualifying question, and that question as it was asked. */
  question: Generated<string | null>;
  answer: Generated<string | null>;
}

/**
 * A person a founder met and added at the booth or from the inbox (decision 62), merged into the
 * project's lead for that e-mail, or for their LinkedIn profile or phone when they gave none (decision 92). One row per capture; the key is the capturing device's UUID, unique per project.
 */
export interface LeadCapturesTable {
  id: string;
  project_id: string;
  lead_id: string;
  idempotency_key: string;
  /** sha256 of the capture's normalised fields: the same key with other fields is refused. */
  request_fingerprint: string;
  /** Whether this capture created the lead or updated an existing one (what a repeat of the key answers). */
  lead_outcome: "created" | "merged";
  /** The code the booth showed: `qr:{id}` or `direct`, named at read time (decision 54). */
  source: string;
  /** The signed-in user who added them. */
  added_by: string;
  name: string;
  /** Null for a person met without an e-mail (decision 92). */
  email: string | null;
  linkedin_url: string | null;
  phone: string | null;
  temperature: "hot" | "warm" | "cold" | null;
  /** The founder's one line about them. */
  note: string | null;
  created_at: Timestamp;
}

/** What the founder did towards a lead (decision 57): a reply sent through the outbox, or a call they logged. */
export interface LeadFollowUpsTable {
  id: string;
  project_id: string;
  lead_id: string;
  kind: "reply" | "call";
  /** The signed-in founder who sent or logged it. */
  author_id: string;
  /** A reply's subject; null for a call. */
  subject: string | null;
  /** A reply's text, or a call's optional note. */
  body: string | null;
  /** A reply's proposed meeting: its instant, length and the founder's zone it was proposed in. */
  meeting_starts_at: Timestamp | null;
  meeting_minutes: number | null;
  meeting_time_zone: string | null;
  /** The reply's message in `mail_outbox`. */
  mail_id: string | null;
  /** A reply to a person who had not acted on the pitch page themselves when it was sent (decision 77's stricter cap). */
  to_met_only: Generated<boolean>;
  created_at: Timestamp;
}

/** A project's follow-up template (decision 57); a project without a row uses the default. */
export interface ProjectReplyTemplatesTable {
  project_id: string;
  subject: string;
  body: string;
  updated_at: Timestamp;
}

export interface LeadInboxViewsTable {
  user_id: string;
  project_id: string;
  /** The owner's latest look at the inbox (My Projects counts from it). */
  seen_at: Timestamp;
  /** The latest look before the current sitting (the inbox's 'New' marks count from it); null during the first. */
  previous_seen_at: Timestamp | null;
}

export type AlertMode = "instant" | "daily" | "off";

export interface ProjectAlertSettingsTable {
  project_id: string;
  intro_alerts: Generated<AlertMode>;
  signal_alerts: Generated<AlertMode>;
  /** Whether each kind is pushed to the owner's devices (decision 56). */
  push_intro: Generated<boolean>;
  push_signal: Generated<boolean>;
  push_follow: Generated<boolean>;
  /** Whether deck reading is pushed (decision 99). */
  push_reading: Generated<boolean>;
  /** The project's Slack incoming-webhook URL, and which kinds are posted there. */
  slack_url: string | null;
  slack_intro: Generated<boolean>;
  slack_signal: Generated<boolean>;
  slack_follow: Generated<boolean>;
  /** Whether deck reading is posted to Slack: a lead opening the deck, and other readers' visit summaries (decision 99). */
  slack_reading: Generated<boolean>;
  /** The member who set the Slack URL (decision 78); null while there is none. */
  slack_added_by: string | null;
  /** Whether the project's owner and co-founders get the morning-after report (decision 66). */
  morning_report: Generated<boolean>;
}

/** A device a founder turned notifications on for (decision 56): its push service endpoint and its browser's keys. */
export interface PushSubscriptionsTable {
  id: string;
  user_id: string;
  endpoint: string;
  /** The browser's P-256 public key and auth secret, base64url, as `PushSubscription.toJSON()` gives them. */
  p256dh: string;
  auth: string;
  /** What the founder sees the device as ("Chrome on Android"). */
  device: string;
  created_at: Timestamp;
}

export type AlertChannel = "push" | "slack";

/** A push or a Slack post of one lead event, delivered like a webhook (claim, retry, once). */
export interface AlertDeliveriesTable {
  id: string;
  project_id: string;
  channel: AlertChannel;
  push_subscription_id: string | null;
  slack_url: string | null;
  event_id: string;
  target: string;
  /** The push's JSON ({title, body, url}) or Slack's ({text}), fixed when the event happened. */
  payload: string;
  status: Generated<WebhookDeliveryStatus>;
  attempts: Generated<number>;
  next_attempt_at: Timestamp;
  locked_until: Timestamp | null;
  claimed_by: string | null;
  attempt_started_at: Timestamp | null;
  /** A Slack post's holder had sent all but its last byte and was sending that: Slack may have it, never post again. */
  handed_over_at: Timestamp | null;
  last_error: string | null;
  response_status: number | null;
  created_at: Timestamp;
  delivered_at: Timestamp | null;
}

export interface PendingLeadAlertsTable {
  id: string;
  project_id: string;
  kind: "intro" | "signal";
  /** One line for the daily summary, written when the event happened. */
  summary: string;
  created_at: Timestamp;
  /** The day whose summary mailed this line; null until then. */
  summary_slot: string | null;
  /** The lead the line is about, linked from the summary (null for lines kept before migration 0022). */
  lead_id: string | null;
  /** The member whose daily summary carries the line; null for the owner (lines kept before migration 0036 too). */
  user_id: Generated<string | null>;
}

export interface LeadAlertRunsTable {
  /** The UTC day ('YYYY-MM-DD') of the summary run. */
  slot: string;
  ran_at: Timestamp;
  messages: Generated<number>;
  /** Set by the batch that found no project left; a run without it is continued by the next pass. */
  finished_at: Timestamp | null;
}

/** A morning-after report claimed (decision 66): the founder-local day it reports on and its kind, once per project. */
export interface MorningReportsTable {
  project_id: string;
  /** The day ('YYYY-MM-DD', on the owner's clock) with scans the report is about. */
  day: string;
  /** 'day': the morning after; 'week': seven days later, covering the day and the week after it. */
  kind: "day" | "week";
  sent_at: Timestamp;
  messages: Generated<number>;
}

export interface WebhookEndpointsTable {
  id: string;
  project_id: string;
  url: string;
  /** HMAC-SHA256 key; shown to the founder once, when the endpoint is added. */
  secret: string;
  created_at: Timestamp;
  /** The first failed attempt since the endpoint last answered 2xx; null while healthy. */
  failing_since: Timestamp | null;
  /** Set when it had failed for WEBHOOK_PAUSE_AFTER_MS: nothing is posted to it until the founder resumes it. */
  paused_at: Timestamp | null;
  /** The member who added it (decision 78); null only on a row inserted without one. */
  added_by: string | null;
}

export type WebhookDeliveryStatus = "pending" | "sent" | "failed";

export interface WebhookDeliveriesTable {
  id: string;
  endpoint_id: string;
  project_id: string;
  /** The visitor action this delivery reports; unique per endpoint, so each event is queued once per endpoint. */
  event_id: string;
  event_type: string;
  /** The JSON body, fixed when the event happened. */
  payload: string;
  status: Generated<WebhookDeliveryStatus>;
  attempts: Generated<number>;
  next_attempt_at: Timestamp;
  locked_until: Timestamp | null;
  /** The worker holding the claim (until `locked_until`); only it may settle the delivery. */
  claimed_by: string | null;
  /** When the holder began POSTing; set while the outcome of that attempt is unknown. */
  attempt_started_at: Timestamp | null;
  last_error: string | null;
  response_status: number | null;
  created_at: Timestamp;
  delivered_at: Timestamp | null;
}

/** A booth link (decision 35): read-only access to one project's booth screen; only the token's hash is kept. */
export interface BoothLinksTable {
  id: string;
  project_id: string;
  token_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
  /** The code its screen shows: a QR code's id, `plain`, or null for the project's default booth code. */
  code_id: Generated<string | null>;
  /** The member who made it (decision 78). */
  added_by: string | null;
}

/** A single-use link mailed to an address to prove its owner asked (decision 37); only the token's sha256 is kept. */
export interface AddressConfirmationsTable {
  token_hash: string;
  purpose: string;
  email: string;
  /** What the confirmed action needs (JSON). Named apart from `webhook_deliveries.payload`, which is text. */
  action_data: unknown;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

/** An address that asked for no more mail of one kind anyone can trigger (decision 38). */
export interface MailBlocksTable {
  email: string;
  kind: string;
  created_at: Timestamp;
}

/** A sign-up invitation (decision 39): one account, once, before `expires_at`; only the token's hash is kept. */
export interface SignupInvitationsTable {
  id: string;
  token_hash: string;
  invited_by: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  used_by: string | null;
}

/** A project's roles besides its one owner (decision 61). */
export type MemberRole = "co-founder" | "staff" | "viewer";

/** Someone on a project's team who is not its owner (decision 61). */
export interface ProjectMembersTable {
  project_id: string;
  user_id: string;
  role: MemberRole;
  /** The member who added them (the inviter), null when unknown. */
  added_by: string | null;
  created_at: Timestamp;
}

/** An invitation to a project's team (decision 61): one address, one role, once, before `expires_at`. */
export interface TeamInvitationsTable {
  id: string;
  project_id: string;
  /** Lower-case. */
  email: string;
  role: MemberRole;
  token_hash: string;
  invited_by: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  accepted_at: Timestamp | null;
  accepted_by: string | null;
  revoked_at: Timestamp | null;
}

/** A change a member made to a lead's triage (decision 61): the lead's history says who. */
export interface LeadEventsTable {
  id: string;
  project_id: string;
  lead_id: string;
  actor_id: string;
  kind: "status" | "temperature" | "note";
  /** The new status or temperature; a note's new text (null when cleared). */
  value: string | null;
  created_at: Timestamp;
}

export type LeftoverKind = "webhook" | "slack" | "booth" | "push";

/**
 * Something a member set up for a project before they were removed or left (decision 78): disabled, nothing
 * delivered to it and no booth opened with it, until the owner keeps or deletes it.
 */
export interface MemberLeftoversTable {
  project_id: string;
  kind: LeftoverKind;
  /** The webhook endpoint's, booth link's or push subscription's id; `slack` for the project's Slack channel. */
  item_id: string;
  /** The member who had set it up. */
  added_by: string;
  removed_at: Timestamp;
}

/** A member's own alerts on one project (decision 61); the owner's are the project's settings. */
export interface MemberAlertSettingsTable {
  project_id: string;
  user_id: string;
  intro_alerts: Generated<AlertMode>;
  signal_alerts: Generated<AlertMode>;
  push_intro: Generated<boolean>;
  push_signal: Generated<boolean>;
  push_follow: Generated<boolean>;
  push_reading: Generated<boolean>;
}

/** Why an uploaded file was not taken as the deck. */
export type DeckRefusalReason = "not_pdf" | "too_large" | "encrypted" | "damaged" | "too_many_pages" | "page_failed";

/** Where a deck is: rendering (the job), ready (its pages stored), refused (with the reason), or replaced and removed. */
export type DeckStatus = "rendering" | "ready" | "refused" | "replaced" | "removed";

export interface DecksTable {
  id: string;
  project_id: string;
  status: DeckStatus;
  file_name: string;
  file_bytes: number;
  /** Known once the PDF is opened. */
  page_count: number | null;
  pages_done: Generated<number>;
  refusal_reason: DeckRefusalReason | null;
  refusal_message: string | null;
  uploaded_by: string;
  created_at: Timestamp;
  finished_at: Timestamp | null;
  claimed_by: string | null;
  claimed_until: Timestamp | null;
  attempts: Generated<number>;
}

export interface DeckPagesTable {
  deck_id: string;
  page_number: number;
  /** The page's shape as drawn at 1600 px wide (less for a tall page), for the reader's layout before it loads. */
  width: number;
  height: number;
  /** The page's text as the PDF holds it, the image's alternative text; empty for a page of pictures only. */
  text: Generated<string>;
}

/** Who a deck view is counted for (decision 99): a reader, or the team or a bot, shown apart and never counted. */
export type DeckAudience = "reader" | "team" | "bot";

/** One opening of the deck reader on one page load, by one viewer (decision 99). */
export interface DeckViewsTable {
  /** The view id the reader made (32 hex characters), sent with each beat. */
  id: string;
  project_id: string;
  /** The deck read; a replaced deck's views stay with it. */
  deck_id: string;
  /** The door's viewer (its cookie, hashed); null for a browser that keeps no cookie. */
  viewer_fingerprint: string | null;
  /** The daily-salted address hash, for the per-viewer ceiling of a browser without a cookie. */
  address_hash: string | null;
  audience: DeckAudience;
  /** Where the visitor came from (`qr:{id}`, `direct`, `unknown`), as their forms are attributed. */
  source: string;
  /** The lead this viewer's forms wrote to, when there is one (kept as the viewer later sends one). */
  lead_id: string | null;
  started_at: Timestamp;
  last_beat_at: Timestamp;
  /** Reading time counted, in milliseconds, and the pages with any. */
  ms: Generated<number>;
  pages: Generated<number>;
  /** The visit's alert (decision 99): null until decided; `sent`, `lead` (alerted as a lead) or `none`. */
  summary_state: string | null;
}

export interface DeckViewPagesTable {
  view_id: string;
  page_number: number;
  ms: number;
}

/** A beat recorded once per (view, sequence number), with the span of the reader's clock it covered. */
export interface DeckBeatsTable {
  view_id: string;
  seq: number;
  from_ms: number;
  to_ms: number;
}

/** The lead a viewer's forms wrote to, per project: their reading is that person's. */
export interface LeadViewersTable {
  project_id: string;
  viewer_fingerprint: string;
  lead_id: string;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  accounts: AccountsTable;
  verifications: VerificationsTable;
  rate_limits: RateLimitsTable;
  projects: ProjectsTable;
  qr_codes: QrCodesTable;
  project_slugs: ProjectSlugsTable;
  qr_code_moves: QrCodeMovesTable;
  scans: ScansTable;
  contacts: ContactsTable;
  intros: IntrosTable;
  contact_merges: ContactMergesTable;
  signal_tiers: SignalTiersTable;
  signals: SignalsTable;
  recognition_entries: RecognitionEntriesTable;
  project_stats: ProjectStatsTable;
  project_viewers: ProjectViewersTable;
  source_stats: SourceStatsTable;
  form_refusals: FormRefusalsTable;
  held_submissions: HeldSubmissionsTable;
  accepted_forms: AcceptedFormsTable;
  decks: DecksTable;
  deck_pages: DeckPagesTable;
  source_viewers: SourceViewersTable;
  source_people: SourcePeopleTable;
  pitch_saves: PitchSavesTable;
  qr_code_viewers: QrCodeViewersTable;
  form_rate_limits: FormRateLimitsTable;
  scan_hours: ScanHoursTable;
  scan_audience_hours: ScanAudienceHoursTable;
  mail_outbox: MailOutboxTable;
  project_updates: ProjectUpdatesTable;
  digest_runs: DigestRunsTable;
  recurring_job_runs: RecurringJobRunsTable;
  visitor_submissions: VisitorSubmissionsTable;
  leads: LeadsTable;
  lead_inbox_views: LeadInboxViewsTable;
  lead_follow_ups: LeadFollowUpsTable;
  lead_captures: LeadCapturesTable;
  project_reply_templates: ProjectReplyTemplatesTable;
  project_alert_settings: ProjectAlertSettingsTable;
  pending_lead_alerts: PendingLeadAlertsTable;
  lead_alert_runs: LeadAlertRunsTable;
  morning_reports: MorningReportsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  push_subscriptions: PushSubscriptionsTable;
  alert_deliveries: AlertDeliveriesTable;
  booth_links: BoothLinksTable;
  address_confirmations: AddressConfirmationsTable;
  mail_blocks: MailBlocksTable;
  signup_invitations: SignupInvitationsTable;
  project_members: ProjectMembersTable;
  team_invitations: TeamInvitationsTable;
  lead_events: LeadEventsTable;
  member_alert_settings: MemberAlertSettingsTable;
  member_leftovers: MemberLeftoversTable;
  deck_views: DeckViewsTable;
  deck_view_pages: DeckViewPagesTable;
  deck_beats: DeckBeatsTable;
  lead_viewers: LeadViewersTable;
}

/** Columns stored as 0/1 on SQLite and read back as booleans. */
export const BOOLEAN_COLUMNS: ReadonlySet<string> = new Set([
  "email_verified",
  "email_confirmation_waived",
  "question_required",
  "subscribed",
  "awaiting_confirmation",
  "is_public",
  "message_public",
  "hidden",
  "did_intro",
  "did_subscribe",
  "did_signal",
  "push_intro",
  "push_signal",
  "push_follow",
  "slack_intro",
  "slack_signal",
  "slack_follow",
  "push_reading",
  "slack_reading",
  "morning_report",
  "to_met_only",
  "deck_download",
]);
/** Columns stored as JSON text on SQLite and jsonb on PostgreSQL, read back as parsed values. */
export const JSON_COLUMNS: ReadonlySet<string> = new Set([
  "metrics",
  "question_options",
  "problem_points",
  "solution_points",
  "role_tags",
  "perks",
  "mail_headers",
  "outcome",
  "action_data",
  "submitted_fields",
  "attachments",
  "receipt",
]);

export type Project = Selectable<ProjectsTable>;
export type QrCode = Selectable<QrCodesTable>;
export type Contact = Selectable<ContactsTable>;
export type SignalTier = Selectable<SignalTiersTable>;
export type Signal = Selectable<SignalsTable>;
export type ShippedUpdate = Selectable<ProjectUpdatesTable>;
export type Lead = Selectable<LeadsTable>;
