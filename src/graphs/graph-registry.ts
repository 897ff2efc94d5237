import { applyDeploymentEnv, loadDeploymentConfig, type DeploymentConfig, type GraphSpec } from "./deployment-config.js";
import { readSystemAssistantDefaults, type SystemAssistantDefaults } from "./system-assistant-defaults.js";
import { drawGraph, type GraphDrawing } from "./graph-drawing.js";
import { loadGraphLibrary, type GraphLibrary } from "./graph-library.js";
import { createGraphModuleLoader, readModuleExport, type GraphModuleLoader } from "./graph-module-loader.js";
import {
  extractGraphSchemas,
  listOnlyMessageInputs,
  loadSchemaReaders,
  withMessageSchemas,
  withStaticSchemas,
  type GraphSchemas,
  type RuntimeTyped,
  type SchemaReaders,
} from "./graph-schemas.js";
import { findMessageChannels, loadMessageReducers, type MessageReducers } from "./message-schemas.js";
import type { StaticDeploymentGraph, StaticGraphSchemas } from "./static-schemas/extract-static-schemas.js";
import type { StaticSchemaCache } from "./static-schemas/static-schema-cache.js";
import { extractStaticSchemasInChild } from "./static-schemas/static-schemas-in-child.js";
import {
  describeValue,
  isCompiledGraphLike,
  isPromiseLike,
  isGraphBuilderLike,
  isGraphFactory,
  type CompiledGraphLike,
  type GraphFactory,
} from "./graph-shapes.js";

export type { CompiledGraphLike } from "./graph-shapes.js";
export type { GraphDrawing } from "./graph-drawing.js";
export type { GraphSchemas, JSONSchema } from "./graph-schemas.js";

/** The schemas of a graph, by the names GraphSchemas gives them (`state` is `state_schema`). */
export type SchemaKindName = "input" | "output" | "state" | "config" | "context";
export type { DeploymentConfig } from "./deployment-config.js";

export interface GraphRegistry {
  /** Deployed graph ids, in config order. */
  names(): string[];
  has(graphId: string): boolean;
  /** Whether the graph is built by a factory, i.e. differs with the config it is resolved with. */
  isFactory(graphId: string): boolean;
  /** The config and context of the graph's system assistant (LANGGRAPH_CONFIG). */
  systemAssistantDefaults(graphId: string): SystemAssistantDefaults;
  getDrawing(graphId: string, options?: { xray?: boolean | number }): Promise<GraphDrawing>;
  /**
   * `only`: the schemas the caller will read. Schemas that need the graph's TypeScript types
   * compiled (seconds, the first time) are only waited for when one of them is asked for.
   */
  getSchemas(graphId: string, options?: { only?: readonly SchemaKindName[] }): Promise<GraphSchemas>;
  /**
   * Computes every graph's schemas now, in the background (compiling the graphs' TypeScript
   * types in a child process, if any need them), so that getSchemas answers from the cache.
   * Resolves when they are ready; never rejects (a compilation that fails is logged once, and
   * the schemas are then served without what the types would have added).
   */
  prepareSchemas(): Promise<void>;
  /** Keyed by namespace (`child`, `child|grandchild`), like LangGraph Platform's /subgraphs. */
  getSubgraphs(graphId: string, options?: { namespace?: string; recurse?: boolean }): Promise<Record<string, GraphSchemas>>;
  /**
   * Compiled graph for execution. Factories are called again with `config` on every call;
   * other exports return the one instance built at start-up. `checkpointer` / `store`, when
   * given, are assigned onto the returned graph (LangGraph reads them at each invocation), so
   * a shared instance carries the last ones set: callers should always pass the same ones.
   */
  resolve(
    graphId: string,
    options?: { config?: Record<string, unknown>; checkpointer?: unknown; store?: unknown },
  ): Promise<CompiledGraphLike>;
  /** The LangGraph classes of the copy the graph's module uses: what Commands and Sends are built from. */
  libraryOf(graphId: string): GraphLibrary;
  /**
   * The graph's node names (`__start__` included), built with `config` when it comes from a
   * factory; null when the graph does not list them.
   */
  nodeNames(graphId: string, options?: { config?: Record<string, unknown> }): Promise<string[] | null>;
}

/** pino-shaped: structured fields first, then the message. */
export interface GraphRegistryLog {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}

/** Start-up failure of one graph: names the graph, its spec and the cause. */
export class GraphLoadError extends Error {
  readonly graphId: string;
  readonly spec: string;

  constructor(graphId: string, spec: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(`Graph "${graphId}" (${spec}) could not be loaded: ${reason}`, { cause });
    this.name = "GraphLoadError";
    this.graphId = graphId;
    this.spec = spec;
  }
}

interface LoadedGraph {
  spec: GraphSpec;
  factory: GraphFactory | null;
  /** Built at start-up; for factories, the result of calling it with DEFAULT_FACTORY_CONFIG. */
  graph: CompiledGraphLike;
  /** The schema helpers of the LangGraph copy the graph's module uses (its subgraphs' too). */
  schemaReaders: SchemaReaders;
  /** That copy's message reducers, which tell message channels. */
  messageReducers: MessageReducers;
  library: GraphLibrary;
}

interface RuntimeSchemas {
  schemas: Omit<GraphSchemas, "graph_id">;
  typed: RuntimeTyped;
  messageChannels: ReadonlySet<string>;
  listOnlyInputs: ReadonlySet<string>;
}

export interface GraphRegistryOptions {
  /** Derive schemas of Annotation-typed graphs from their TypeScript types (default true). */
  schemasFromTypes?: boolean;
  /** Keeps those schemas between starts; without one, every start compiles the types. */
  cache?: StaticSchemaCache;
}

// Factories commonly read `config.configurable.<x>`; an empty object keeps that from throwing.
const DEFAULT_FACTORY_CONFIG: Record<string, unknown> = { configurable: {} };

/**
 * Reads the deployment config, applies its env, and imports and builds every graph eagerly so
 * that a broken deployment stops start-up instead of failing its first run.
 */
export async function loadGraphRegistry(
  configPath: string,
  log: GraphRegistryLog,
  options: GraphRegistryOptions = {},
): Promise<{ registry: GraphRegistry; config: DeploymentConfig; loader: GraphModuleLoader }> {
  const config = loadDeploymentConfig(configPath);
  for (const warning of config.warnings) log.warn({ config: config.path }, warning);
  // Before any import: graph modules often read env (API keys) at import time.
  const appliedEnv = applyDeploymentEnv(config);
  if (appliedEnv.length > 0) log.info({ variables: appliedEnv }, "applied deployment env");
  const graphIds = config.graphs.map((spec) => spec.graphId);
  const { defaults, unknownGraphIds } = readSystemAssistantDefaults(process.env.LANGGRAPH_CONFIG, graphIds);
  if (unknownGraphIds.length > 0) {
    log.warn({ graphIds: unknownGraphIds }, "LANGGRAPH_CONFIG names graphs this deployment does not have; ignored");
  }

  const loader = createGraphModuleLoader(config.path);
  const graphs = new Map<string, LoadedGraph>();
  for (const spec of config.graphs) {
    const startedAt = Date.now();
    const loaded = await loadGraph(spec, loader, log);
    graphs.set(spec.graphId, loaded);
    log.info(
      { graphId: spec.graphId, spec: spec.spec, factory: loaded.factory !== null, ms: Date.now() - startedAt },
      "graph loaded",
    );
  }
  // The loader goes back to the caller so that other deployment modules (auth, http.app) are
  // imported in the same tsx namespace and share package instances with the graphs.
  const registry = createGraphRegistry(graphs, defaults, log, options);
  return { registry, config, loader };
}

async function loadGraph(spec: GraphSpec, loader: GraphModuleLoader, log: GraphRegistryLog): Promise<LoadedGraph> {
  try {
    const moduleNamespace = await loader.importModule(spec.modulePath);
    const importFromGraph = (specifier: string) => loader.importFrom(specifier, spec.modulePath);
    const schemaReaders = await loadSchemaReaders(importFromGraph, (error) =>
      log.warn({ graphId: spec.graphId, err: error }, "could not load the graph's own LangGraph schema helpers; using Hangar's"),
    );
    const messageReducers = await loadMessageReducers(importFromGraph);
    const library = await loadGraphLibrary(importFromGraph, (error) =>
      log.warn({ graphId: spec.graphId, err: error }, "could not load the graph's own LangGraph; commands use Hangar's"),
    );
    // `export const graph = (async () => builder.compile())()` is common: a module cannot
    // use top-level await in every toolchain, so the export is awaited here.
    const exported = await awaitIfPromise(readModuleExport(moduleNamespace, spec.exportName));
    if (isGraphFactory(exported)) {
      return { spec, factory: exported, graph: await buildFromFactory(exported, DEFAULT_FACTORY_CONFIG), schemaReaders, messageReducers, library };
    }
    const graph = await toCompiledGraph(exported, `export "${spec.exportName}"`);
    return { spec, factory: null, graph, schemaReaders, messageReducers, library };
  } catch (error) {
    throw new GraphLoadError(spec.graphId, spec.spec, error);
  }
}

async function awaitIfPromise(value: unknown): Promise<unknown> {
  return isPromiseLike(value) ? await value : value;
}

async function buildFromFactory(factory: GraphFactory, config: Record<string, unknown>): Promise<CompiledGraphLike> {
  // A factory must return a graph, not another factory: one level keeps errors explainable.
  return toCompiledGraph(await factory(config), "the factory's result");
}

async function toCompiledGraph(value: unknown, what: string): Promise<CompiledGraphLike> {
  if (isCompiledGraphLike(value)) return value;
  if (isGraphBuilderLike(value)) {
    const compiled = await value.compile();
    if (isCompiledGraphLike(compiled)) return compiled;
    throw new Error(`${what} is a graph builder whose compile() returned ${describeValue(compiled)}`);
  }
  throw new Error(
    `${what} is ${describeValue(value)}; expected a compiled graph, a StateGraph, or a (async) function returning one`,
  );
}

function createGraphRegistry(
  graphs: Map<string, LoadedGraph>,
  defaults: ReadonlyMap<string, SystemAssistantDefaults>,
  log: GraphRegistryLog,
  options: GraphRegistryOptions,
): GraphRegistry {
  const schemasFromTypes = options.schemasFromTypes ?? true;
  // Schemas from TypeScript types: computed once (prepareSchemas, or first use), for every graph
  // that needs them at once (one compilation, seconds, in a child process); a failure is
  // remembered as null so that it is logged once, not on every request.
  let staticSchemas: Promise<Map<string, StaticDeploymentGraph> | null> | undefined;
  const loadStaticSchemas = (): Promise<Map<string, StaticDeploymentGraph> | null> => {
    staticSchemas ??= (async () => {
      const needed = [...graphs.values()].filter(({ spec, graph }) => {
        const { typed } = runtimeSchemasOf(spec.graphId, graph);
        return !typed.state || !typed.context;
      });
      // Graphs whose state and context schemas are all typed at runtime (zod) need no compiler:
      // the TypeScript compiler in a child process would cost seconds of CPU for nothing.
      if (needed.length === 0) return new Map();
      const requests = needed.map(({ spec }) => ({ modulePath: spec.modulePath, exportName: spec.exportName }));
      const graphIds = needed.map(({ spec }) => spec.graphId);
      const byGraph = (results: StaticDeploymentGraph[]) => new Map(graphIds.map((graphId, index) => [graphId, results[index]!]));
      const startedAt = Date.now();
      const cached = await options.cache?.read(requests).catch(() => null);
      if (cached) {
        log.info({ graphIds, ms: Date.now() - startedAt }, "read graph schemas from TypeScript types from the cache");
        return byGraph(cached);
      }
      try {
        const result = await extractStaticSchemasInChild(requests);
        log.info({ graphIds, ms: Date.now() - startedAt }, "derived graph schemas from TypeScript types");
        await options.cache
          ?.write(requests, result)
          .catch((error: unknown) => log.warn({ err: error }, "could not cache the schemas from the graphs' TypeScript types"));
        return byGraph(result.graphs);
      } catch (error) {
        log.warn({ err: error }, "could not derive schemas from the graphs' TypeScript types");
        return null;
      }
    })();
    return staticSchemas;
  };
  const staticSchemasOf = async (graphId: string): Promise<StaticDeploymentGraph | null> =>
    schemasFromTypes ? ((await loadStaticSchemas())?.get(graphId) ?? null) : null;

  const getLoaded = (graphId: string): LoadedGraph => {
    const loaded = graphs.get(graphId);
    if (loaded === undefined) {
      throw new Error(`Unknown graph "${graphId}"; deployed graphs: ${[...graphs.keys()].join(", ")}`);
    }
    return loaded;
  };

  // Both caches are keyed by graph object: one entry per deployed graph and per subgraph
  // instance. A subgraph is read with its deployed graph's helpers (one module, one LangGraph copy).
  const runtimeCache = new WeakMap<CompiledGraphLike, RuntimeSchemas>();
  const completeCache = new WeakMap<CompiledGraphLike, Promise<Omit<GraphSchemas, "graph_id">>>();

  /** What runtime definitions say (zod, StateSchema, channel names, message channels): no compiler. */
  const runtimeSchemasOf = (graphId: string, graph: CompiledGraphLike): RuntimeSchemas => {
    let cached = runtimeCache.get(graph);
    if (cached === undefined) {
      const loaded = getLoaded(graphId);
      const { schemas, typed } = extractGraphSchemas(graphId, graph, loaded.schemaReaders, (kind, error) =>
        log.warn({ graphId, kind, err: error }, "could not derive a graph schema; serving null"),
      );
      const messageChannels = findMessageChannels(graph, loaded.messageReducers);
      const listOnlyInputs = listOnlyMessageInputs(schemas, typed, messageChannels);
      const { graph_id: _ignored, ...described } = withMessageSchemas(schemas, messageChannels, listOnlyInputs);
      cached = { schemas: described, typed, messageChannels, listOnlyInputs };
      runtimeCache.set(graph, cached);
    }
    return cached;
  };

  /** The runtime schemas completed from the graph's TypeScript types (`declared`), once. */
  const completeSchemasOf = (
    graphId: string,
    graph: CompiledGraphLike,
    declared: () => Promise<StaticGraphSchemas | null | undefined>,
  ): Promise<Omit<GraphSchemas, "graph_id">> => {
    let cached = completeCache.get(graph);
    if (cached === undefined) {
      cached = (async () => {
        const { schemas, typed, messageChannels, listOnlyInputs } = runtimeSchemasOf(graphId, graph);
        if (typed.state && typed.context) return schemas;
        const fromTypes = await declared();
        if (fromTypes === null || fromTypes === undefined) return schemas;
        const { graph_id: _ignored, ...complete } = withMessageSchemas(
          withStaticSchemas({ graph_id: graphId, ...schemas }, typed, fromTypes),
          messageChannels,
          listOnlyInputs,
        );
        return complete;
      })();
      completeCache.set(graph, cached);
    }
    return cached;
  };
  const deployedSchemasOf = (graphId: string) =>
    completeSchemasOf(graphId, getLoaded(graphId).graph, () => staticSchemasOf(graphId));

  // Started by prepareSchemas: every deployed graph's schemas, computed before anyone asks.
  let warmUp: Promise<void> | undefined;

  // The start-up instance, or for a factory a new graph built with the config.
  const build = async (graphId: string, config: Record<string, unknown> | undefined): Promise<CompiledGraphLike> => {
    const loaded = getLoaded(graphId);
    if (loaded.factory === null) return loaded.graph;
    try {
      return await buildFromFactory(loaded.factory, config ?? DEFAULT_FACTORY_CONFIG);
    } catch (error) {
      throw new GraphLoadError(graphId, loaded.spec.spec, error);
    }
  };

  return {
    names: () => [...graphs.keys()],
    has: (graphId) => graphs.has(graphId),
    isFactory: (graphId) => getLoaded(graphId).factory !== null,
    systemAssistantDefaults: (graphId) => defaults.get(graphId) ?? { config: {}, context: undefined },

    async getDrawing(graphId, options = {}) {
      return drawGraph(getLoaded(graphId).graph, options.xray ?? false);
    },

    prepareSchemas() {
      warmUp ??= (async () => {
        const startedAt = Date.now();
        for (const graphId of graphs.keys()) {
          // One graph per macrotask: deriving a large zod schema must not hold up requests.
          await new Promise((resolve) => setImmediate(resolve));
          if (schemasFromTypes) await deployedSchemasOf(graphId);
          else runtimeSchemasOf(graphId, getLoaded(graphId).graph);
        }
        log.info({ graphIds: [...graphs.keys()], ms: Date.now() - startedAt }, "graph schemas ready");
      })().catch((error: unknown) => log.warn({ err: error }, "could not prepare the graphs' schemas"));
      return warmUp;
    },

    async getSchemas(graphId, options = {}) {
      const { graph } = getLoaded(graphId);
      const { schemas, typed } = runtimeSchemasOf(graphId, graph);
      const asked = options.only ?? ["input", "output", "state", "config", "context"];
      const needsTypes = asked.some((kind) => (kind === "config" || kind === "context" ? !typed.context : !typed.state));
      if (!needsTypes || !schemasFromTypes) return { graph_id: graphId, ...schemas };
      return { graph_id: graphId, ...(await deployedSchemasOf(graphId)) };
    },

    async getSubgraphs(graphId, options = {}) {
      const result: Record<string, GraphSchemas> = {};
      for await (const [namespace, subgraph] of listSubgraphs(getLoaded(graphId).graph, options)) {
        if (!isCompiledGraphLike(subgraph)) continue;
        const declared = async () => (await staticSchemasOf(graphId))?.subgraphs[namespace];
        result[namespace] = { graph_id: graphId, ...(await completeSchemasOf(graphId, subgraph, declared)) };
      }
      return result;
    },

    async resolve(graphId, options = {}) {
      const graph = await build(graphId, options.config);
      if (options.checkpointer !== undefined) graph.checkpointer = options.checkpointer;
      if (options.store !== undefined) graph.store = options.store;
      return graph;
    },

    libraryOf: (graphId) => getLoaded(graphId).library,

    async nodeNames(graphId, options = {}) {
      const graph = await build(graphId, options.config);
      // LangChain's createAgent exports a ReactAgent, whose compiled graph is its public `graph`.
      const nodes = graph.nodes ?? (graph as { graph?: { nodes?: unknown } }).graph?.nodes;
      return typeof nodes === "object" && nodes !== null ? Object.keys(nodes) : null;
    },
  };
}

/**
 * LangGraph's own traversal (it looks through node runnables and RunnableSequences for Pregel
 * instances, by a duck-typed `lg_is_pregel` flag). Graphs without it get a one-level scan of
 * node runnables.
 */
async function* listSubgraphs(
  graph: CompiledGraphLike,
  options: { namespace?: string; recurse?: boolean },
): AsyncGenerator<[string, unknown]> {
  if (typeof graph.getSubgraphsAsync === "function") {
    yield* graph.getSubgraphsAsync(options.namespace, options.recurse ?? false);
    return;
  }
  if (typeof graph.getSubgraphs === "function") {
    yield* graph.getSubgraphs(options.namespace, options.recurse ?? false);
    return;
  }
  for (const [name, node] of Object.entries(graph.nodes ?? {})) {
    const bound = (node as { bound?: unknown } | null)?.bound;
    if (isCompiledGraphLike(bound) && (options.namespace === undefined || options.namespace === name)) {
      yield [name, bound];
    }
  }
}
