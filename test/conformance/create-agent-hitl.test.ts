import { randomUUID } from "node:crypto";
import { copyFileSync, cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Command as HangarCommand, StateGraph as HangarStateGraph } from "@langchain/langgraph";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

/**
 * LangChain v1's createAgent with humanInTheLoopMiddleware, deployed with its own node_modules
 * (the usual layout): @langchain/langgraph, @langchain/core, @langchain/langgraph-checkpoint and
 * langchain are copied into the deployment, so they are other module instances than Hangar's.
 * LangChain's agent checks `instanceof Command` against its copy: a resume built from Hangar's
 * copy would be taken as new state (the model called again, a second interrupt, a "success").
 * Each decision is resumed through the official SDK client and compared with the same agent run
 * in-process with LangGraph's MemorySaver.
 */
const FIXTURE = path.resolve("test/fixtures/hitl-agent");
const OUR_NODE_MODULES = path.resolve("node_modules");
const COPIED = new Set(["@langchain/langgraph", "@langchain/core", "@langchain/langgraph-checkpoint", "langchain"]);

function createDeployment(): string {
  const root = mkdtempSync(path.join(os.tmpdir(), "hangar-hitl-"));
  for (const file of readdirSync(FIXTURE)) copyFileSync(path.join(FIXTURE, file), path.join(root, file));
  const modules = path.join(root, "node_modules");
  mkdirSync(path.join(modules, "@langchain"), { recursive: true });
  const link = (name: string) => {
    const source = path.join(OUR_NODE_MODULES, name);
    const target = path.join(modules, name);
    // Source maps and type declarations are not needed at run time; skipping them halves the copy.
    if (COPIED.has(name)) cpSync(source, target, { recursive: true, filter: (file) => !/\.(map|d\.ts|d\.cts)$/.test(file) });
    else symlinkSync(source, target);
  };
  for (const entry of readdirSync(OUR_NODE_MODULES)) {
    if (entry.startsWith(".")) continue;
    if (entry === "@langchain") readdirSync(path.join(OUR_NODE_MODULES, entry)).forEach((scoped) => link(`@langchain/${scoped}`));
    else link(entry);
  }
  return root;
}

type Decision = Record<string, unknown>;
type WireMessage = { type: string; content: unknown; tool_calls?: Array<{ name: string; args: unknown }> };
/** What a conversation says, without ids: type, content, tool calls. */
type Said = [type: string, content: unknown, toolCalls: unknown];

function said(messages: unknown[]): Said[] {
  return messages.map((raw) => {
    const message = raw as WireMessage & { getType?: () => string };
    const toolCalls = (message.tool_calls ?? []).map(({ name, args }) => ({ name, args }));
    return [message.getType?.() ?? message.type, message.content, toolCalls];
  });
}

const ASK = { messages: [{ role: "user", content: "email bob" }] };
const PROPOSED = { name: "send_email", args: { to: "bob@example.com", body: "hi" } };
const EDITED = { name: "send_email", args: { to: "carol@example.com", body: "hello" } };

const cases: Array<{ name: string; decision: Decision; toolCalls: unknown[]; conversation: Said[] }> = [
  {
    name: "approve runs the tool once",
    decision: { type: "approve" },
    toolCalls: [PROPOSED.args],
    conversation: [
      ["human", "email bob", []],
      ["ai", "", [PROPOSED]],
      ["tool", "sent to bob@example.com: hi", []],
      ["ai", "done: sent to bob@example.com: hi", []],
    ],
  },
  {
    name: "edit runs it with the edited arguments",
    decision: { type: "edit", editedAction: EDITED },
    toolCalls: [EDITED.args],
    conversation: [
      ["human", "email bob", []],
      ["ai", "", [EDITED]],
      ["tool", "sent to carol@example.com: hello", []],
      ["ai", "done: sent to carol@example.com: hello", []],
    ],
  },
  {
    name: "reject answers the model without running the tool",
    decision: { type: "reject", message: "not now" },
    toolCalls: [],
    conversation: [
      ["human", "email bob", []],
      ["ai", "", [PROPOSED]],
      ["tool", "not now", []],
      ["ai", "done: not now", []],
    ],
  },
];

describe("createAgent + humanInTheLoopMiddleware in a deployment with its own node_modules", () => {
  let root: string;
  let server: TestServer;
  // The deployment's module, as the deployment's own code sees it (its copies of the packages).
  let deployment: {
    buildAgent: (checkpointer?: unknown) => { invoke(input: unknown, config: unknown): Promise<Record<string, unknown>> };
    Command: new (args: { resume: unknown }) => unknown;
    MemorySaver: new () => unknown;
  };

  beforeAll(async () => {
    root = createDeployment();
    server = await startTestServer({ configPath: path.join(root, "langgraph.json") });
    deployment = (await import(pathToFileURL(path.join(root, "agent.ts")).href)) as typeof deployment;
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  const toolCallsOf = (threadId: string): unknown[] => {
    const file = path.join(root, "tool-calls.jsonl");
    if (!existsSync(file)) return [];
    const lines = readFileSync(file, "utf8").split("\n").filter(Boolean);
    return lines.map((line) => JSON.parse(line) as { thread_id: string; args: unknown }).filter((call) => call.thread_id === threadId).map((call) => call.args);
  };

  it("really runs on the deployment's copies (the test would prove nothing otherwise)", async () => {
    expect(lstatSync(path.join(root, "node_modules/@langchain/langgraph")).isSymbolicLink()).toBe(false);
    expect(lstatSync(path.join(root, "node_modules/langchain")).isSymbolicLink()).toBe(false);
    const { graphs } = server.hangar.runtime;
    const agent = (await graphs.resolve("agent")) as unknown as { graph: { builder: object } };
    expect(agent.graph.builder).not.toBeInstanceOf(HangarStateGraph);
    expect(graphs.libraryOf("agent").Command).not.toBe(HangarCommand);
    expect(graphs.libraryOf("agent").Command).toBe(deployment.Command);
  });

  it.each(cases)("$name, as in-process with MemorySaver", async ({ decision, toolCalls, conversation }) => {
    const { client } = server;
    const { thread_id: threadId } = await client.threads.create();
    await client.runs.wait(threadId, "agent", { input: ASK });
    const interrupted = await client.threads.getState(threadId);
    expect(interrupted.tasks[0]?.interrupts[0]?.value).toMatchObject({ actionRequests: [PROPOSED] });
    const values = (await client.runs.wait(threadId, "agent", { command: { resume: { decisions: [decision] } } })) as {
      messages: unknown[];
    };
    // Finished, not waiting in a second interrupt.
    expect((await client.threads.get(threadId)).status).toBe("idle");
    expect((await client.threads.getState(threadId)).next).toEqual([]);
    expect(toolCallsOf(threadId)).toEqual(toolCalls);
    expect(said(values.messages)).toEqual(conversation);

    const agent = deployment.buildAgent(new deployment.MemorySaver());
    const local = { configurable: { thread_id: randomUUID() } };
    const paused = await agent.invoke(ASK, local);
    expect(paused.__interrupt__).toBeDefined();
    const finished = await agent.invoke(new deployment.Command({ resume: { decisions: [decision] } }), local);
    expect(said(finished.messages as unknown[])).toEqual(said(values.messages));
    expect(toolCallsOf(local.configurable.thread_id)).toEqual(toolCalls);
  });
});
