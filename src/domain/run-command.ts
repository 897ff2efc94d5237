import { isJsonObject, type JsonObject } from "./json.js";

/**
 * A run's `command`, as LangGraph's servers take it: resume an `interrupt()`, update the state,
 * go to nodes. Clients send it in several spellings (the SDK's `{resume, update, goto}`,
 * RemoteGraph's `Command.toJSON()` with `lg_name` and Sends carrying `args`): these rules accept
 * every one of them and keep one normalized form, which the worker turns into the graph's own
 * LangGraph Command (graphs/graph-library.ts).
 */

/** Runs `node` with `input` as its state (LangGraph's Send). */
export interface RunSend {
  node: string;
  input: unknown;
}

export type RunGoto = string | RunSend;

export interface RunCommand {
  resume?: unknown;
  /** Channel values, or [channel, value] pairs (LangGraph takes both). */
  update?: JsonObject | Array<[string, unknown]>;
  goto?: RunGoto | RunGoto[];
}

/** A command as a transport received it: the known fields, not yet checked. */
export interface RunCommandDraft {
  resume?: unknown;
  update?: unknown;
  goto?: unknown;
}

/** LangGraph's own start node: a command cannot go back to it (LangGraph ignores it silently). */
const START_NODE = "__start__";
/** LangGraph's end: `goto: "__end__"` is accepted (nothing more runs); a Send cannot target it. */
const END_NODE = "__end__";

/**
 * The first problem with a command, naming its field; null when LangGraph would take it.
 * LangGraph refuses a command that writes nothing ("Received empty Command input": no resume
 * other than null, no update entry, no goto target) and an update that is not channel values.
 */
export function runCommandProblem(command: RunCommandDraft): string | null {
  const { resume, update, goto } = command;
  if (update != null && !isJsonObject(update) && !isUpdatePairs(update)) {
    return "command.update must be an object of channel values or a list of [channel, value] pairs";
  }
  if (goto != null) {
    const targets = Array.isArray(goto) ? goto : [goto];
    for (const [index, target] of targets.entries()) {
      const field = Array.isArray(goto) ? `command.goto[${index}]` : "command.goto";
      const problem = gotoTargetProblem(target);
      if (problem) return `${field} ${problem}`;
    }
  }
  const updates = update == null ? 0 : Array.isArray(update) ? update.length : Object.keys(update).length;
  if (resume == null && updates === 0 && gotoTargetsOf(command).length === 0) {
    return "command is empty: give resume (not null), update or goto";
  }
  return null;
}

/** The command in its normalized form (call after runCommandProblem found nothing). */
export function runCommandOf(command: RunCommandDraft): RunCommand {
  const normalized: RunCommand = {};
  if (command.resume !== undefined) normalized.resume = command.resume;
  if (command.update != null) normalized.update = command.update as RunCommand["update"];
  if (command.goto != null) {
    normalized.goto = Array.isArray(command.goto) ? gotoTargetsOf(command) : gotoTargetsOf(command)[0];
  }
  return normalized;
}

/**
 * The nodes a command goes to, as a list. Also reads commands stored before they were
 * normalized (a Send with `args`), so a queued run from an older version still runs.
 */
export function gotoTargetsOf(command: RunCommandDraft): RunGoto[] {
  if (command.goto == null) return [];
  const targets: unknown[] = Array.isArray(command.goto) ? command.goto : [command.goto];
  return targets.map((target) => {
    if (!isJsonObject(target)) return String(target);
    return { node: String(target.node), input: "input" in target ? target.input : target.args };
  });
}

/**
 * Whether every node a command goes to exists in the graph (`nodes`: its node names, as the
 * compiled graph lists them). LangGraph would skip an unknown one silently and report success.
 */
export function commandTargetsProblem(command: RunCommand, nodes: readonly string[]): string | null {
  const known = nodes.filter((node) => node !== START_NODE);
  for (const target of gotoTargetsOf(command)) {
    const node = typeof target === "string" ? target : target.node;
    const isKnown = known.includes(node) || (typeof target === "string" && node === END_NODE);
    if (!isKnown) return `command.goto names the unknown node '${node}' (the graph's nodes: ${known.join(", ")})`;
  }
  return null;
}

function gotoTargetProblem(target: unknown): string | null {
  if (typeof target === "string") return target.length > 0 ? null : "must not be an empty node name";
  if (!isJsonObject(target)) return "must be a node name or a Send ({node, input})";
  if (target.lg_name !== undefined && target.lg_name !== "Send") return `is a ${String(target.lg_name)}, not a Send ({node, input})`;
  if (typeof target.node !== "string" || target.node.length === 0) return "is a Send without a node name";
  if (!("input" in target) && !("args" in target)) return "is a Send without input";
  return null;
}

function isUpdatePairs(update: unknown): update is Array<[string, unknown]> {
  return Array.isArray(update) && update.every((pair) => Array.isArray(pair) && pair.length === 2 && typeof pair[0] === "string");
}
