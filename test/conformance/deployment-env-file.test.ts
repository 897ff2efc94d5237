import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCapturedLog } from "../helpers/captured-log.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

// A deployment as templates ship it: langgraph.json names `"env": ".env"`, but only .env.example
// is there. LangGraph's CLI starts it with a warning; so does Hangar.
const here = path.dirname(fileURLToPath(import.meta.url));
const ECHO_GRAPH = path.resolve(here, "../fixtures/graphs/echo.ts:graph");

const { logger, lines: logLines } = createCapturedLog();

let server: TestServer;
let directory: string;

beforeAll(async () => {
  directory = mkdtempSync(path.join(os.tmpdir(), "hangar-env-example-"));
  writeFileSync(path.join(directory, "langgraph.json"), JSON.stringify({ graphs: { echo: ECHO_GRAPH }, env: ".env" }));
  writeFileSync(path.join(directory, ".env.example"), "OPENAI_API_KEY=\n");
  server = await startTestServer({ configPath: path.join(directory, "langgraph.json"), logger });
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
