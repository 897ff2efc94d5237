import { Writable } from "node:stream";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { createTestDatabase } from "../helpers/test-database.js";
import { startTestServer } from "../helpers/test-server.js";

/** What start-up says: the open-API warning only where the API is served; a taken port named with how to choose another. */
function capturingLogger() {
  const messages: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString("utf8").split("\n")) if (line.trim() !== "") messages.push((JSON.parse(line) as { msg: string }).msg);
      done();
    },
  });
  return { logger: pino({ level: "warn" }, stream), messages };
}

const OPEN_API = /The API is open to anyone/;

describe("start-up messages", () => {
  it("warns that the API is open when serving it without keys, not in a worker (no HTTP)", async () => {
    const database = await createTestDatabase();
    try {
      const serving = capturingLogger();
      const api = await startTestServer({ database, logger: serving.logger, roles: { api: true, worker: false, cron: false } });
      await api.close();
      expect(serving.messages.some((message) => OPEN_API.test(message))).toBe(true);

      const working = capturingLogger();
      const worker = await startTestServer({ database, logger: working.logger, roles: { api: false, worker: true, cron: false } });
      await worker.close();
      expect(working.messages.filter((message) => OPEN_API.test(message))).toEqual([]);
    } finally {
      await database.retire();
    }
  });

  it("a taken port names PORT and --port", async () => {
    const first = await startTestServer({ roles: { api: true, worker: false, cron: false } });
    try {
      const port = new URL(first.url).port;
      await expect(startTestServer({ env: { PORT: port }, roles: { api: true, worker: false, cron: false } })).rejects.toThrow(
        new RegExp(`port ${port} on 127\\.0\\.0\\.1 is already in use \\(EADDRINUSE\\).*PORT=<port> or --port <port>`),
      );
    } finally {
      await first.close();
    }
  });
});
