import type { z } from "zod";
import type { Assistant, AssistantVersion } from "../domain/assistant.js";
import type { JsonObject } from "../domain/json.js";
import type { Thread } from "../domain/thread.js";
import type {
  CreateAssistantInput,
  SearchAssistantsInput,
  UpdateAssistantInput,
} from "../services/assistants.service.js";
import type { CreateThreadInput, SearchThreadsInput } from "../services/threads.service.js";
import type {
  AssistantCountRequest,
  AssistantCreate,
  AssistantPatch,
  AssistantSearchRequest,
} from "./schemas/assistants.js";
import type { ThreadCountRequest, ThreadCreate, ThreadSearchRequest } from "./schemas/threads.js";

/**
 * The REST wire format: snake_case, ISO 8601 timestamps. Domain objects are mapped here on the
 * way out and parsed request payloads on the way in; nothing else in rest/ renames fields.
 */

export interface AssistantWire {
  assistant_id: string;
  graph_id: string;
  name: string;
  description: string | null;
  config: JsonObject;
  context: JsonObject;
  metadata: JsonObject;
  version: number;
  created_at: string;
  updated_at: string;
}

export type AssistantVersionWire = Omit<AssistantWire, "updated_at">;

export interface ThreadWire {
  thread_id: string;
  created_at: string;
  updated_at: string;
  state_updated_at: string;
  metadata: JsonObject;
  status: Thread["status"];
  config: JsonObject;
  /** As the graph left them: any JSON value (as LangGraph's server answers), null before any run. */
  values: unknown;
  interrupts: JsonObject;
  error: Thread["error"];
}

export function assistantVersionToWire(version: AssistantVersion): AssistantVersionWire {
  return {
    assistant_id: version.assistantId,
    graph_id: version.graphId,
    name: version.name,
    description: version.description,
    config: version.config,
    context: version.context,
    metadata: version.metadata,
    version: version.version,
    created_at: version.createdAt.toISOString(),
  };
}

export function assistantToWire(assistant: Assistant): AssistantWire {
  return { ...assistantVersionToWire(assistant), updated_at: assistant.updatedAt.toISOString() };
}

export function threadToWire(thread: Thread): ThreadWire {
  return {
    thread_id: thread.threadId,
    created_at: thread.createdAt.toISOString(),
    updated_at: thread.updatedAt.toISOString(),
    state_updated_at: thread.stateUpdatedAt.toISOString(),
    metadata: thread.metadata,
    status: thread.status,
    config: thread.config,
    values: thread.values,
    interrupts: thread.interrupts,
    error: thread.error,
  };
}

/** `select` on search: only the named fields (names absent from the object are skipped). */
export function selectFields<Wire extends object>(wire: Wire, select: readonly string[] | undefined): Partial<Wire> {
  if (!select?.length) return wire;
  return Object.fromEntries(Object.entries(wire).filter(([key]) => select.includes(key))) as Partial<Wire>;
}

export function createAssistantFromWire(body: z.infer<typeof AssistantCreate>): CreateAssistantInput {
  return {
    graphId: body.graph_id,
    assistantId: body.assistant_id,
    ifExists: body.if_exists,
    name: body.name,
    description: body.description,
    config: body.config,
    context: body.context,
    metadata: body.metadata,
  };
}

export function updateAssistantFromWire(body: z.infer<typeof AssistantPatch>): UpdateAssistantInput {
  return {
    graphId: body.graph_id,
    name: body.name,
    description: body.description,
    config: body.config,
    context: body.context,
    metadata: body.metadata,
  };
}

export function assistantFilterFromWire(body: z.infer<typeof AssistantCountRequest>) {
  return { graphId: body.graph_id, name: body.name, metadata: body.metadata, config: body.config };
}

export function searchAssistantsFromWire(body: z.infer<typeof AssistantSearchRequest>): SearchAssistantsInput {
  const { limit, offset, sort_by: sortBy, sort_order: sortOrder } = body;
  return { ...assistantFilterFromWire(body), limit, offset, sortBy, sortOrder };
}

export function createThreadFromWire(body: z.infer<typeof ThreadCreate>): CreateThreadInput {
  return { threadId: body.thread_id, metadata: body.metadata, ifExists: body.if_exists, ttlMinutes: body.ttl?.ttl };
}

export function threadFilterFromWire(body: z.infer<typeof ThreadCountRequest>) {
  return { metadata: body.metadata, values: body.values, status: body.status };
}

export function searchThreadsFromWire(body: z.infer<typeof ThreadSearchRequest>): SearchThreadsInput {
  const { ids, limit, offset, sort_by: sortBy, sort_order: sortOrder, extract } = body;
  return { ...threadFilterFromWire(body), ids, limit, offset, sortBy, sortOrder, extract };
}
