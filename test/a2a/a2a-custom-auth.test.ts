import path from "node:path";
import { randomUUID } from "node:crypto";
import { Role, TaskState, type Message, type Task } from "@a2a-js/sdk";
import { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory, type Client } from "@a2a-js/sdk/client";
import { Client as LangGraphClient } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemAssistantId } from "../../src/domain/ids.js";
import { FIXTURE_DEPLOYMENT, startTestServer, type TestServer } from "../helpers/test-server.js";
import { signUserToken } from "../helpers/user-tokens.js";

// /a2a under the README's JWT deployment (examples/auth/auth.ts): runs act for the caller, and a
// user's conversations (threads) and tasks (runs) are theirs alone, as over REST.
const AUTH_DEPLOYMENT = path.resolve(path.dirname(FIXTURE_DEPLOYMENT), "auth.langgraph.json");

let server: TestServer;

async function clientFor(user: string, graph: string): Promise<Client> {
  const token = await signUserToken(user);
  const fetchImpl: typeof fetch = (input, init = {}) => {
    const headers = new Headers(init.headers);
    headers.set("authorization", `Bearer ${token}`);
    return fetch(input, { ...init, headers });
  };
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl })],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
    }),
  );
  return factory.createFromUrl(`${server.url}/a2a/${systemAssistantId(graph)}/`);
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
    const aliceRest = new LangGraphClient({ apiUrl: server.url, defaultHeaders: { authorization: `Bearer ${await signUserToken("alice")}` } });
    expect((await aliceRest.threads.get(contextId)).metadata).toMatchObject({ owner: "alice" });

    const bob = await clientFor("bob", "whoami");
    await expect(bob.getTask({ tenant: "", id: task.id })).rejects.toThrow(/not found/);
    await expect(bob.cancelTask({ tenant: "", id: task.id, metadata: undefined })).rejects.toThrow(/not found/);
    await expect(bob.sendMessage(send(userMessage("let me in", contextId)))).rejects.toThrow(/cannot see/);
    expect((await alice.getTask({ tenant: "", id: task.id })).id).toBe(task.id);
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
