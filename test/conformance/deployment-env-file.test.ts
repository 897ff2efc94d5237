import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

// A deployment as templates ship it: langgraph.json names `"env": ".env"`, but only .env.example
// is there. LangGraph's CLI starts it with a warning; so does Hangar.
const here = path.dirname(fileURLToPath(import.meta.url));
const ECHO_GRAPH = path.resolve(here, "../fixtures/graphs/echo.ts:graph");

const logLines: Array<Record<string, unknown>> = [];
const captureLogs = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString("utf8").split("\n")) if (line.trim() !== "") logLines.push(JSON.parse(line));
    done();
  },
});

let server: TestServer;
let directory: string;

beforeAll(async () => {
  directory = mkdtempSync(path.join(os.tmpdir(), "hangar-env-example-"));
  writeFileSync(path.join(directory, "langgraph.json"), JSON.stringify({ graphs: { echo: ECHO_GRAPH }, env: ".env" }));
  writeFileSync(path.join(directory, ".env.example"), "OPENAI_API_KEY=\n");
  server = await startTestServer({ configPath: path.join(directory, "langgraph.json"), logger: pino({ level: "info" }, captureLogs) });
});

afterAll(async () => {
  await server?.close();
  if (directory) rmSync(directory, { recursive: true, force: true });
});

describe("a deployment without its .env file", () => {
  it("starts, warns naming the file, and runs its graphs", async () => {
    const warning = logLines.find((line) => typeof line.msg === "string" && line.msg.includes("does not exist"));
    expect(warning).toMatchObject({
      level: 40,
      config: path.join(directory, "langgraph.json"),
      msg: `env file ${path.join(directory, ".env")} (langgraph.json "env") does not exist; starting without it`,
    });
    const values = await server.client.runs.wait(null, "echo", { input: { messages: [{ role: "user", content: "hi" }] } });
    expect(values).toEqual({ messages: [{ role: "user", content: "hi" }, { role: "assistant", content: "echo: hi" }] });
  });
});
