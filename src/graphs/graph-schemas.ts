import {
  getConfigTypeSchema,
  getInputTypeSchema,
  getOutputTypeSchema,
  getStateTypeSchema,
} from "@langchain/langgraph/zod/schema";
import type { StaticGraphSchemas } from "./static-schemas/extract-static-schemas.js";
import { getStateBuilder, type CompiledGraphLike, type StateBuilderLike } from "./graph-shapes.js";

export type JSONSchema = Record<string, unknown>;

export interface GraphSchemas {
  graph_id: string;
  input_schema: JSONSchema | null;
  output_schema: JSONSchema | null;
  state_schema: JSONSchema | null;
  config_schema: JSONSchema | null;
  context_schema: JSONSchema | null;
}

type SchemaReader = (graph: unknown, registry?: never) => unknown;
type SchemaKind = "input" | "output" | "state" | "context";

const READERS: Record<SchemaKind, SchemaReader> = {
  input: getInputTypeSchema as SchemaReader,
  output: getOutputTypeSchema as SchemaReader,
  state: getStateTypeSchema as SchemaReader,
  context: getConfigTypeSchema as SchemaReader,
};

/**
 * JSON Schemas of a compiled graph, computed the way LangGraph's own server does.
 *
 * LangGraph's `zod/schema` helpers read the builder's runtime definitions: zod objects (v3 or
 * v4; @langchain/core converts both, and zod v4 schemas from another zod copy convert too since
 * conversion walks `_zod`), `StateSchema` instances (recognised through a Symbol.for brand, so
 * any copy works), and the zod context schema. Reducer schemas and extras such as
 * `langgraph_type: "messages"` live in a per-copy meta registry; we hand the helpers the
 * graph's OWN registry (`builder._metaRegistry`), otherwise a graph from another copy would
 * lose them. Annotation-based graphs carry no runtime types, so for them we describe the
 * channel names only. Anything unexpected yields null rather than failing the request.
 */
export function extractGraphSchemas(
  graphId: string,
  graph: CompiledGraphLike,
  onProblem: (kind: SchemaKind, error: Error) => void = () => {},
): GraphSchemas {
  const builder = getStateBuilder(graph);
  const registry = findMetaRegistry(builder, graph);
  const read = (kind: SchemaKind): JSONSchema | null => {
    if (builder === null) return null;
    try {
      const schema = READERS[kind](graph, registry as never);
      if (isJsonObject(schema)) return schema;
    } catch (error) {
      onProblem(kind, error instanceof Error ? error : new Error(String(error), { cause: error }));
    }
    return kind === "context" ? null : describeChannels(builder, kind);
  };
  return {
    graph_id: graphId,
    input_schema: read("input"),
    output_schema: read("output"),
    state_schema: read("state"),
    // From JavaScript, a graph's config schema and its context schema are one declaration
    // (LangGraph 1.x moved run-time parameters to `context`); LangGraph Platform's JS server
    // serves it as both, and so do we.
    config_schema: read("context"),
    context_schema: read("context"),
  };
}

/** Which of a graph's schemas come from runtime definitions (zod, StateSchema), not TS types. */
export function runtimeTypedSchemas(graph: CompiledGraphLike): { state: boolean; context: boolean } {
  const builder = getStateBuilder(graph);
  return {
    state: builder?._schemaRuntimeDefinition !== undefined && builder?._schemaRuntimeDefinition !== null,
    context: builder?._configRuntimeSchema !== undefined && builder?._configRuntimeSchema !== null,
  };
}

/**
 * Fills in what runtime definitions could not give from the graph's TypeScript types: state,
 * input and output when the state is an Annotation, config and context when the context is.
 * A schema the types could not give either stays as it was.
 */
export function withStaticSchemas(
  schemas: GraphSchemas,
  typed: { state: boolean; context: boolean },
  fromTypes: StaticGraphSchemas,
): GraphSchemas {
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

function findMetaRegistry(builder: StateBuilderLike | null, graph: CompiledGraphLike): unknown {
  for (const candidate of [builder?._metaRegistry, (graph as { _metaRegistry?: unknown })._metaRegistry]) {
    if (
      typeof candidate === "object" &&
      candidate !== null &&
      typeof (candidate as { getExtendedChannelSchemas?: unknown }).getExtendedChannelSchemas === "function"
    ) {
      return candidate;
    }
  }
  // undefined lets the helper fall back to the registry of our own copy.
  return undefined;
}

/** Object schema naming the channels of an Annotation / plain channel map; types are unknown. */
function describeChannels(builder: StateBuilderLike, kind: Exclude<SchemaKind, "context">): JSONSchema | null {
  const definition =
    kind === "input" ? builder._inputDefinition : kind === "output" ? builder._outputDefinition : builder._schemaDefinition;
  if (typeof definition !== "object" || definition === null) return null;
  const properties = Object.fromEntries(Object.keys(definition).map((channel) => [channel, {}]));
  return { type: "object", properties };
}

function isJsonObject(value: unknown): value is JSONSchema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
