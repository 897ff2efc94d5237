import path from "node:path";
import { randomUUID } from "node:crypto";
import { Role, TaskState, type Message, type Task } from "@a2a-js/sdk";
import { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory, type Client } from "@a2a-js/sdk/client";
import { Client as LangGraphClient } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemAssistantId, threadIdForContext } from "../../src/domain/ids.js";
import { FIXTURE_DEPLOYMENT, startTestServer, type TestServer } from "../helpers/test-server.js";
import { signUserToken } from "../helpers/user-tokens.js";

// /a2a under the README's JWT deployment (examples/auth/auth.ts): runs act for the caller, and a
// user's conversations (threads) and tasks (runs) are theirs alone, as over REST.
const AUTH_DEPLOYMENT = path.resolve(path.dirname(FIXTURE_DEPLOYMENT), "auth.langgraph.json");

let server: TestServer;

/** The thread of a user's context, derived as the server does (with its secret, read from its database). */
async function contextThread(contextId: string, user: string, on: TestServer = server): Promise<string> {
  return threadIdForContext(await on.hangar.runtime.db.serverSecret("a2a-context-ids"), contextId, user);
}

function withToken(token: string): typeof fetch {
  return (input, init = {}) => {
    const headers = new Headers(init.headers);
    headers.set("authorization", `Bearer ${token}`);
    return fetch(input, { ...init, headers });
  };
}

async function clientFor(user: string, graph: string, on: TestServer = server): Promise<Client> {
  const fetchImpl = withToken(await signUserToken(user));
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl })],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
    }),
  );
  return factory.createFromUrl(`${on.url}/a2a/${systemAssistantId(graph)}/`);
}

function userMessage(text: string, contextId: string): Message {
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

function restClientFor(user: string, on: TestServer = server): Promise<LangGraphClient> {
  return signUserToken(user).then((token) => new LangGraphClient({ apiUrl: on.url, defaultHeaders: { authorization: `Bearer ${token}` } }));
}

/** The reply's text (the whoami graph answers the users it saw, as JSON). */
function textOf(task: Task): string {
  const content = task.status?.message?.parts[0]?.content;
  return content?.$case === "text" ? content.value : "";
}

const send = (message: Message) => ({ tenant: "", message, configuration: undefined, metadata: undefined });

beforeAll(async () => {
  server = await startTestServer({ configPath: AUTH_DEPLOYMENT });
});
afterAll(async () => {
  await server?.close();
});

describe("A2A with custom auth", () => {
  it("runs as the caller on a thread only the caller sees; another user can neither read the task nor join the context", async () => {
    const alice = await clientFor("alice", "whoami");
    const card = await alice.getAgentCard();
    expect(Object.keys(card.securitySchemes)).toEqual(["bearer"]);
    const contextId = randomUUID();
    const task = (await alice.sendMessage(send(userMessage("who am I?", contextId)))) as Task;
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const reply = task.status?.message?.parts[0]?.content;
    expect(reply?.$case === "text" && JSON.parse(reply.value)).toEqual({ users: ["alice"] });

    // Alice's thread, stamped with her as owner, as REST shows it.
    const aliceRest = await restClientFor("alice");
    const aliceThreadId = await contextThread(contextId, "alice");
    expect((await aliceRest.runs.get(aliceThreadId, task.id)).metadata).toMatchObject({ a2a_context_id: contextId });
    expect((await aliceRest.threads.get(aliceThreadId)).metadata).toMatchObject({ owner: "alice" });

    const bob = await clientFor("bob", "whoami");
    await expect(bob.getTask({ tenant: "", id: task.id })).rejects.toThrow(/not found/);
    await expect(bob.cancelTask({ tenant: "", id: task.id, metadata: undefined })).rejects.toThrow(/not found/);
    // Her contextId names a conversation of bob's own: a new thread, hers untouched.
    const bobsTask = (await bob.sendMessage(send(userMessage("let me in", contextId)))) as Task;
    expect(bobsTask.contextId).toBe(contextId);
    expect(JSON.parse(textOf(bobsTask))).toEqual({ users: ["bob"] });
    expect(await aliceRest.runs.list(aliceThreadId)).toHaveLength(1);
    expect((await alice.getTask({ tenant: "", id: task.id })).id).toBe(task.id);
  });

  it("keeps context names per caller: bob's \"support-chat\" neither blocks alice's nor tells her it exists", async () => {
    const bob = await clientFor("bob", "whoami");
    const alice = await clientFor("alice", "whoami");
    const bobFirst = (await bob.sendMessage(send(userMessage("bob's first", "support-chat")))) as Task;
    expect(bobFirst.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);

    // Alice's first message on the same name starts her own conversation, as on a fresh name.
    const aliceFirst = (await alice.sendMessage(send(userMessage("alice's first", "support-chat")))) as Task;
    const aliceFresh = (await alice.sendMessage(send(userMessage("alice's first", `fresh-${randomUUID()}`)))) as Task;
    expect(aliceFirst.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(textOf(aliceFirst)).toBe(textOf(aliceFresh));
    expect(aliceFirst.history.map((message) => message.role)).toEqual(aliceFresh.history.map((message) => message.role));

    // Each name keeps its conversation: the second message of each user continues their own thread.
    await bob.sendMessage(send(userMessage("bob's second", "support-chat")));
    await alice.sendMessage(send(userMessage("alice's second", "support-chat")));
    const aliceRest = await restClientFor("alice");
    const bobRest = await restClientFor("bob");
    const aliceThread = (await aliceRest.runs.get(await contextThread("support-chat", "alice"), aliceFirst.id)).thread_id;
    const bobThread = (await bobRest.runs.get(await contextThread("support-chat", "bob"), bobFirst.id)).thread_id;
    expect(aliceThread).not.toBe(bobThread);
    expect(await aliceRest.runs.list(aliceThread)).toHaveLength(2);
    expect(await bobRest.runs.list(bobThread)).toHaveLength(2);
    await expect(aliceRest.threads.get(bobThread)).rejects.toMatchObject({ status: 404 });
    await expect(bobRest.threads.get(aliceThread)).rejects.toMatchObject({ status: 404 });
  });

  it("derives context threads with a secret of the database: the same in every process, unknown to callers", async () => {
    const contextId = `squat-${randomUUID()}`;
    const alice = await clientFor("alice", "whoami");
    const first = (await alice.sendMessage(send(userMessage("first", contextId)))) as Task;
    const threadId = await contextThread(contextId, "alice");
    const aliceRest = await restClientFor("alice");
    expect((await aliceRest.runs.get(threadId, first.id)).thread_id).toBe(threadId);

    // A second process on the same database (a restart, or another replica) continues her thread.
    const second = await startTestServer({ configPath: AUTH_DEPLOYMENT, database: server.database });
    try {
      expect(await contextThread(contextId, "alice", second)).toBe(threadId);
      const aliceOnSecond = await clientFor("alice", "whoami", second);
      await aliceOnSecond.sendMessage(send(userMessage("second", contextId)));
      expect(await (await restClientFor("alice", second)).runs.list(threadId)).toHaveLength(2);
    } finally {
      await second.close();
    }

    // Without the secret, the thread cannot be computed (so not created first by someone else):
    // the same caller and name under another key is another thread.
    expect(threadIdForContext(Buffer.alloc(32), contextId, "alice")).not.toBe(threadId);
    expect(threadIdForContext(Buffer.alloc(32), contextId, "alice")).not.toBe(threadIdForContext(Buffer.alloc(32), contextId, "bob"));
  });

  it("answers the handler's 401 without a token, for the card and for JSON-RPC", async () => {
    const url = `${server.url}/a2a/${systemAssistantId("echo")}`;
    expect((await fetch(`${url}/.well-known/agent-card.json`)).status).toBe(401);
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "message/send", params: {} }),
    });
    expect(response.status).toBe(401);
    expect(await response.text()).toMatch(/token/);
  });
});
