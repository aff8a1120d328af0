import pino from "pino";

export type Logger = pino.Logger;

/**
 * One JSON line per event on stdout; each request gets a child logger carrying its request id.
 * Lines are written asynchronously (pino flushes what is pending when the process exits), so a busy server
 * makes one write for many request lines instead of a blocking write per request.
 */
export function createLogger(level: string): Logger {
  return pino({ level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime }, pino.destination({ dest: 1, sync: false }));
}
