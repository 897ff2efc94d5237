/**
 * Duck-typed views of LangGraph objects. A deployment may resolve its own copy of
 * @langchain/langgraph (its own node_modules, or the isolated module namespace our loader uses),
 * so `instanceof` against our copy would reject perfectly good graphs. Every check here looks
 * only at members that all LangGraph 1.x copies share.
 */

export interface DrawableGraphLike {
  toJSON(): { nodes: unknown[]; edges: unknown[] };
}

type LooseConfig = Record<string, unknown>;

/** The part of a compiled LangGraph graph (Pregel) that Hangar calls. */
export interface CompiledGraphLike {
  name?: string;
  /** Set by the registry's resolve(); LangGraph reads them on every invocation. */
  checkpointer?: unknown;
  store?: unknown;
  builder?: unknown;
  nodes?: Record<string, unknown>;
  invoke(input: unknown, options?: LooseConfig): Promise<unknown>;
  stream(input: unknown, options?: LooseConfig): Promise<AsyncIterable<unknown>>;
  streamEvents?(input: unknown, options: LooseConfig): AsyncIterable<unknown>;
  getState(config: LooseConfig, options?: LooseConfig): Promise<unknown>;
  getStateHistory?(config: LooseConfig, options?: LooseConfig): AsyncIterable<unknown>;
  updateState(config: LooseConfig, values: unknown, asNode?: string): Promise<unknown>;
  getGraphAsync?(config?: { xray?: boolean | number }): Promise<DrawableGraphLike>;
  getGraph?(config?: { xray?: boolean | number }): DrawableGraphLike;
  getSubgraphsAsync?(namespace?: string, recurse?: boolean): AsyncIterable<[string, unknown]>;
  getSubgraphs?(namespace?: string, recurse?: boolean): Iterable<[string, unknown]>;
}

/** An uncompiled builder (StateGraph / Graph): compiles, cannot run. */
export interface GraphBuilderLike {
  compile(options?: LooseConfig): unknown;
}

export type GraphFactory = (config: LooseConfig) => unknown;

function hasMethod(value: unknown, name: string): boolean {
  return (
    (typeof value === "object" || typeof value === "function") &&
    value !== null &&
    typeof (value as Record<string, unknown>)[name] === "function"
  );
}

export function isCompiledGraphLike(value: unknown): value is CompiledGraphLike {
  return (
    typeof value === "object" &&
    value !== null &&
    hasMethod(value, "invoke") &&
    hasMethod(value, "stream") &&
    hasMethod(value, "getState") &&
    hasMethod(value, "updateState") &&
    (hasMethod(value, "getGraphAsync") || hasMethod(value, "getGraph"))
  );
}

export function isGraphBuilderLike(value: unknown): value is GraphBuilderLike {
  return (
    typeof value === "object" &&
    value !== null &&
    hasMethod(value, "compile") &&
    hasMethod(value, "addNode") &&
    !hasMethod(value, "invoke")
  );
}

/** A Promise from any realm (a deployment module may be evaluated in another one). */
export function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === "object" || typeof value === "function") &&
    value !== null &&
    typeof (value as { then?: unknown }).then === "function"
  );
}

/**
 * A class is also a function; calling one without `new` throws, and a class export is never a
 * factory (someone exported `StateGraph` itself, or their state class).
 */
export function isClassConstructor(value: unknown): boolean {
  return typeof value === "function" && /^class[\s{]/.test(Function.prototype.toString.call(value));
}

export function isGraphFactory(value: unknown): value is GraphFactory {
  return typeof value === "function" && !isClassConstructor(value) && !isCompiledGraphLike(value);
}

/** Short human description for error messages: "undefined", "a string", "an instance of Foo". */
export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "undefined";
  if (isClassConstructor(value)) return `the class ${(value as { name?: string }).name || "(anonymous)"}`;
  if (typeof value === "function") return "a function";
  if (typeof value !== "object") return `a ${typeof value}`;
  if (Array.isArray(value)) return "an array";
  const constructorName = (value as { constructor?: { name?: string } }).constructor?.name;
  return constructorName && constructorName !== "Object" ? `an instance of ${constructorName}` : "a plain object";
}

/** The public members of a StateGraph builder (any copy) that schemas fall back on. */
export interface StateBuilderLike {
  /** Every state channel by name (state, input and output annotations together). */
  channels?: Record<string, unknown>;
}

export function getStateBuilder(graph: CompiledGraphLike): StateBuilderLike | null {
  const builder = graph.builder;
  return typeof builder === "object" && builder !== null ? (builder as StateBuilderLike) : null;
}
