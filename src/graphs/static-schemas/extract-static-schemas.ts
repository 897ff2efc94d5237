import path from "node:path";
import { createRequire } from "node:module";
import type * as TypeScript from "typescript-json-schema/node_modules/typescript/lib/typescript.js";
import type { JSONSchema } from "../graph-schemas.js";
import { repairStaticSchema } from "./repair-static-schema.js";
import { findSubgraphDeclarations, type SubgraphDeclaration } from "./subgraph-declarations.js";

/** What a graph's TypeScript types say about it; null where a type could not be converted. */
export interface StaticGraphSchemas {
  state: JSONSchema | null;
  input: JSONSchema | null;
  output: JSONSchema | null;
  /** The graph's context (LangGraph 1.x) / configurable schema: one type for both in JS. */
  config: JSONSchema | null;
}

/** A graph's schemas from its types, and those of the subgraphs its source declares. */
export interface StaticDeploymentGraph extends StaticGraphSchemas {
  /** By namespace (`child`, `child|grandchild`), as /subgraphs names them. */
  subgraphs: Record<string, StaticGraphSchemas>;
}

/** One compilation's answer: a graph per request, and every file the compiler read. */
export interface StaticSchemasResult {
  graphs: StaticDeploymentGraph[];
  /** Absolute paths of the modules and declaration files the schemas were derived from. */
  sourceFiles: string[];
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

/** The reflected type names of a graph of a batch (`index`), or of one of its subgraphs. */
function typeNames(index: number, subgraph?: number) {
  const suffix = subgraph === undefined ? `${index}` : `${index}_${subgraph}`;
  return {
    state: `HangarStateType${suffix}`,
    input: `HangarInputType${suffix}`,
    output: `HangarOutputType${suffix}`,
    config: `HangarConfigType${suffix}`,
  };
}

/**
 * Type aliases naming a graph's types through LangGraph's own type helpers: the state type of
 * the compiled graph (exported compiled, as a builder, a Promise or a factory), the update type
 * of its input definition, the state type of its output definition and the update type of its
 * context definition. `graphType` is a type expression for the graph.
 */
function reflectedTypes(graphType: string, names: ReturnType<typeof typeNames>): string {
  const graph = `__HangarCompiled<${graphType}>`;
  const builder = `(${graph} extends { builder: infer B } ? B : never)`;
  return `
export type ${names.state} = ${graph} extends __HangarCompiledStateGraph<infer S, any, any, any, any, any, any, any, any, any> ? S : never;
export type ${names.input} = ${builder} extends { _inputDefinition: infer I extends __HangarStateDefinition } ? __HangarUpdateType<I> : never;
export type ${names.output} = ${builder} extends { _outputDefinition: infer O extends __HangarStateDefinition } ? __HangarStateType<O> : never;
export type ${names.config} = ${builder} extends { _configSchema?: infer C }
  ? Exclude<C, undefined> extends infer D extends __HangarStateDefinition ? __HangarUpdateType<D> : never
  : never;
`;
}

/**
 * A copy of the graph's module (in memory, next to it, so that its imports resolve against the
 * deployment's own packages) with the reflected types of the exported graph and of each subgraph
 * appended. Subgraphs are module-level expressions (subgraph-declarations.ts), so the copy can
 * name their types: the copy is only type-checked, never run.
 */
function reflectionSource(request: StaticSchemaRequest, moduleSource: string, subgraphs: SubgraphDeclaration[], index: number): string {
  const specifier = `./${path.basename(request.modulePath)}`;
  const parts = [
    moduleSource,
    `
import type { CompiledStateGraph as __HangarCompiledStateGraph, StateDefinition as __HangarStateDefinition, StateType as __HangarStateType, UpdateType as __HangarUpdateType } from "@langchain/langgraph";
import type * as __HangarGraphModule from ${JSON.stringify(specifier)};
type __HangarBuilt<T> = T extends (...args: any[]) => infer R ? Awaited<R> : Awaited<T>;
type __HangarCompiled<T> = __HangarBuilt<T> extends infer G ? (G extends { compile(...args: any[]): infer C } ? C : G) : never;
`,
    reflectedTypes(`(typeof __HangarGraphModule)[${JSON.stringify(request.exportName)}]`, typeNames(index)),
  ];
  subgraphs.forEach((subgraph, position) => {
    parts.push(`const __hangarSubgraph${position} = (${subgraph.expression});`);
    parts.push(reflectedTypes(`typeof __hangarSubgraph${position}`, typeNames(index, position)));
  });
  return parts.join("\n");
}

const TYPESCRIPT_EXTENSION: Record<string, string> = { ".js": ".ts", ".mjs": ".mts", ".cjs": ".cts", ".jsx": ".tsx" };

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
export function extractStaticSchemas(requests: readonly StaticSchemaRequest[]): StaticSchemasResult {
  const sources = new Map<string, string>();
  const subgraphsOf: SubgraphDeclaration[][] = [];
  requests.forEach((request, index) => {
    const moduleSource = ts.sys.readFile(request.modulePath) ?? "";
    const parsed = ts.createSourceFile(request.modulePath, moduleSource, ts.ScriptTarget.Latest, true);
    const subgraphs = findSubgraphDeclarations(ts, parsed, request.exportName);
    subgraphsOf.push(subgraphs);
    // The copy holds type aliases, so a JavaScript module's copy is TypeScript of the same kind.
    const extension = TYPESCRIPT_EXTENSION[path.extname(request.modulePath)] ?? path.extname(request.modulePath);
    const virtualPath = path.join(path.dirname(request.modulePath), `__hangar_graph_types_${process.pid}_${index}${extension}`);
    sources.set(virtualPath, reflectionSource(request, moduleSource, subgraphs, index));
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
  const generator = reflectedTypesGenerator(program, [...sources.keys()]);
  const read = (typeName: string): JSONSchema | null => {
    try {
      const schema = generator.getSchemaForSymbol(typeName) as JSONSchema;
      return isObjectSchema(schema) ? repairStaticSchema(withPlainTypeNames(schema) as JSONSchema) : null;
    } catch {
      return null;
    }
  };
  const schemasOf = (names: ReturnType<typeof typeNames>): StaticGraphSchemas => ({
    state: read(names.state),
    input: read(names.input),
    output: read(names.output),
    config: read(names.config),
  });
  const graphs = requests.map((_request, index) => ({
    ...schemasOf(typeNames(index)),
    subgraphs: Object.fromEntries(
      subgraphsOf[index]!.map((subgraph, position) => [subgraph.namespace, schemasOf(typeNames(index, position))]),
    ),
  }));
  const sourceFiles = program
    .getSourceFiles()
    .map((file) => file.fileName)
    .filter((fileName) => !sources.has(fileName));
  return { graphs, sourceFiles };
}

/**
 * A typescript-json-schema generator that knows only the reflected type aliases (`Hangar*Type*`)
 * declared in the reflection modules. TJS's buildGenerator first visits every class, interface
 * and alias declared anywhere in the program (~900 files of @langchain/core, zod, provider SDKs
 * for the example deployment) to index them by name: measured on the examples, 45 of 80 s of
 * CPU on a loaded machine against 10 s for this. Types the aliases refer to are still converted
 * (through the checker); what is lost is TJS's `oneOf` of the subclasses of an abstract class,
 * which for LangChain's BaseMessage listed only RemoveMessage (repairStaticSchema replaces it).
 */
function reflectedTypesGenerator(program: TypeScript.Program, reflectionFiles: string[]) {
  const checker = program.getTypeChecker();
  const symbols: TJSSymbolRef[] = [];
  const types: Record<string, TypeScript.Type> = {};
  const declared: Record<string, TypeScript.Symbol> = {};
  for (const fileName of reflectionFiles) {
    const file = program.getSourceFile(fileName);
    if (file === undefined) continue;
    ts.forEachChild(file, (node) => {
      if (!ts.isTypeAliasDeclaration(node) || !node.name.text.startsWith("Hangar")) return;
      const symbol = checker.getSymbolAtLocation(node.name);
      if (symbol === undefined) return;
      const name = node.name.text;
      symbols.push({ name, typeName: name, fullyQualifiedName: checker.getFullyQualifiedName(symbol), symbol: symbol as never });
      types[name] = checker.getTypeAtLocation(node);
      declared[name] = symbol;
    });
  }
  const settings = { ...TJS.getDefaultArgs(), required: true, ignoreErrors: true, strictNullChecks: true };
  return new TJS.JsonSchemaGenerator(symbols, types as never, declared as never, {}, checker as never, settings);
}

type TJSSymbolRef = import("typescript-json-schema").SymbolRef;

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
