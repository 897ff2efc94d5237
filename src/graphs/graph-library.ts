import { Command as OwnCommand, Send as OwnSend } from "@langchain/langgraph";
import { gotoTargetsOf, type RunCommandDraft } from "../domain/run-command.js";
import { NOT_FOUND_CODES } from "./graph-schemas.js";

/**
 * The LangGraph classes Hangar builds objects from when it hands them to a graph, taken from the
 * copy of @langchain/langgraph the graph's module resolves. A deployment with its own
 * node_modules has its own copy, and LangGraph and LangChain check these with `instanceof`:
 * Pregel runs only Sends of its own copy (`In Command.send, expected Send or string`), and a
 * createAgent with middleware treats a Command of another copy as new state (it calls the model
 * again instead of resuming the interrupted tool call).
 */
export interface GraphLibrary {
  Command: new (args: { resume?: unknown; update?: unknown; goto?: unknown }) => unknown;
  Send: new (node: string, args: unknown) => unknown;
}

/** Hangar's own copy: for graphs that resolve no LangGraph of their own (or the same one). */
export const OWN_GRAPH_LIBRARY = { Command: OwnCommand, Send: OwnSend } as GraphLibrary;

/**
 * The classes of the LangGraph copy a graph module resolves (`importFrom` imports a specifier as
 * that module would: the same instance it got). Where it resolves none, Hangar's are used; any
 * other failure is reported through `onProblem` first, since commands may then fail in the graph.
 */
export async function loadGraphLibrary(
  importFrom: (specifier: string) => Promise<Record<string, unknown>>,
  onProblem: (error: Error) => void = () => {},
): Promise<GraphLibrary> {
  try {
    const module = await importFrom("@langchain/langgraph");
    const { Command, Send } = module;
    if (typeof Command === "function" && typeof Send === "function") return { Command, Send } as GraphLibrary;
    return OWN_GRAPH_LIBRARY;
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (typeof code !== "string" || !NOT_FOUND_CODES.has(code)) {
      onProblem(error instanceof Error ? error : new Error(String(error), { cause: error }));
    }
    return OWN_GRAPH_LIBRARY;
  }
}

/** A run's (or a superstep's) command as a Command of the graph's own LangGraph copy. */
export function toGraphCommand(library: GraphLibrary, command: RunCommandDraft): unknown {
  const goto = gotoTargetsOf(command).map((target) =>
    typeof target === "string" ? target : new library.Send(target.node, target.input),
  );
  return new library.Command({
    resume: command.resume ?? undefined,
    update: command.update ?? undefined,
    goto: goto.length > 0 ? goto : undefined,
  });
}
