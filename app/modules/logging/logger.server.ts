import pino from "pino";

export type Logger = pino.Logger;

/** One JSON line per event on stdout; each request gets a child logger carrying its request id. */
export function createLogger(level: string): Logger {
  return pino({ level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime });
}
