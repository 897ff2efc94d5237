import { Hono } from "hono";
import type { HttpEnv } from "../../http/http-env.js";
import type { HangarRuntime } from "../../runtime.js";
import type { GraphSchemas } from "../../graphs/graph-registry.js";
import { assistantsService } from "../../services/assistants.service.js";
import {
  AssistantCountRequest,
  AssistantCreate,
  AssistantDeleteQuery,
  AssistantGraphQuery,
  AssistantLatestVersion,
  AssistantPatch,
  AssistantSearchRequest,
  AssistantSubgraphsQuery,
  AssistantVersionsSearchRequest,
} from "../schemas/assistants.js";
import {
  assistantFilterFromWire,
  assistantToWire,
  assistantVersionToWire,
  createAssistantFromWire,
  searchAssistantsFromWire,
  selectFields,
  updateAssistantFromWire,
} from "../wire.js";
import { createRouteKit, takePage } from "./route-kit.js";

/** /assistants: CRUD, versions, search and graph introspection. `:id` is a UUID or a graph name. */
export function assistantRoutes(runtime: HangarRuntime): Hono<HttpEnv> {
  const { serviceContext: ctx, body, query } = createRouteKit(runtime);
  const routes = new Hono<HttpEnv>();

  // Create Assistant
  routes.post("/", async (c) => {
    const input = createAssistantFromWire(await body(c, AssistantCreate));
    return c.json(assistantToWire(await assistantsService.create(ctx(c), input)));
  });

  // Search Assistants
  routes.post("/search", async (c) => {
    const request = await body(c, AssistantSearchRequest);
    const input = searchAssistantsFromWire(request);
    const rows = await assistantsService.search(ctx(c), { ...input, limit: input.limit + 1 });
    return c.json(takePage(c, rows, input).map((row) => selectFields(assistantToWire(row), request.select)));
  });

  // Count Assistants
  routes.post("/count", async (c) => {
    const filter = assistantFilterFromWire(await body(c, AssistantCountRequest));
    return c.json(await assistantsService.count(ctx(c), filter));
  });

  // Get Assistant
  routes.get("/:assistant_id", async (c) => {
    return c.json(assistantToWire(await assistantsService.get(ctx(c), c.req.param("assistant_id"))));
  });

  // Patch Assistant
  routes.patch("/:assistant_id", async (c) => {
    const input = updateAssistantFromWire(await body(c, AssistantPatch));
    return c.json(assistantToWire(await assistantsService.update(ctx(c), c.req.param("assistant_id"), input)));
  });

  // Delete Assistant
  routes.delete("/:assistant_id", async (c) => {
    const { delete_threads: deleteThreads } = query(c, AssistantDeleteQuery);
    await assistantsService.delete(ctx(c), c.req.param("assistant_id"), { deleteThreads });
    return c.body(null, 204);
  });

  // Get Assistant Versions
  routes.post("/:assistant_id/versions", async (c) => {
    const request = await body(c, AssistantVersionsSearchRequest);
    const versions = await assistantsService.listVersions(ctx(c), c.req.param("assistant_id"), request);
    return c.json(versions.map(assistantVersionToWire));
  });

  // Set Latest Assistant Version
  routes.post("/:assistant_id/latest", async (c) => {
    const { version } = await body(c, AssistantLatestVersion);
    const assistant = await assistantsService.setActiveVersion(ctx(c), c.req.param("assistant_id"), version);
    return c.json(assistantToWire(assistant));
  });

  // Get Assistant Graph
  routes.get("/:assistant_id/graph", async (c) => {
    const { xray } = query(c, AssistantGraphQuery);
    return c.json(await assistantsService.getGraphDrawing(ctx(c), c.req.param("assistant_id"), { xray }));
  });

  // Get Assistant Schemas
  routes.get("/:assistant_id/schemas", async (c) => {
    return c.json(await assistantsService.getSchemas(ctx(c), c.req.param("assistant_id")));
  });

  // Get Assistant Subgraphs (all, or those under one namespace)
  routes.get("/:assistant_id/subgraphs/:namespace?", async (c) => {
    const { recurse } = query(c, AssistantSubgraphsQuery);
    const namespace = c.req.param("namespace");
    const subgraphs = await assistantsService.getSubgraphs(ctx(c), c.req.param("assistant_id"), { namespace, recurse });
    return c.json(Object.fromEntries(Object.entries(subgraphs).map(([name, schemas]) => [name, subgraphSchemasToWire(schemas)])));
  });

  return routes;
}

/**
 * The SDK types each namespace as a GraphSchema (`state_schema`, …, as LangGraph Platform
 * answers); LangGraph's JS server answers `state`, `input`, `output`, `config`. Both key forms
 * are sent so that clients of either work.
 */
function subgraphSchemasToWire(schemas: GraphSchemas) {
  return {
    ...schemas,
    input: schemas.input_schema,
    output: schemas.output_schema,
    state: schemas.state_schema,
    config: schemas.config_schema,
    context: schemas.context_schema,
  };
}
