import { InvalidInputError } from "../../domain/errors.js";
import { parseRunTime } from "../../tracing/ingest/parse-run-time.js";

/**
 * Opaque page cursors for run queries: the (start_time, id) of the last run of a page, which the
 * next page continues after. Keyset rather than offset so pages stay stable while runs arrive.
 */
export function encodeTraceCursor(run: { startTime: string; id: string }): string {
  return Buffer.from(JSON.stringify([run.startTime, run.id])).toString("base64url");
}

export function decodeTraceCursor(cursor: string): { startTime: string; id: string } {
  try {
    const [startTime, id] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown[];
    const time = parseRunTime(startTime);
    if (time && typeof id === "string" && /^[0-9a-f-]{36}$/i.test(id)) return { startTime: time, id };
  } catch {
    // falls through to the error below
  }
  throw new InvalidInputError("cursor is not a cursor returned by a previous query");
}
