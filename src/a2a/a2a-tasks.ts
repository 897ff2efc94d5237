import { randomUUID } from "node:crypto";
import { Role, TaskState, type Artifact, type Message, type Part, type Task } from "@a2a-js/sdk";
import { ContentTypeNotSupportedError, RequestMalformedError } from "@a2a-js/sdk/errors";
import type { Run, RunStatus } from "../domain/run.js";
import { lastAiMessageText } from "../services/agent-calls.service.js";

/**
 * A2A's task model over Hangar's runs: a task is a run (task id = run id), its context is the
 * run's thread (the contextId the client sent is kept in the run's metadata), a user message is
 * the graph's `messages` input, and the output's last AI message is the reply.
 */

/** Run metadata keys that remember the A2A side of a run. */
export const CONTEXT_KEY = "a2a_context_id";
export const MESSAGE_KEY = "a2a_message_id";

const STATE_OF_RUN: Record<RunStatus, TaskState> = {
  pending: TaskState.TASK_STATE_SUBMITTED,
  running: TaskState.TASK_STATE_WORKING,
  success: TaskState.TASK_STATE_COMPLETED,
  error: TaskState.TASK_STATE_FAILED,
  timeout: TaskState.TASK_STATE_FAILED,
  interrupted: TaskState.TASK_STATE_CANCELED,
};

export function taskStateOf(status: RunStatus): TaskState {
  return STATE_OF_RUN[status];
}

/**
 * The graph input for a user message: its text parts and data parts (as JSON text), in order,
 * make one user message. Files and empty messages are refused before anything runs.
 */
export function graphInputOf(message: Message | undefined): { messages: Array<{ role: "user"; content: string }> } {
  if (!message) throw new RequestMalformedError("params.message is required");
  if (message.parts.length === 0) throw new RequestMalformedError("params.message.parts is empty: send at least one text or data part");
  const texts = message.parts.map((part, index) => {
    const content = part.content;
    if (content?.$case === "text") return content.value;
    if (content?.$case === "data") return JSON.stringify(content.value);
    if (content === undefined) throw new RequestMalformedError(`params.message.parts[${index}] has no text, data, raw or url`);
    throw new ContentTypeNotSupportedError(`params.message.parts[${index}] is a ${content.$case} (file) part; this agent takes text and data parts`);
  });
  return { messages: [{ role: "user", content: texts.join("\n") }] };
}

function textPart(text: string): Part {
  return { content: { $case: "text", value: text }, metadata: undefined, filename: "", mediaType: "text/plain" };
}

export function agentMessage(text: string, task: { id: string; contextId: string }): Message {
  return {
    messageId: randomUUID(),
    contextId: task.contextId,
    taskId: task.id,
    role: Role.ROLE_AGENT,
    parts: [textPart(text)],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

/** The user message a run was created from, rebuilt from its stored input. */
function userMessageOf(run: Run, contextId: string): Message | null {
  const input = run.kwargs.input as { messages?: Array<{ content?: unknown }> } | null;
  const content = input?.messages?.at(-1)?.content;
  if (typeof content !== "string") return null;
  const messageId = run.metadata[MESSAGE_KEY];
  return {
    messageId: typeof messageId === "string" ? messageId : run.runId,
    contextId,
    taskId: run.runId,
    role: Role.ROLE_USER,
    parts: [textPart(content)],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

export function contextIdOf(run: Run): string {
  const contextId = run.metadata[CONTEXT_KEY];
  return typeof contextId === "string" ? contextId : run.threadId;
}

export interface RunEnd {
  values: Record<string, unknown>;
  error: { error?: string; message?: string } | null;
}

/** The reply a finished run gives: the last AI message, or the error of a failed run. */
export function replyText(run: Run, end: RunEnd): string | null {
  if (end.error) return `${end.error.error ?? "Error"}: ${end.error.message ?? ""}`;
  if (run.status === "interrupted") return null;
  return lastAiMessageText(end.values) ?? (Object.keys(end.values).length > 0 ? JSON.stringify(end.values) : null);
}

/** A run as an A2A task; `end` (what its stream left) only for finished runs. */
export function taskOf(run: Run, end: RunEnd | null, historyLength?: number): Task {
  const contextId = contextIdOf(run);
  const reply = end ? replyText(run, end) : null;
  const replyMessage = reply === null ? undefined : agentMessage(reply, { id: run.runId, contextId });
  const history = [userMessageOf(run, contextId), replyMessage ?? null].filter((message): message is Message => message !== null);
  const artifacts: Artifact[] =
    replyMessage && run.status === "success"
      ? [{ artifactId: `${run.runId}-output`, name: "output", description: "", parts: replyMessage.parts, metadata: undefined, extensions: [] }]
      : [];
  return {
    id: run.runId,
    contextId,
    status: { state: taskStateOf(run.status), message: replyMessage, timestamp: run.updatedAt.toISOString() },
    artifacts,
    history: historyLength === undefined ? history : historyLength <= 0 ? [] : history.slice(-historyLength),
    metadata: { thread_id: run.threadId, assistant_id: run.assistantId },
  };
}
