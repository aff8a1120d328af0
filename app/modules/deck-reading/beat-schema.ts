import { z } from "zod/mini";
import { isRecordId } from "~/modules/http/id-shape";
import { BEAT_MAX_SPAN_MS, BEATS_PER_REQUEST, SEGMENTS_PER_BEAT, VIEW_MAX_AGE_MS, type DeckBeat } from "./reading-rules";

/** A view id: 32 lower-case hex characters, made by the reader. */
const VIEW_ID = /^[0-9a-f]{32}$/;

const clockTime = z.number().check(z.int("Times are whole milliseconds"), z.gte(0, "A time cannot be negative"), z.lte(VIEW_MAX_AGE_MS, "The view is too old"));

const segment = z.tuple([z.number().check(z.int(), z.gte(1, "No such page"), z.lte(1000, "No such page")), clockTime, clockTime]);

/** One beat, checked on its own: its segments in order, each ending after it starts, none after the beat was made. */
const beat = z
  .object({
    project: z.string().check(z.refine(isRecordId, "Unknown project")),
    deck: z.string().check(z.refine(isRecordId, "Unknown deck")),
    view: z.string().check(z.regex(VIEW_ID, "Malformed view id")),
    seq: z.number().check(z.int(), z.gte(0), z.lte(100_000)),
    age: clockTime,
    qr: z.nullable(z.string().check(z.maxLength(64))),
    segments: z.array(segment).check(z.maxLength(SEGMENTS_PER_BEAT, "Too many segments")),
  })
  .check(
    z.refine((b) => b.segments.every(([, from, to]) => to > from && to <= b.age), "A segment must end after it starts, and not after the beat was made"),
    z.refine((b) => b.segments.every(([, from], i) => i === 0 || from >= b.segments[i - 1]![2]), "Segments must be in order and apart"),
    z.refine((b) => b.segments.length === 0 || b.segments[b.segments.length - 1]![2] - b.segments[0]![1] <= BEAT_MAX_SPAN_MS, "A beat covers too long a time"),
  );

export const deckReadingSchema = z.object({
  beats: z.array(beat).check(z.minLength(1, "No beats"), z.maxLength(BEATS_PER_REQUEST, "Too many beats")),
});

export type DeckReadingInput = { beats: DeckBeat[] };
