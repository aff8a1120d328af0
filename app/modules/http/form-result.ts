/** What a founder form's action answers a fetcher: a message to toast, or the messages per field. */
export type FormResult<Intent extends string = string> =
  | { intent: Intent; ok: true; message: string; id?: string }
  | { intent: Intent; ok: false; formError: string; fieldErrors: Record<string, string> };
