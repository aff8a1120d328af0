/**
 * The closed set of failures a domain function may report on purpose. Anything else is unexpected:
 * it is logged with its detail and the user sees a generic message.
 */
export const DOMAIN_ERROR_STATUS = {
  invalid_input: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  /** Well-formed but refused as a whole: an idempotency key sent again with a different request. */
  unprocessable: 422,
  rate_limited: 429,
} as const;

export type DomainErrorCode = keyof typeof DOMAIN_ERROR_STATUS;

export class DomainError extends Error {
  readonly code: DomainErrorCode;
  /** Messages per form field, when the failure belongs to one. */
  readonly fieldErrors: Record<string, string>;
  /** For `rate_limited`: how long the client should wait, sent as the response's Retry-After header. */
  readonly retryAfterSeconds: number | undefined;

  constructor(code: DomainErrorCode, message: string, fieldErrors: Record<string, string> = {}, retryAfterSeconds?: number) {
    super(message);
    this.name = "DomainError";
    this.code = code;
    this.fieldErrors = fieldErrors;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  get status(): number {
    return DOMAIN_ERROR_STATUS[this.code];
  }
}

export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError;
}

/** The headers a DomainError's answer carries: Retry-After when it is a rate limit. */
export function domainErrorHeaders(error: DomainError): HeadersInit | undefined {
  return error.retryAfterSeconds === undefined ? undefined : { "Retry-After": String(error.retryAfterSeconds) };
}
