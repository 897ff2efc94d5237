import { Writable } from "node:stream";
import { pino, type Logger } from "pino";

/**
 * A pino logger for a test server whose JSON lines are kept in `lines` instead of printed, so a
 * test can assert on what the server logged (warnings at start-up, trace problems).
 */
export function createCapturedLog(level: pino.Level = "info"): { logger: Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString("utf8").split("\n")) if (line.trim() !== "") lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino({ level }, sink), lines };
}
