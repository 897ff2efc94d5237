import { Hono } from "hono";
import type { StoreItem } from "../../domain/store.js";
import type { HttpEnv } from "../../http/http-env.js";
import type { HangarRuntime } from "../../runtime.js";
import { storeService } from "../../services/store.service.js";
import { StoreDeleteItem, StoreGetItem, StoreListNamespaces, StorePutItem, StoreSearchItems } from "../schemas/store.js";
import { createRouteKit } from "./route-kit.js";

/** /store: the long-term memory graphs share, as LangGraph Platform serves it. */
export function storeRoutes(runtime: HangarRuntime): Hono<HttpEnv> {
  const { serviceContext: ctx, body, query } = createRouteKit(runtime);
  const routes = new Hono<HttpEnv>();

  // Put Item
  routes.put("/items", async (c) => {
    await storeService.put(ctx(c), await body(c, StorePutItem));
    return c.body(null, 204);
  });

  // Get Item (a missing item is a JSON null, which the SDK returns as null)
  routes.get("/items", async (c) => {
    const request = query(c, StoreGetItem);
    const item = await storeService.get(ctx(c), { ...request, refreshTtl: request.refresh_ttl });
    return c.json(item ? storeItemToWire(item) : null);
  });

  // Delete Item
  routes.delete("/items", async (c) => {
    await storeService.delete(ctx(c), await body(c, StoreDeleteItem));
    return c.body(null, 204);
  });

  // Search Items
  routes.post("/items/search", async (c) => {
    const request = await body(c, StoreSearchItems);
    const items = await storeService.search(ctx(c), {
      ...request,
      namespacePrefix: request.namespace_prefix,
      refreshTtl: request.refresh_ttl,
    });
    return c.json({ items: items.map(storeItemToWire) });
  });

  // List Namespaces
  routes.post("/namespaces", async (c) => {
    const request = await body(c, StoreListNamespaces);
    return c.json({ namespaces: await storeService.listNamespaces(ctx(c), { ...request, maxDepth: request.max_depth }) });
  });

  return routes;
}

function storeItemToWire(item: StoreItem) {
  return {
    namespace: item.namespace,
    key: item.key,
    value: item.value,
    created_at: item.createdAt.toISOString(),
    updated_at: item.updatedAt.toISOString(),
    ...(item.score !== undefined ? { score: item.score } : {}),
  };
}
