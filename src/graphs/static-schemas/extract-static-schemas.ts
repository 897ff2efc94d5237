import path from "node:path";
import { createRequire } from "node:module";
import type * as TypeScript from "typescript-json-schema/node_modules/typescript/lib/typescript.js";
import type { JSONSchema } from "../graph-schemas.js";

/** What a graph's TypeScript types say about it; null where a type could not be converted. */
export interface StaticGraphSchemas {
  state: JSONSchema | null;
  input: JSONSchema | null;
  output: JSONSchema | null;
  /** The graph's context (LangGraph 1.x) / configurable schema: one type for both in JS. */
  config: JSONSchema | null;
}

export interface StaticSchemaRequest {
  /** Absolute path of the graph's module. */
  modulePath: string;
  exportName: string;
}

// typescript-json-schema brings its own TypeScript 5 (the compiler API); Hangar's own
// `typescript` devDependency is the native compiler, which has no JavaScript API.
const require = createRequire(import.meta.url);
const TJS = require("typescript-json-schema") as typeof import("typescript-json-schema");
const ts = require(require.resolve("typescript", { paths: [path.dirname(require.resolve("typescript-json-schema"))] })) as typeof TypeScript;

/** The reflected type names of the index-th graph of a batch. */
function typeNames(index: number) {
  return {
    state: `HangarStateType${index}`,
    input: `HangarInputType${index}`,
    output: `HangarOutputType${index}`,
    config: `HangarConfigType${index}`,
  };
}

/**
 * A module next to the graph's that names the graph's types through LangGraph's own type
 * helpers, resolved against the deployment's own copy of @langchain/langgraph: the state type
 * of the compiled graph (whether exported compiled, as a builder, a Promise or a factory), the
 * update type of its input definition, the state type of its output definition and the update
 * type of its context definition.
 */
function reflectionSource(request: StaticSchemaRequest, index: number): string {
  const TYPE_NAMES = typeNames(index);
  const specifier = `./${path.basename(request.modulePath)}`;
  return `
import type { CompiledStateGraph, StateDefinition, StateType, UpdateType } from "@langchain/langgraph";
import type * as GraphModule from ${JSON.stringify(specifier)};
type Built<T> = T extends (...args: any[]) => infer R ? Awaited<R> : Awaited<T>;
type Compiled<T> = Built<T> extends infer G ? (G extends { compile(...args: any[]): infer C } ? C : G) : never;
type Graph = Compiled<(typeof GraphModule)[${JSON.stringify(request.exportName)}]>;
type Builder = Graph extends { builder: infer B } ? B : never;
export type ${TYPE_NAMES.state} = Graph extends CompiledStateGraph<infer S, any, any, any, any, any, any, any, any, any> ? S : never;
export type ${TYPE_NAMES.input} = Builder extends { _inputDefinition: infer I extends StateDefinition } ? UpdateType<I> : never;
export type ${TYPE_NAMES.output} = Builder extends { _outputDefinition: infer O extends StateDefinition } ? StateType<O> : never;
export type ${TYPE_NAMES.config} = Builder extends { _configSchema?: infer C }
  ? Exclude<C, undefined> extends infer D extends StateDefinition ? UpdateType<D> : never
  : never;
`;
}

const COMPILER_OPTIONS: TypeScript.CompilerOptions = {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  strict: true,
  skipLibCheck: true,
  noEmit: true,
  allowJs: true,
  allowImportingTsExtensions: true,
  jsx: ts.JsxEmit.ReactJSX,
};

/**
 * JSON Schemas from graphs' TypeScript types, for graphs whose state or context carry no runtime
 * schema (Annotation.Root with TypeScript types). Compiles the graphs' modules with the
 * TypeScript compiler, all in one program (seconds, whatever the number of graphs: callers run
 * this off the event loop, once per deployment) and converts the reflected types with
 * typescript-json-schema. Never throws for a type it cannot convert: that schema is null.
 */
export function extractStaticSchemas(requests: readonly StaticSchemaRequest[]): StaticGraphSchemas[] {
  const sources = new Map<string, string>();
  requests.forEach((request, index) => {
    const virtualPath = path.join(path.dirname(request.modulePath), `__hangar_graph_types_${process.pid}_${index}.mts`);
    sources.set(virtualPath, reflectionSource(request, index));
  });
  const host = ts.createCompilerHost(COMPILER_OPTIONS);
  const { getSourceFile, fileExists, readFile } = host;
  // The reflection modules exist only in memory: nothing is written into the deployment.
  host.getSourceFile = (fileName, languageVersion, ...rest) => {
    const source = sources.get(fileName);
    return source !== undefined
      ? ts.createSourceFile(fileName, source, languageVersion)
      : getSourceFile.call(host, fileName, languageVersion, ...rest);
  };
  host.fileExists = (fileName) => sources.has(fileName) || fileExists.call(host, fileName);
  host.readFile = (fileName) => sources.get(fileName) ?? readFile.call(host, fileName);
  const program = ts.createProgram([...sources.keys()], COMPILER_OPTIONS, host);
  const generator = TJS.buildGenerator(program as never, { required: true, ignoreErrors: true, strictNullChecks: true });
  const read = (typeName: string): JSONSchema | null => {
    if (generator === null) return null;
    try {
      const schema = generator.getSchemaForSymbol(typeName) as JSONSchema;
      return isObjectSchema(schema) ? (withPlainTypeNames(schema) as JSONSchema) : null;
    } catch {
      return null;
    }
  };
  return requests.map((_request, index) => {
    const names = typeNames(index);
    return { state: read(names.state), input: read(names.input), output: read(names.output), config: read(names.config) };
  });
}

// `import("/abs/path/messages/base",{with:{"resolution-mode":"import"}}).` before a type name.
const IMPORT_QUALIFIER = /import\("[^"]*"(?:,\{with:\{[^}]*\}\})?\)\./g;
const DEFINITION_REF = "#/definitions/";

/**
 * typescript-json-schema qualifies a type declared in another module with its absolute path
 * (`import("/…/@langchain/core/dist/messages/base").BaseMessage<…>`) and URI-encodes refs. The
 * schema is served to clients, so definitions and refs use the plain names, as LangGraph
 * Platform's (`#/definitions/BaseMessage<MessageStructure<MessageToolSet>,MessageType>`); this
 * also keeps server paths out of the response. Two types of one name from different modules
 * would share a definition: the first one is kept.
 */
function withPlainTypeNames(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withPlainTypeNames);
  if (typeof value !== "object" || value === null) return value;
  const result: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === "$ref" && typeof child === "string" && child.startsWith(DEFINITION_REF)) {
      result[key] = DEFINITION_REF + plainTypeName(decodeURIComponent(child.slice(DEFINITION_REF.length)));
    } else if (key === "definitions" && typeof child === "object" && child !== null) {
      const definitions: Record<string, unknown> = {};
      for (const [name, definition] of Object.entries(child)) {
        definitions[plainTypeName(name)] ??= withPlainTypeNames(definition);
      }
      result[key] = definitions;
    } else {
      result[key] = withPlainTypeNames(child);
    }
  }
  return result;
}

function plainTypeName(name: string): string {
  return name.replace(IMPORT_QUALIFIER, "");
}

/** `never` (an unmatched reflection) converts to an empty schema; only object types count. */
function isObjectSchema(schema: JSONSchema): boolean {
  return schema.type === "object";
}
