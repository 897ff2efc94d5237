import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { AuthHandlerParameter, AuthUser, CustomAuthHandlers } from "../../src/auth/auth-types.js";
import { createServiceContext } from "../../src/runtime.js";
import type { ServiceContext } from "../../src/services/service-context.js";
import { storeService } from "../../src/services/store.service.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

const USER: AuthUser = { identity: "a", permissions: [], display_name: "a", is_authenticated: true };

let server: TestServer;
let calls: Array<Pick<AuthHandlerParameter, "action" | "value">>;

/** A context whose deployment has a `store` handler returning `filters` for every action. */
function contextWithStoreHandler(filters: Record<string, unknown>): ServiceContext {
  const customAuth: CustomAuthHandlers = {
    callbacks: {
      store: ({ action, value }) => {
        calls.push({ action, value: structuredClone(value) });
        return filters;
      },
    },
  };
  return { ...createServiceContext(server.hangar.runtime, { kind: "user", user: USER }), customAuth };
}

function unrestricted(): ServiceContext {
  return createServiceContext(server.hangar.runtime, { kind: "anonymous" });
}

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server?.close();
});

beforeEach(async () => {
  calls = [];
  await server.hangar.runtime.db.pool.query("DELETE FROM store_items");
  const ctx = unrestricted();
  await storeService.put(ctx, { namespace: ["team", "a"], key: "mine", value: { owner: "a", text: "x" } });
  await storeService.put(ctx, { namespace: ["team", "b"], key: "theirs", value: { owner: "b" } });
  await storeService.put(ctx, { namespace: ["team", "a"], key: "shared", value: { owner: "b" } });
});

describe("store authorization: the handler's filters are applied to every action", () => {
  it("get answers null for an item outside the filter", async () => {
    const ctx = contextWithStoreHandler({ owner: "a" });
    expect(await storeService.get(ctx, { namespace: ["team", "a"], key: "mine" })).toMatchObject({ value: { owner: "a" } });
    expect(await storeService.get(ctx, { namespace: ["team", "b"], key: "theirs" })).toBeNull();
    expect(calls[0]).toEqual({ action: "get", value: { namespace: ["team", "a"], key: "mine" } });
  });

  it("search returns only matching items; the handler sees {namespace, filter, limit, offset, query}", async () => {
    const ctx = contextWithStoreHandler({ owner: "a" });
    const items = await storeService.search(ctx, { namespacePrefix: ["team"], limit: 5 });
    expect(items.map((item) => item.key)).toEqual(["mine"]);
    expect(calls[0]).toEqual({ action: "search", value: { namespace: ["team"], filter: null, limit: 5, offset: 0, query: null } });
  });

  it("namespace $contains restricts search and list_namespaces to namespaces with that label", async () => {
    const ctx = contextWithStoreHandler({ namespace: { $contains: "a" } });
    const items = await storeService.search(ctx, { namespacePrefix: ["team"], limit: 10 });
    expect(items.map((item) => item.key).sort()).toEqual(["mine", "shared"]);
    expect(await storeService.listNamespaces(ctx, { prefix: ["team"] })).toEqual([["team", "a"]]);
    expect(calls[1]).toEqual({
      action: "list_namespaces",
      value: { namespace: ["team"], suffix: [], max_depth: null, limit: 100, offset: 0 },
    });
  });

  it("list_namespaces with a value filter lists only namespaces holding matching items", async () => {
    const ctx = contextWithStoreHandler({ owner: "b" });
    expect(await storeService.listNamespaces(ctx, { prefix: ["team"] })).toEqual([["team", "a"], ["team", "b"]]);
    const onlyA = contextWithStoreHandler({ owner: "a" });
    expect(await storeService.listNamespaces(onlyA, {})).toEqual([["team", "a"]]);
  });

  it("delete does nothing to an item outside the filter", async () => {
    const ctx = contextWithStoreHandler({ owner: "a" });
    await storeService.delete(ctx, { namespace: ["team", "b"], key: "theirs" });
    expect(await storeService.get(unrestricted(), { namespace: ["team", "b"], key: "theirs" })).not.toBeNull();
    await storeService.delete(ctx, { namespace: ["team", "a"], key: "mine" });
    expect(await storeService.get(unrestricted(), { namespace: ["team", "a"], key: "mine" })).toBeNull();
    expect(calls[0]).toEqual({ action: "delete", value: { namespace: ["team", "b"], key: "theirs" } });
  });

  it("put is refused (403) for a value outside the filter, or over an item outside it; nothing changes", async () => {
    const ctx = contextWithStoreHandler({ owner: "a" });
    await expect(storeService.put(ctx, { namespace: ["team", "a"], key: "new", value: { owner: "b" } })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    expect(await storeService.get(unrestricted(), { namespace: ["team", "a"], key: "new" })).toBeNull();
    await expect(storeService.put(ctx, { namespace: ["team", "a"], key: "shared", value: { owner: "a" } })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    expect((await storeService.get(unrestricted(), { namespace: ["team", "a"], key: "shared" }))!.value).toEqual({ owner: "b" });
    await storeService.put(ctx, { namespace: ["team", "a"], key: "mine", value: { owner: "a", text: "y" } });
    expect((await storeService.get(unrestricted(), { namespace: ["team", "a"], key: "mine" }))!.value.text).toBe("y");
    expect(calls[0]).toEqual({ action: "put", value: { namespace: ["team", "a"], key: "new", value: { owner: "b" } } });
  });

  it("put with a namespace filter: only into namespaces with the label", async () => {
    const ctx = contextWithStoreHandler({ namespace: { $contains: "a" } });
    await storeService.put(ctx, { namespace: ["team", "a"], key: "ok", value: {} });
    await expect(storeService.put(ctx, { namespace: ["team", "b"], key: "no", value: {} })).rejects.toMatchObject({ code: "FORBIDDEN" });
  });

  it("a handler may rewrite the request (e.g. scope the namespace to the user)", async () => {
    const customAuth: CustomAuthHandlers = {
      callbacks: {
        "store:put": ({ value, user }) => {
          value.namespace = [user.identity, ...(value.namespace as string[])];
        },
      },
    };
    const ctx = { ...createServiceContext(server.hangar.runtime, { kind: "user", user: USER }), customAuth };
    await storeService.put(ctx, { namespace: ["notes"], key: "n", value: { v: 1 } });
    expect(await storeService.get(unrestricted(), { namespace: ["a", "notes"], key: "n" })).toMatchObject({ value: { v: 1 } });
  });
});
