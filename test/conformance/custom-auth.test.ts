import path from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { makeCronsDue } from "../helpers/sql.js";
import { FIXTURE_DEPLOYMENT, startTestServer, type TestServer } from "../helpers/test-server.js";
import { EXAMPLE_JWT_SECRET, signUserToken } from "../helpers/user-tokens.js";

// The README's JWT example deployment (examples/auth/auth.ts) over the fixture graphs: two users
// through the official SDK client, each owning what they create.
const AUTH_DEPLOYMENT = path.resolve(path.dirname(FIXTURE_DEPLOYMENT), "auth.langgraph.json");

let server: TestServer;
let alice: Client;
let bob: Client;

beforeAll(async () => {
  server = await startTestServer({ configPath: AUTH_DEPLOYMENT });
  await server.hangar.scheduler!.ready;
  alice = await userClient("alice");
  bob = await userClient("bob");
});
afterAll(async () => {
  await server?.close();
});

async function userClient(user: string): Promise<Client> {
  const token = await signUserToken(user);
  return new Client({ apiUrl: server.url, defaultHeaders: { authorization: `Bearer ${token}` }, callerOptions: { maxRetries: 0 } });
}

const human = (content: string) => ({ messages: [{ role: "user", content }] });
const notFound = { status: 404 };

describe("authenticate", () => {
  it("answers the handler's 401 (its message, its headers) to a missing, malformed or forged token and creates nothing", async () => {
    const before = await alice.threads.count();
    const valid = await signUserToken("alice");
    const refused = [
      undefined,
      "Basic abc",
      "Bearer not-a-jwt",
      `Bearer ${await signUserToken("alice", "another-secret-0123456789abcdef0123")}`,
      // Strict parsing: exactly the scheme, one space and the token.
      valid,
      `Bearer ${valid} junk`,
      `Bearer ${valid},Bearer other`,
      `Bearer  ${valid}`,
      `Bearer ${valid}.extra`,
      // `exp` required, and checked.
      `Bearer ${await new SignJWT({ scopes: [] }).setProtectedHeader({ alg: "HS256" }).setSubject("alice").sign(new TextEncoder().encode(EXAMPLE_JWT_SECRET))}`,
      `Bearer ${await new SignJWT({ scopes: [] }).setProtectedHeader({ alg: "HS256" }).setSubject("alice").setExpirationTime("-1m").sign(new TextEncoder().encode(EXAMPLE_JWT_SECRET))}`,
    ];
    for (const authorization of refused) {
      const response = await fetch(`${server.url}/threads`, {
        method: "POST",
        headers: { "content-type": "application/json", ...(authorization ? { authorization } : {}) },
        body: JSON.stringify({ metadata: { owner: "mallory" } }),
      });
      expect({ authorization, status: response.status }).toEqual({ authorization, status: 401 });
      expect(response.headers.get("www-authenticate")).toBe("Bearer");
      expect(await response.text()).toMatch(/token/);
    }
    expect(await alice.threads.count()).toBe(before);
  });

  it("keeps /ok and /info open and reports the auth kind", async () => {
    expect((await fetch(`${server.url}/ok`)).status).toBe(200);
    const info = (await (await fetch(`${server.url}/info`)).json()) as { hangar: { auth: string } };
    expect(info.hangar.auth).toBe("custom");
  });
});

describe("threads and runs are their creator's", () => {
  it("stamps the owner on create and hides the thread from another user everywhere", async () => {
    const thread = await alice.threads.create({ metadata: { topic: "secret", owner: "bob" } });
    expect(thread.metadata).toEqual({ topic: "secret", owner: "alice" });
    const id = thread.thread_id;

    await expect(bob.threads.get(id)).rejects.toMatchObject(notFound);
    await expect(bob.threads.update(id, { metadata: { topic: "mine" } })).rejects.toMatchObject(notFound);
    await expect(bob.threads.getState(id)).rejects.toMatchObject(notFound);
    await expect(bob.threads.getHistory(id)).rejects.toMatchObject(notFound);
    await expect(bob.threads.updateState(id, { values: { messages: [] }, asNode: "echo" })).rejects.toMatchObject(notFound);
    await expect(bob.threads.copy(id)).rejects.toMatchObject({ status: 409 });
    await expect(bob.threads.delete(id)).rejects.toMatchObject(notFound);
    expect((await bob.threads.search({ metadata: { topic: "secret" } })).length).toBe(0);
    expect(await bob.threads.count({ metadata: { topic: "secret" } })).toBe(0);
    expect((await alice.threads.search({ metadata: { topic: "secret" } })).map((t) => t.thread_id)).toEqual([id]);

    const copy = await alice.threads.copy(id);
    expect(copy.metadata).toMatchObject({ owner: "alice", topic: "secret" });
    expect((await alice.threads.get(id)).metadata).toEqual({ topic: "secret", owner: "alice" });
  });

  it("refuses every run operation on another user's thread and leaves the run alone", async () => {
    const thread = await alice.threads.create();
    const id = thread.thread_id;
    const run = await alice.runs.create(id, "slow", { input: human("hi"), context: { step_ms: 200 } });

    await expect(bob.runs.create(id, "echo", { input: human("intruder") })).rejects.toMatchObject(notFound);
    await expect(bob.runs.wait(id, "echo", { input: human("intruder") })).rejects.toMatchObject(notFound);
    await expect(bob.runs.list(id)).rejects.toMatchObject(notFound);
    await expect(bob.runs.get(id, run.run_id)).rejects.toMatchObject(notFound);
    await expect(bob.runs.join(id, run.run_id)).rejects.toMatchObject(notFound);
    await expect(bob.runs.cancel(id, run.run_id)).rejects.toMatchObject(notFound);
    await expect(bob.runs.delete(id, run.run_id)).rejects.toMatchObject(notFound);
    const stream = [];
    for await (const part of bob.runs.joinStream(id, run.run_id)) stream.push(part);
    expect(stream).toMatchObject([{ event: "error", data: { message: expect.stringContaining("404") } }]);
    expect(stream).toHaveLength(1);
    // Bulk cancel (no SDK method): another user's run is not among those it reaches.
    const bulk = await fetch(`${server.url}/runs/cancel`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${await signUserToken("bob")}` },
      body: JSON.stringify({ run_ids: [run.run_id] }),
    });
    expect(bulk.status).toBeLessThan(500);

    await alice.runs.join(id, run.run_id);
    expect((await alice.runs.get(id, run.run_id)).status).toBe("success");
    expect((await alice.runs.list(id)).map((r) => r.run_id)).toEqual([run.run_id]);
  });

  it("runs as the user who created it, whatever the request claims", async () => {
    const thread = await alice.threads.create();
    const values = await alice.runs.wait(thread.thread_id, "whoami", {
      input: {},
      config: { configurable: { langgraph_auth_user_id: "bob" } },
    });
    expect(values).toMatchObject({ users: ["alice"] });
    // A stateless run's temporary thread is its creator's too.
    expect(await bob.runs.wait(null, "whoami", { input: {} })).toMatchObject({ users: ["bob"] });
  });

  it("a run that creates its thread (if_not_exists) stamps it with the owner", async () => {
    const threadId = crypto.randomUUID();
    await alice.runs.wait(threadId, "echo", { input: human("new"), ifNotExists: "create" });
    expect((await alice.threads.get(threadId)).metadata).toMatchObject({ owner: "alice" });
    await expect(bob.threads.get(threadId)).rejects.toMatchObject(notFound);
  });
});

describe("assistants and crons are their creator's", () => {
  it("lets everyone read and run an assistant, and only its creator change or delete it", async () => {
    const assistant = await alice.assistants.create({ graphId: "echo", name: "alice's" });
    expect(assistant.metadata).toMatchObject({ owner: "alice" });
    const id = assistant.assistant_id;
    expect((await bob.assistants.get(id)).name).toBe("alice's");
    expect((await bob.assistants.search({ graphId: "echo" })).map((a) => a.assistant_id)).toContain(id);
    expect((await bob.assistants.get("echo")).metadata).toMatchObject({ created_by: "system" });
    await expect(bob.assistants.setLatest(id, 1)).rejects.toMatchObject(notFound);
    await expect(bob.assistants.update(id, { name: "bob's" })).rejects.toMatchObject(notFound);
    await expect(bob.assistants.delete(id)).rejects.toMatchObject(notFound);
    const bobThread = await bob.threads.create();
    expect(await bob.runs.wait(bobThread.thread_id, id, { input: human("borrowed") })).toMatchObject({
      messages: [{ content: "borrowed" }, { content: "echo: borrowed" }],
    });
    expect((await alice.assistants.update(id, { name: "still alice's" })).name).toBe("still alice's");
  });

  it("hides another user's cron, refuses crons on their threads, and fires a cron as its creator", async () => {
    const thread = await alice.threads.create();
    const cron = await alice.crons.createForThread(thread.thread_id, "whoami", { schedule: "0 0 1 1 *", input: {} });
    await expect(bob.crons.createForThread(thread.thread_id, "whoami", { schedule: "0 0 1 1 *", input: {} })).rejects.toMatchObject(
      notFound,
    );
    expect((await bob.crons.search({ threadId: thread.thread_id })).length).toBe(0);
    await expect(bob.crons.update(cron.cron_id, { enabled: false })).rejects.toMatchObject(notFound);
    await expect(bob.crons.delete(cron.cron_id)).rejects.toMatchObject(notFound);
    expect((await alice.crons.search({ threadId: thread.thread_id })).map((c) => c.cron_id)).toEqual([cron.cron_id]);

    await makeCronsDue(server.database, [cron.cron_id]);
    await vi.waitFor(async () => expect((await alice.runs.list(thread.thread_id))[0]?.status).toBe("success"), {
      timeout: 15_000,
      interval: 100,
    });
    expect((await alice.threads.getState(thread.thread_id)).values).toMatchObject({ users: ["alice"] });
  });
});

describe("the store is per user", () => {
  /** Everything `user` can see of the store through every read route. */
  async function everythingSeenBy(user: Client, namespaces: string[][]) {
    const seen: unknown[] = [];
    for (const namespace of namespaces) {
      seen.push((await user.store.getItem(namespace, "n1"))?.value ?? null);
      seen.push(...(await user.store.searchItems(namespace, { limit: 100 })).items.map((item) => item.value));
      seen.push(...(await user.store.searchItems(namespace, { filter: { text: "alice's note" } })).items.map((item) => item.value));
      seen.push(...(await user.store.listNamespaces({ prefix: namespace })).namespaces);
    }
    seen.push(...(await user.store.searchItems([], { limit: 100 })).items.map((item) => item.value));
    seen.push(...(await user.store.listNamespaces()).namespaces);
    return JSON.stringify(seen);
  }

  it("prefixes every namespace with the caller's id: another user's items are out of reach through every route", async () => {
    // The case: alice writes under ["alice", "bob"], which the old `$contains` rule showed to bob.
    await alice.store.putItem(["alice", "bob"], "n1", { text: "alice's note" });
    await alice.store.putItem(["notes"], "n1", { text: "alice's note" });
    // Stored under her id: ["notes"] is ["alice", "notes"]; a namespace already starting with it stays.
    expect((await alice.store.listNamespaces()).namespaces).toEqual([["alice", "bob"], ["alice", "notes"]]);
    expect((await alice.store.getItem(["notes"], "n1"))?.value).toEqual({ text: "alice's note" });
    const found = (await alice.store.searchItems(["notes"])).items;
    expect(found.map((item) => item.namespace)).toEqual([["alice", "notes"]]);
    // What a search answers can be sent back as it is.
    expect((await alice.store.getItem(found[0]!.namespace, "n1"))?.value).toEqual({ text: "alice's note" });

    // Bob names alice's namespaces every way he can: he only ever reaches his own.
    const aliceNamespaces = [["alice", "bob"], ["alice", "notes"], ["alice"], ["notes"], ["bob"], ["*", "notes"]];
    expect(await everythingSeenBy(bob, aliceNamespaces)).not.toContain("alice's note");
    expect(await everythingSeenBy(bob, aliceNamespaces)).not.toContain('"alice"');
    // His writes and deletes under those names land in his own space and leave hers alone.
    await bob.store.putItem(["alice", "notes"], "n1", { text: "bob's note" });
    await bob.store.deleteItem(["alice", "notes"], "n1");
    await bob.store.deleteItem(["alice", "bob"], "n1");
    await bob.store.putItem(["alice", "bob"], "n1", { text: "bob's note" });
    expect((await bob.store.listNamespaces()).namespaces).toEqual([["bob", "alice", "bob"]]);
    expect((await bob.store.getItem(["alice", "bob"], "n1"))?.value).toEqual({ text: "bob's note" });
    expect((await alice.store.getItem(["alice", "notes"], "n1"))?.value).toEqual({ text: "alice's note" });
    expect((await alice.store.getItem(["alice", "bob"], "n1"))?.value).toEqual({ text: "alice's note" });
    expect(await everythingSeenBy(alice, [["bob"], ["alice", "bob"]])).not.toContain("bob's note");
  });

  it("percent-encodes the dots of an id, which namespace labels may not contain", async () => {
    const carol = await userClient("carol.smith@example.com");
    await carol.store.putItem(["notes"], "n1", { text: "carol's" });
    expect((await carol.store.listNamespaces()).namespaces).toEqual([["carol%2Esmith@example%2Ecom", "notes"]]);
  });
});
