import { pino, type Logger } from "pino";

export type { Logger };

/** Structured JSON logs on stdout; one root logger, children per component. */
export function createLogger(level: string): Logger {
  return pino({ level, base: { service: "hangar" }, timestamp: pino.stdTimeFunctions.isoTime });
}
