import { randomUUID } from "node:crypto";
import { Role, TaskState, type Message, type SendMessageRequest, type StreamResponse, type Task } from "@a2a-js/sdk";
import { Client, ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory } from "@a2a-js/sdk/client";
import { LegacyJsonRpcTransport } from "@a2a-js/sdk/compat/v0_3/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemAssistantId } from "../../src/domain/ids.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

// The official A2A JS client against /a2a/{assistant_id} of the fixture deployment, with an API
// key: a message is a run on the thread of its contextId, a task is that run.
const API_KEY = "a2a-test-key";

let server: TestServer;
const withKey: typeof fetch = (input, init = {}) => {
  const headers = new Headers(init.headers);
  headers.set("x-api-key", API_KEY);
  return fetch(input, { ...init, headers });
};

function agentUrl(graph: string): string {
  return `${server.url}/a2a/${systemAssistantId(graph)}`;
}

async function clientFor(graph: string): Promise<Client> {
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl: withKey })],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl: withKey }),
    }),
  );
  // The trailing slash keeps the assistant id when the SDK resolves ".well-known/agent-card.json".
  return factory.createFromUrl(`${agentUrl(graph)}/`);
}

function userMessage(text: string, contextId = ""): Message {
  return {
    messageId: randomUUID(),
    contextId,
    taskId: "",
    role: Role.ROLE_USER,
    parts: [{ content: { $case: "text", value: text }, metadata: undefined, filename: "", mediaType: "text/plain" }],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

function send(message: Message, configuration?: Partial<NonNullable<SendMessageRequest["configuration"]>>): SendMessageRequest {
  return {
    tenant: "",
    message,
    metadata: undefined,
    configuration: configuration
      ? { acceptedOutputModes: [], taskPushNotificationConfig: undefined, returnImmediately: false, ...configuration }
      : undefined,
  };
}

const textOf = (message: Message | undefined) =>
  message?.parts.map((part) => (part.content?.$case === "text" ? part.content.value : "")).join("") ?? "";

beforeAll(async () => {
  server = await startTestServer({ apiKeys: [API_KEY] });
});
afterAll(async () => {
  await server?.close();
});

describe("A2A agent", () => {
  it("serves the agent card at the well-known path the SDK client fetches", async () => {
    const client = await clientFor("agent");
    const card = await client.getAgentCard();
    expect(card.name).toBe("agent");
    expect(card.capabilities?.streaming).toBe(true);
    expect(card.supportedInterfaces[0]).toMatchObject({ url: agentUrl("agent"), protocolBinding: "JSONRPC", protocolVersion: "1.0" });
    expect(Object.keys(card.securitySchemes)).toEqual(["apiKey"]);
    // Without A2A-Version (an A2A 0.3 client) the same card comes in 0.3's shape.
    const legacy = await (await withKey(`${agentUrl("agent")}/.well-known/agent-card.json`)).json();
    expect(legacy).toMatchObject({ protocolVersion: "0.3.0", url: agentUrl("agent"), preferredTransport: "JSONRPC", name: "agent" });
    // A graph name stands for its system assistant, as everywhere; the card names the assistant's URL.
    const byGraph = await (await withKey(`${server.url}/a2a/agent/.well-known/agent-card.json`)).json();
    expect(byGraph.url).toBe(agentUrl("agent"));
    // The 0.2 clients' path serves it too.
    expect((await (await withKey(`${agentUrl("agent")}/.well-known/agent.json`)).json()).name).toBe("agent");
  });

  it("sends a message: a run on the context's thread whose last AI message is the reply; the next message continues the thread", async () => {
    const client = await clientFor("agent");
    const contextId = randomUUID();
    const first = (await client.sendMessage(send(userMessage("first question", contextId)))) as Task;
    expect(first.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(first.contextId).toBe(contextId);
    expect(textOf(first.status?.message)).toMatch(/first question/);
    expect(first.artifacts[0]?.name).toBe("output");

    // The task is an ordinary run on the thread named by the contextId.
    const run = await server.client.runs.get(contextId, first.id);
    expect(run).toMatchObject({ run_id: first.id, status: "success", assistant_id: systemAssistantId("agent") });

    const second = (await client.sendMessage(send(userMessage("second question", contextId)))) as Task;
    expect(second.id).not.toBe(first.id);
    const state = await server.client.threads.getState<{ messages: Array<{ type: string; content: string }> }>(contextId);
    expect(state.values.messages.filter((message) => message.type === "human").map((message) => message.content)).toEqual([
      "first question",
      "second question",
    ]);

    const fetched = await client.getTask({ tenant: "", id: first.id });
    expect(fetched.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(textOf(fetched.status?.message)).toBe(textOf(first.status?.message));
    expect(fetched.history.map((message) => message.role)).toEqual([Role.ROLE_USER, Role.ROLE_AGENT]);
  });

  it("streams a message: the task, working (and each step), the output artifact, then completed with the reply", async () => {
    const client = await clientFor("slow");
    const events: StreamResponse[] = [];
    for await (const event of client.sendMessageStream(send(userMessage("stream me")))) events.push(event);
    const kinds = events.map((event) => event.payload?.$case);
    expect(kinds).toEqual(["task", "statusUpdate", "statusUpdate", "statusUpdate", "statusUpdate", "artifactUpdate", "statusUpdate"]);
    const statuses = events.flatMap((event) => (event.payload?.$case === "statusUpdate" ? [event.payload.value.status] : []));
    expect(statuses.map((status) => status?.state)).toEqual([
      ...Array(4).fill(TaskState.TASK_STATE_WORKING),
      TaskState.TASK_STATE_COMPLETED,
    ]);
    expect(statuses.map((status) => textOf(status?.message))).toEqual(["", "step 1: first", "step 2: second", "step 3: third", "third done"]);
  });

  it("maps text and data parts, in order, to one user message", async () => {
    const client = await clientFor("echo");
    const message = userMessage("look:");
    message.parts.push({ content: { $case: "data", value: { city: "Oslo", days: 3 } }, metadata: undefined, filename: "", mediaType: "application/json" });
    const task = (await client.sendMessage(send(message))) as Task;
    expect(textOf(task.status?.message)).toBe('echo: look:\n{"city":"Oslo","days":3}');
  });

  it("resubscribes to a running task and follows it to its end", async () => {
    const client = await clientFor("slow");
    const task = (await client.sendMessage(send(userMessage("later"), { returnImmediately: true }))) as Task;
    const events: StreamResponse[] = [];
    for await (const event of client.resubscribeTask({ tenant: "", id: task.id })) events.push(event);
    expect(events[0]?.payload?.$case).toBe("task");
    const last = events.at(-1)!.payload!;
    expect(last.$case === "statusUpdate" && last.value.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(last.$case === "statusUpdate" && textOf(last.value.status?.message)).toBe("third done");
  });

  it("cancels a running task: its run is interrupted", async () => {
    const client = await clientFor("slow");
    const task = (await client.sendMessage(send(userMessage("take your time"), { returnImmediately: true }))) as Task;
    expect([TaskState.TASK_STATE_SUBMITTED, TaskState.TASK_STATE_WORKING]).toContain(task.status?.state);
    const cancelled = await client.cancelTask({ tenant: "", id: task.id, metadata: undefined });
    expect(cancelled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect((await server.client.runs.get(task.contextId, task.id)).status).toBe("interrupted");
    await expect(client.cancelTask({ tenant: "", id: task.id, metadata: undefined })).rejects.toThrow(/already ended/);
    await expect(client.getTask({ tenant: "", id: randomUUID() })).rejects.toThrow(/not found/);
  });

  it("speaks A2A 0.3 too (message/send, message/stream, tasks/get, tasks/cancel) with the SDK's 0.3 transport", async () => {
    const card = await (await clientFor("echo")).getAgentCard();
    const client = new Client(new LegacyJsonRpcTransport({ endpoint: agentUrl("echo"), fetchImpl: withKey }), card);
    // A contextId that is no UUID names a thread of its own, the same one each time.
    const task = (await client.sendMessage(send(userMessage("old dialect", "chat-1")))) as Task;
    expect(textOf(task.status?.message)).toBe("echo: old dialect");
    expect(task.contextId).toBe("chat-1");
    const again = (await client.sendMessage(send(userMessage("again", "chat-1")))) as Task;
    expect(again.metadata?.thread_id).toBe(task.metadata?.thread_id);
    const state = await server.client.threads.getState<{ messages: Array<{ content: string }> }>(task.metadata?.thread_id as string);
    expect(state.values.messages.map((message) => message.content)).toEqual(["old dialect", "echo: old dialect", "again", "echo: again"]);
    expect((await client.getTask({ tenant: "", id: task.id })).status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const streamed: StreamResponse[] = [];
    for await (const event of client.sendMessageStream(send(userMessage("old stream")))) streamed.push(event);
    expect(streamed.at(-1)?.payload?.$case).toBe("statusUpdate");
    await expect(client.cancelTask({ tenant: "", id: task.id, metadata: undefined })).rejects.toThrow(/already ended/);
  });

  it("refuses a caller without the API key (401) before anything runs", async () => {
    const response = await fetch(agentUrl("echo"), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "message/send", params: {} }),
    });
    expect(response.status).toBe(401);
    expect((await fetch(`${agentUrl("echo")}/.well-known/agent-card.json`)).status).toBe(401);
  });
});
