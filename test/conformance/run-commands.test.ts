import path from "node:path";
import { Command, Send } from "@langchain/langgraph";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CreateRunDocument } from "../graphql/generated/graphql.js";
import { executeOk, executeOperation } from "../graphql/helpers.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

/**
 * Run commands as LangGraph's clients send them: the SDK's `{resume, update, goto}`, RemoteGraph's
 * `Command.toJSON()` (`lg_name`, Sends with `args`), agent-chat-ui's `{"input": {}, "command": …}`.
 * The `commands` graph waits in `ask` (interrupt) and logs; `note` logs the last entry it is given.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ configPath: path.resolve("test/fixtures/commands.langgraph.json") });
});
afterAll(async () => {
  await server?.close();
});

type Values = { log: string[] };

async function post(pathname: string, body: unknown): Promise<Response> {
  return server.request(pathname, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
}

/** A thread waiting in `ask`, its log `["start"]`. */
async function interruptedThread(): Promise<string> {
  const { thread_id: threadId } = await server.client.threads.create();
  await server.client.runs.wait(threadId, "commands", { input: { log: ["start"] } });
  expect((await server.client.threads.get(threadId)).status).toBe("interrupted");
  return threadId;
}

async function logOf(threadId: string): Promise<string[]> {
  return ((await server.client.threads.getState<Values>(threadId)).values as Values).log;
}

/** The `values` of the last values event of an SSE body. */
function lastValues(sse: string): Values {
  const events = sse.split("\n\n").filter((block) => block.includes("event: values"));
  const data = events.at(-1)!.split("\n").find((line) => line.startsWith("data: "))!;
  return JSON.parse(data.slice("data: ".length)) as Values;
}

describe("input beside a command: accepted on every run route, the command wins", () => {
  const resume = { assistant_id: "commands", input: { log: ["ignored"] }, command: { resume: "go" } };
  const resumed = ["start", 'ask:"go"'];

  it("POST /threads/{id}/runs, then join", async () => {
    const threadId = await interruptedThread();
    const response = await post(`/threads/${threadId}/runs`, resume);
    expect(response.status).toBe(200);
    const run = (await response.json()) as { run_id: string; kwargs: { input: unknown; command: unknown } };
    expect(run.kwargs).toMatchObject({ input: null, command: { resume: "go" } });
    expect(((await server.client.runs.join(threadId, run.run_id)) as Values).log).toEqual(resumed);
  });

  it("POST /threads/{id}/runs/stream", async () => {
    const threadId = await interruptedThread();
    const response = await post(`/threads/${threadId}/runs/stream`, resume);
    expect(response.status).toBe(200);
    expect(lastValues(await response.text()).log).toEqual(resumed);
  });

  it("POST /threads/{id}/runs/wait", async () => {
    const threadId = await interruptedThread();
    const response = await post(`/threads/${threadId}/runs/wait`, resume);
    expect(response.status).toBe(200);
    expect(((await response.json()) as Values).log).toEqual(resumed);
  });

  // A stateless run starts on a new thread: its command updates the state and goes to `note`.
  const stateless = { assistant_id: "commands", input: { log: ["ignored"] }, command: { update: { log: ["u"] }, goto: "note" } };
  const updated = ["u", "note:u"];

  it("POST /runs/wait and /runs/stream", async () => {
    const waited = await post("/runs/wait", stateless);
    expect(waited.status).toBe(200);
    expect(((await waited.json()) as Values).log).toEqual(updated);
    const streamed = await post("/runs/stream", stateless);
    expect(streamed.status).toBe(200);
    expect(lastValues(await streamed.text()).log).toEqual(updated);
  });

  it("POST /runs and /runs/batch", async () => {
    const kept = { ...stateless, on_completion: "keep" };
    const single = (await (await post("/runs", kept)).json()) as { run_id: string; thread_id: string };
    const batch = await post("/runs/batch", [kept, { ...kept, command: { ...stateless.command, update: [["log", "pair"]] } }]);
    expect(batch.status).toBe(200);
    const [first, second] = (await batch.json()) as Array<{ run_id: string; thread_id: string }>;
    for (const run of [single, first!]) {
      expect(((await server.client.runs.join(run.thread_id, run.run_id)) as Values).log).toEqual(updated);
    }
    expect(((await server.client.runs.join(second!.thread_id, second!.run_id)) as Values).log).toEqual(["pair", "note:pair"]);
  });

  it("GraphQL createRun", async () => {
    const threadId = await interruptedThread();
    const { createRun } = await executeOk(server, CreateRunDocument, {
      input: { threadId, assistantId: "commands", input: { log: ["ignored"] }, command: { resume: "go" } },
    });
    expect(createRun.run.kwargs).toMatchObject({ input: null, command: { resume: "go" } });
    await server.client.runs.join(threadId, createRun.run.runId);
    expect(await logOf(threadId)).toEqual(resumed);
  });

  it("agent-chat-ui's approve body, through the SDK client and through plain fetch", async () => {
    const viaSdk = await interruptedThread();
    const events = [];
    for await (const part of server.client.runs.stream(viaSdk, "commands", {
      input: {},
      command: { resume: { approved: true } },
      streamMode: ["values"],
    })) {
      events.push(part);
    }
    expect(events.map((part) => part.event)).not.toContain("error");
    expect(await logOf(viaSdk)).toEqual(["start", 'ask:{"approved":true}']);

    const viaFetch = await interruptedThread();
    const response = await post(`/threads/${viaFetch}/runs/stream`, {
      assistant_id: "commands",
      input: {},
      command: { resume: { approved: true } },
      stream_mode: ["values"],
    });
    expect(response.status).toBe(200);
    expect(lastValues(await response.text()).log).toEqual(["start", 'ask:{"approved":true}']);
  });
});

describe("commands in LangGraph's own spellings", () => {
  it("takes Command.toJSON() as RemoteGraph sends it (lg_name, Sends with args)", async () => {
    const threadId = await interruptedThread();
    const resumeJson = new Command({ resume: "go" }).toJSON();
    expect(resumeJson).toHaveProperty("lg_name", "Command");
    const resumed = await post(`/threads/${threadId}/runs/wait`, { assistant_id: "commands", command: resumeJson });
    expect(resumed.status).toBe(200);

    const gotoJson = new Command({ update: { log: ["u"] }, goto: [new Send("note", { log: ["sent"] }), "note"] }).toJSON();
    expect(JSON.parse(JSON.stringify(gotoJson)).goto[0]).toMatchObject({ lg_name: "Send", node: "note", args: { log: ["sent"] } });
    const sent = await post(`/threads/${threadId}/runs/wait`, { assistant_id: "commands", command: gotoJson });
    expect(sent.status).toBe(200);
    expect(((await sent.json()) as Values).log.slice(2).sort()).toEqual(["note:sent", "note:u", "u"]);
  });

  it.each([
    ["a node name", "note", ["u", "note:u"]],
    ["a Send as the SDK types it", { node: "note", input: { log: ["sent"] } }, ["u", "note:sent"]],
    ["a Send with lg_name", { lg_name: "Send", node: "note", args: { log: ["sent"] } }, ["u", "note:sent"]],
    ["a list of both", ["note", { node: "note", input: { log: ["sent"] } }], ["u", "note:sent", "note:u"]],
  ])("goto: %s", async (_name, goto, log) => {
    const { thread_id: threadId } = await server.client.threads.create();
    const values = (await server.client.runs.wait(threadId, "commands", {
      command: { update: { log: ["u"] }, goto: goto as never },
    })) as Values;
    expect([...values.log].sort()).toEqual([...log].sort());
  });

  it("update as [channel, value] pairs, beside a resume", async () => {
    const threadId = await interruptedThread();
    await server.client.runs.wait(threadId, "commands", { command: { resume: "go", update: [["log", ["pre"]]] } });
    expect(await logOf(threadId)).toEqual(["start", "pre", 'ask:"go"']);
  });
});

describe("commands LangGraph refuses: 422 naming the field, nothing queued", () => {
  let threadId: string;
  beforeAll(async () => {
    threadId = await interruptedThread();
  });

  const commandCases: Array<[string, unknown, RegExp]> = [
    ["an empty command", {}, /^command is empty: give resume \(not null\), update or goto$/],
    ["a null resume only", { resume: null, lg_name: "Command" }, /^command is empty/],
    ["an empty goto list (an empty Command's toJSON)", { lg_name: "Command", goto: [] }, /^command is empty/],
    ["goto to an unknown node", { goto: "nope" }, /^command\.goto names the unknown node 'nope' \(the graph's nodes: ask, note\)$/],
    ["goto to the start node", { goto: "__start__" }, /^command\.goto names the unknown node '__start__'/],
    ["a Send to an unknown node", { goto: ["note", { lg_name: "Send", node: "nope", args: {} }] }, /^command\.goto names the unknown node 'nope'/],
    ["an update that is no state", { update: "x" }, /^command\.update must be an object of channel values or a list of \[channel, value\] pairs$/],
    ["a goto that is no target", { goto: [5] }, /^command\.goto\[0\] must be a node name or a Send/],
  ];
  const routes: Array<[string, (threadId: string) => string]> = [
    ["thread create", (id) => `/threads/${id}/runs`],
    ["thread stream", (id) => `/threads/${id}/runs/stream`],
    ["thread wait", (id) => `/threads/${id}/runs/wait`],
    ["stateless create", () => "/runs"],
    ["stateless stream", () => "/runs/stream"],
    ["stateless wait", () => "/runs/wait"],
  ];
  const cases = commandCases.flatMap(([name, command, detail]) =>
    routes.map(([route, pathOf]) => [`${route}: ${name}`, pathOf, command, detail] as const),
  );

  /** Everything a refused request could have touched. */
  async function snapshot() {
    return {
      threads: await server.client.threads.count(),
      runs: await server.client.runs.list(threadId),
      thread: await server.client.threads.get(threadId),
      state: await server.client.threads.getState(threadId),
    };
  }

  it.each(cases)("%s", async (_name, pathOf, command, detail) => {
    const before = await snapshot();
    // An input beside it changes nothing: the command wins, and a bad one is refused.
    const response = await post(pathOf(threadId), { assistant_id: "commands", input: { log: ["x"] }, command });
    expect(response.status).toBe(422);
    const body = (await response.json()) as { detail: string };
    expect(Object.keys(body)).toEqual(["detail"]);
    expect(body.detail).toMatch(detail);
    expect(await snapshot()).toEqual(before);
  });

  it("a batch with one bad command queues none of its runs", async () => {
    const before = await snapshot();
    const good = { assistant_id: "commands", command: { update: { log: ["u"] }, goto: "note" }, on_completion: "keep" };
    const response = await post("/runs/batch", [good, { ...good, command: { goto: { node: "nope", input: {} } } }]);
    expect(response.status).toBe(422);
    expect(((await response.json()) as { detail: string }).detail).toMatch(/^command\.goto names the unknown node 'nope'/);
    expect(await snapshot()).toEqual(before);
  });

  it("GraphQL answers INVALID_INPUT with the same message", async () => {
    const before = await snapshot();
    for (const [command, detail] of [
      [{ goto: "nope" }, /unknown node 'nope'/],
      [{ resume: null }, /^command is empty/],
    ] as const) {
      const result = await executeOperation(server, CreateRunDocument, { input: { threadId, assistantId: "commands", command } });
      expect(result.errors?.[0]?.extensions?.code).toBe("INVALID_INPUT");
      expect(result.errors?.[0]?.message).toMatch(detail);
    }
    expect(await snapshot()).toEqual(before);
  });
});
