import { isPlainObject } from "./json-diff.js";

/**
 * LangGraph's prebuilt HumanInterrupt (also Agent Inbox's): a node calls
 * `interrupt([{action_request: {action, args}, config: {allow_accept, allow_edit, allow_respond,
 * allow_ignore}, description}])` and resumes with a HumanResponse per request:
 * `{type: "accept" | "edit" | "response" | "ignore", args}`.
 */
export interface HumanInterrupt {
  action: string;
  args: Record<string, unknown>;
  description: string | null;
  allow: { accept: boolean; edit: boolean; respond: boolean; ignore: boolean };
}

export type HumanResponse =
  | { type: "accept"; args: null }
  | { type: "edit"; args: { action: string; args: Record<string, unknown> } }
  | { type: "response"; args: string }
  | { type: "ignore"; args: null };

function readOne(value: unknown): HumanInterrupt | null {
  if (!isPlainObject(value) || !isPlainObject(value.action_request) || !isPlainObject(value.config)) return null;
  const { action, args } = value.action_request;
  if (typeof action !== "string") return null;
  const config = value.config;
  return {
    action,
    args: isPlainObject(args) ? args : {},
    description: typeof value.description === "string" ? value.description : null,
    allow: {
      accept: config.allow_accept === true,
      edit: config.allow_edit === true,
      respond: config.allow_respond === true,
      ignore: config.allow_ignore === true,
    },
  };
}

/** The request an interrupt value carries, and whether the graph expects a list of responses. */
export function readHumanInterrupt(value: unknown): { request: HumanInterrupt; asList: boolean } | null {
  if (Array.isArray(value)) {
    const request = value.length === 1 ? readOne(value[0]) : null;
    return request ? { request, asList: true } : null;
  }
  const request = readOne(value);
  return request ? { request, asList: false } : null;
}

/** The resume value for a response: wrapped in a list when the request came as one. */
export function resumeValue(response: HumanResponse, asList: boolean): unknown {
  return asList ? [response] : response;
}
