import type { CronPayload } from "./cron.js";
import { InvalidInputError } from "./errors.js";
import type { JsonObject } from "./json.js";
import type { RunRequest, StreamMode } from "./run.js";
import { webhookProblem } from "./webhook.js";

/**
 * The rules of a run request, once for every transport (REST, GraphQL, cron definitions): what
 * may be combined, the bounds, and the defaults of what was not given. Transports only map their
 * wire names into a draft and hand it here, so the same bad request gets the same error from each.
 */

/** after_seconds is at most a year (LangGraph Platform's bound). */
export const MAX_AFTER_SECONDS = 31_536_000;

/** A run streams its state's values unless it asks for other modes. */
export const DEFAULT_STREAM_MODES: readonly StreamMode[] = ["values"];

/** What a run on a thread id that does not exist does. */
export type IfNotExists = "create" | "reject";

/** A complete run request in domain terms: what run creation (create-run.ts) takes. */
export interface RunCreateRequest extends RunRequest {
  /** null: a stateless run on a temporary thread. */
  threadId: string | null;
  /** An assistant id or a graph name. */
  assistantId: string;
  metadata: JsonObject;
  /** Stateless runs only: what happens to their temporary thread afterwards (null: the default, delete). */
  onCompletion: "delete" | "keep" | null;
  ifNotExists: IfNotExists;
  afterSeconds: number;
}

/**
 * A run request as a transport received it: `undefined` (or null) is "not given". Shapes are the
 * transport's to check (a string where a number belongs); the rules between fields are here.
 */
export type RunRequestDraft = Pick<RunCreateRequest, "threadId" | "assistantId"> & {
  [Key in Exclude<keyof RunCreateRequest, "threadId" | "assistantId">]?: RunCreateRequest[Key] | null;
};

/** The first rule a draft breaks, as the message every transport answers with; null when none. */
export function runRequestProblem(draft: RunRequestDraft): string | null {
  if (draft.input != null && draft.command != null) return "send either input or command, not both";
  const afterSeconds = draft.afterSeconds ?? 0;
  if (!(afterSeconds >= 0 && afterSeconds <= MAX_AFTER_SECONDS)) {
    return `after_seconds must be between 0 and ${MAX_AFTER_SECONDS} (a year), got ${afterSeconds}`;
  }
  return draft.webhook == null ? null : webhookProblem(draft.webhook);
}

/**
 * The complete request: checked (INVALID_INPUT naming the rule), then defaults for what was not
 * given. Defaults: stream `values`, multitask `reject`, an unknown thread is `reject`ed, start
 * now, no webhook, no command, empty context / config / metadata.
 */
export function runRequestOf(draft: RunRequestDraft): RunCreateRequest {
  const problem = runRequestProblem(draft);
  if (problem) throw new InvalidInputError(problem);
  return {
    threadId: draft.threadId,
    assistantId: draft.assistantId,
    input: draft.input ?? null,
    command: draft.command ?? null,
    context: draft.context ?? {},
    config: draft.config ?? {},
    metadata: draft.metadata ?? {},
    // One mode asked for twice streams once.
    streamModes: [...new Set(draft.streamModes ?? DEFAULT_STREAM_MODES)],
    streamSubgraphs: draft.streamSubgraphs ?? false,
    streamResumable: draft.streamResumable ?? false,
    interruptBefore: draft.interruptBefore ?? null,
    interruptAfter: draft.interruptAfter ?? null,
    checkpointId: draft.checkpointId ?? null,
    checkpointNs: draft.checkpointNs ?? null,
    webhook: draft.webhook ?? null,
    onCompletion: draft.onCompletion ?? null,
    durability: draft.durability ?? null,
    multitaskStrategy: draft.multitaskStrategy ?? "reject",
    ifNotExists: draft.ifNotExists ?? "reject",
    afterSeconds: draft.afterSeconds ?? 0,
  };
}

/**
 * A cron's stored run request (what each firing runs) from the fields given, with a run's
 * defaults except one: multitask `enqueue`, because a firing must never clobber a user's run on
 * the thread. Its rules (cronPayloadProblem) are checked by the crons service, after the
 * schedule's, for creation and patches alike.
 */
export function cronPayloadOf(given: Partial<CronPayload>): CronPayload {
  return {
    input: given.input ?? null,
    context: given.context ?? {},
    config: given.config ?? {},
    streamModes: [...new Set(given.streamModes ?? DEFAULT_STREAM_MODES)],
    streamSubgraphs: given.streamSubgraphs ?? false,
    streamResumable: given.streamResumable ?? false,
    interruptBefore: given.interruptBefore ?? null,
    interruptAfter: given.interruptAfter ?? null,
    webhook: given.webhook ?? null,
    multitaskStrategy: given.multitaskStrategy ?? "enqueue",
    durability: given.durability ?? null,
  };
}

/** The run-request rules a cron payload (or a patch of one) can break (it has no command and no delay). */
export function cronPayloadProblem(given: Partial<CronPayload>): string | null {
  return given.webhook == null ? null : webhookProblem(given.webhook);
}
