import * as ownSchemaHelpers from "@langchain/langgraph/zod/schema";
import type { StaticGraphSchemas } from "./static-schemas/extract-static-schemas.js";
import { getStateBuilder, type CompiledGraphLike } from "./graph-shapes.js";
import { withMessageChannels } from "./message-schemas.js";

export type JSONSchema = Record<string, unknown>;

export interface GraphSchemas {
  graph_id: string;
  input_schema: JSONSchema | null;
  output_schema: JSONSchema | null;
  state_schema: JSONSchema | null;
  config_schema: JSONSchema | null;
  context_schema: JSONSchema | null;
}

/** Which of a graph's schemas came from runtime definitions (zod, StateSchema), not TS types. */
export interface RuntimeTyped {
  state: boolean;
  context: boolean;
  /**
   * How LangGraph checks a run's input: not at all (Annotation), against the runtime schema the
   * input schema describes, or against one LangGraph's helper could not describe (zod v4's
   * `z.custom`, as LangGraph's docs declare messages).
   */
  inputCheck: "none" | "described" | "opaque";
}

type SchemaKind = "input" | "output" | "state" | "context";
type SchemaReader = (graph: unknown) => unknown;

/** LangGraph's public `@langchain/langgraph/zod/schema` helpers, from one copy of LangGraph. */
export type SchemaReaders = Record<SchemaKind, SchemaReader>;

const HELPER_NAMES: Record<SchemaKind, string> = {
  input: "getInputTypeSchema",
  output: "getOutputTypeSchema",
  state: "getStateTypeSchema",
  context: "getConfigTypeSchema",
};

function readersOf(module: Record<string, unknown>): SchemaReaders | null {
  const readers: Partial<SchemaReaders> = {};
  for (const [kind, name] of Object.entries(HELPER_NAMES) as Array<[SchemaKind, string]>) {
    const helper = module[name];
    if (typeof helper !== "function") return null;
    readers[kind] = (graph) => (helper as (graph: unknown) => unknown)(graph);
  }
  return readers as SchemaReaders;
}

/** Hangar's own copy's helpers: for graphs built with Hangar's LangGraph. */
export const OWN_SCHEMA_READERS: SchemaReaders = readersOf(ownSchemaHelpers as unknown as Record<string, unknown>)!;

/** Node's codes for "no such package, or it does not export that path". */
export const NOT_FOUND_CODES = new Set(["ERR_MODULE_NOT_FOUND", "MODULE_NOT_FOUND", "ERR_PACKAGE_PATH_NOT_EXPORTED"]);

/**
 * The schema helpers of the LangGraph copy a graph module was built with: reducer schemas and
 * extras such as `langgraph_type: "messages"` live in a registry per copy, which that copy's
 * helpers read by default. `importFrom` imports a specifier as the graph module would (the
 * deployment's loader). Where the module resolves no LangGraph of its own, or one without the
 * helpers, Hangar's are used; any other import failure is reported through `onProblem` first
 * (schemas then lack that copy's extras, which someone should hear about).
 */
export async function loadSchemaReaders(
  importFrom: (specifier: string) => Promise<Record<string, unknown>>,
  onProblem: (error: Error) => void = () => {},
): Promise<SchemaReaders> {
  try {
    return readersOf(await importFrom("@langchain/langgraph/zod/schema")) ?? OWN_SCHEMA_READERS;
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (typeof code !== "string" || !NOT_FOUND_CODES.has(code)) {
      onProblem(error instanceof Error ? error : new Error(String(error), { cause: error }));
    }
    return OWN_SCHEMA_READERS;
  }
}

/**
 * JSON Schemas of a compiled graph, computed the way LangGraph's own server does, through the
 * public helpers of the graph's own LangGraph copy: zod objects (v3 or v4), `StateSchema`
 * instances and the zod context schema. Annotation-based graphs carry no runtime types: the
 * helpers answer nothing, and we describe the channel names from the builder's public
 * `channels` (the compiled graph's `outputChannels` for the output). Anything unexpected yields
 * null rather than failing the request.
 */
export function extractGraphSchemas(
  graphId: string,
  graph: CompiledGraphLike,
  readers: SchemaReaders,
  onProblem: (kind: SchemaKind, error: Error) => void = () => {},
): { schemas: GraphSchemas; typed: RuntimeTyped } {
  const failed = new Set<SchemaKind>();
  const fromRuntime = (kind: SchemaKind): JSONSchema | null => {
    if (getStateBuilder(graph) === null) return null;
    try {
      const schema = readers[kind](graph);
      if (isJsonObject(schema)) return kind === "state" || kind === "output" ? withEveryChannel(schema, describeChannels(graph, kind)) : schema;
    } catch (error) {
      failed.add(kind);
      onProblem(kind, error instanceof Error ? error : new Error(String(error), { cause: error }));
    }
    return null;
  };
  const state = fromRuntime("state");
  const context = fromRuntime("context");
  const input = fromRuntime("input");
  const inputCheck = input !== null ? "described" : failed.has("input") ? "opaque" : "none";
  const schemas: GraphSchemas = {
    graph_id: graphId,
    input_schema: input ?? describeChannels(graph, "input"),
    output_schema: fromRuntime("output") ?? describeChannels(graph, "output"),
    state_schema: state ?? describeChannels(graph, "state"),
    // From JavaScript, a graph's config schema and its context schema are one declaration
    // (LangGraph 1.x moved run-time parameters to `context`); LangGraph Platform's JS server
    // serves it as both, and so do we.
    config_schema: context,
    context_schema: context,
  };
  return { schemas, typed: { state: state !== null, context: context !== null, inputCheck } };
}

/**
 * Fills in what runtime definitions could not give from the graph's TypeScript types: state,
 * input and output when the state is an Annotation, config and context when the context is.
 * A schema the types could not give either stays as it was.
 */
export function withStaticSchemas(schemas: GraphSchemas, typed: RuntimeTyped, fromTypes: StaticGraphSchemas): GraphSchemas {
  const merged = { ...schemas };
  if (!typed.state) {
    merged.state_schema = fromTypes.state ?? schemas.state_schema;
    merged.input_schema = fromTypes.input ?? schemas.input_schema;
    merged.output_schema = fromTypes.output ?? schemas.output_schema;
  }
  // A graph without a context declaration reflects as an object without properties: nothing.
  if (!typed.context && Object.keys((fromTypes.config?.properties as object | undefined) ?? {}).length > 0) {
    merged.config_schema = fromTypes.config;
    merged.context_schema = fromTypes.config;
  }
  return merged;
}

/**
 * The schemas with the graph's message channels (findMessageChannels) and LangGraph-marked
 * message properties described as the messages LangGraph accepts, whichever way the rest of the
 * schema was derived (zod, TypeScript types, channel names).
 */
export function withMessageSchemas(schemas: GraphSchemas, messageChannels: ReadonlySet<string>, listOnlyInputs: ReadonlySet<string>): GraphSchemas {
  return {
    ...schemas,
    input_schema: withMessageChannels(schemas.input_schema, "input", messageChannels, listOnlyInputs),
    output_schema: withMessageChannels(schemas.output_schema, "output", messageChannels),
    state_schema: withMessageChannels(schemas.state_schema, "state", messageChannels),
  };
}

/**
 * The message channels whose input must be a list, not also one message (which LangGraph's
 * reducer appends): those LangGraph checks against a runtime schema that is an array
 * (`z.array(…)` without a reducer schema), or against one it could not describe.
 */
export function listOnlyMessageInputs(schemas: GraphSchemas, typed: RuntimeTyped, messageChannels: ReadonlySet<string>): Set<string> {
  if (typed.inputCheck === "none") return new Set();
  const properties = (schemas.input_schema?.properties ?? {}) as Record<string, JSONSchema | undefined>;
  if (typed.inputCheck === "opaque") return new Set([...messageChannels, ...Object.keys(properties)]);
  return new Set(Object.keys(properties).filter((name) => properties[name]?.type === "array"));
}

/**
 * Object schema naming the channels of an Annotation / plain channel map; types are unknown.
 * The builder's `channels` hold every state channel (an input annotation's too); the output is
 * the compiled graph's `outputChannels` when it lists them.
 */
function describeChannels(graph: CompiledGraphLike, kind: Exclude<SchemaKind, "context">): JSONSchema | null {
  const channels = getStateBuilder(graph)?.channels;
  if (typeof channels !== "object" || channels === null) return null;
  const outputChannels = (graph as { outputChannels?: unknown }).outputChannels;
  const names =
    kind === "output" && Array.isArray(outputChannels) ? outputChannels.filter((name) => typeof name === "string") : Object.keys(channels);
  const properties = Object.fromEntries(names.filter((name) => !name.startsWith("__")).map((channel) => [channel, {}]));
  return { type: "object", properties };
}

/**
 * The runtime state or output schema with the channels it leaves out named, types unknown:
 * LangGraph's helpers describe a `StateSchema`'s reduced values (MessagesValue) but not its plain
 * zod fields (1.7.x), and clients (Studio, the console's state editor) expect every channel, as
 * LangGraph's own server gives them. Inputs stay as described: a graph's input may be narrower.
 */
function withEveryChannel(schema: JSONSchema, channels: JSONSchema | null): JSONSchema {
  const properties = schema.properties;
  const named = channels?.properties as Record<string, unknown> | undefined;
  if (!isJsonObject(properties) || named === undefined) return schema;
  const missing = Object.keys(named).filter((name) => !(name in properties));
  if (missing.length === 0) return schema;
  return { ...schema, properties: { ...properties, ...Object.fromEntries(missing.map((name) => [name, {}])) } };
}

function isJsonObject(value: unknown): value is JSONSchema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
