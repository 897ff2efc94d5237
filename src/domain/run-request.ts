import type { CronPayload } from "./cron.js";
import { InvalidInputError } from "./errors.js";
import type { JsonObject } from "./json.js";
import type { MultitaskStrategy, RunRequest, StreamMode } from "./run.js";
import { runCommandOf, runCommandProblem, type RunCommandDraft } from "./run-command.js";
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

/**
 * The defaults of a run request's scalar options, also what GraphQL's schema advertises as its
 * inputs' default values (so the schema cannot drift from what runRequestOf applies).
 */
export const RUN_REQUEST_DEFAULTS = {
  multitaskStrategy: "reject",
  ifNotExists: "reject",
  afterSeconds: 0,
  streamSubgraphs: false,
  streamResumable: false,
} as const satisfies Partial<RunCreateRequest>;

/** A cron's firing must never clobber a user's run on its thread: it queues behind it. */
export const CRON_MULTITASK_DEFAULT = "enqueue" satisfies MultitaskStrategy;

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
  [Key in Exclude<keyof RunCreateRequest, "threadId" | "assistantId" | "command">]?: RunCreateRequest[Key] | null;
} & { command?: RunCommandDraft | null };

/** The first rule a draft breaks, as the message every transport answers with; null when none. */
export function runRequestProblem(draft: RunRequestDraft): string | null {
  const commandProblem = draft.command == null ? null : runCommandProblem(draft.command);
  if (commandProblem) return commandProblem;
  const afterSeconds = draft.afterSeconds ?? 0;
  if (!(afterSeconds >= 0 && afterSeconds <= MAX_AFTER_SECONDS)) {
    return `after_seconds must be between 0 and ${MAX_AFTER_SECONDS} (a year), got ${afterSeconds}`;
  }
  return draft.webhook == null ? null : webhookProblem(draft.webhook);
}

/**
 * The complete request: checked (INVALID_INPUT naming the rule), then defaults for what was not
 * given. Defaults: stream `values`, multitask `reject`, an unknown thread is `reject`ed, start
 * now, no webhook, no command, empty context / config / metadata. A command wins over an input
 * sent with it, as on LangGraph's servers (agent-chat-ui resumes with `{"input": {}, "command":
 * {...}}`): the run keeps no input.
 */
export function runRequestOf(draft: RunRequestDraft): RunCreateRequest {
  const problem = runRequestProblem(draft);
  if (problem) throw new InvalidInputError(problem);
  return {
    threadId: draft.threadId,
    assistantId: draft.assistantId,
    input: draft.command == null ? (draft.input ?? null) : null,
    command: draft.command == null ? null : runCommandOf(draft.command),
    context: draft.context ?? {},
    config: draft.config ?? {},
    metadata: draft.metadata ?? {},
    // One mode asked for twice streams once.
    streamModes: [...new Set(draft.streamModes ?? DEFAULT_STREAM_MODES)],
    streamSubgraphs: draft.streamSubgraphs ?? RUN_REQUEST_DEFAULTS.streamSubgraphs,
    streamResumable: draft.streamResumable ?? RUN_REQUEST_DEFAULTS.streamResumable,
    interruptBefore: draft.interruptBefore ?? null,
    interruptAfter: draft.interruptAfter ?? null,
    checkpointId: draft.checkpointId ?? null,
    checkpointNs: draft.checkpointNs ?? null,
    webhook: draft.webhook ?? null,
    onCompletion: draft.onCompletion ?? null,
    durability: draft.durability ?? null,
    multitaskStrategy: draft.multitaskStrategy ?? RUN_REQUEST_DEFAULTS.multitaskStrategy,
    ifNotExists: draft.ifNotExists ?? RUN_REQUEST_DEFAULTS.ifNotExists,
    afterSeconds: draft.afterSeconds ?? RUN_REQUEST_DEFAULTS.afterSeconds,
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
    streamSubgraphs: given.streamSubgraphs ?? RUN_REQUEST_DEFAULTS.streamSubgraphs,
    streamResumable: given.streamResumable ?? RUN_REQUEST_DEFAULTS.streamResumable,
    interruptBefore: given.interruptBefore ?? null,
    interruptAfter: given.interruptAfter ?? null,
    webhook: given.webhook ?? null,
    multitaskStrategy: given.multitaskStrategy ?? CRON_MULTITASK_DEFAULT,
    durability: given.durability ?? null,
  };
}

/** The run-request rules a cron payload (or a patch of one) can break (it has no command and no delay). */
export function cronPayloadProblem(given: Partial<CronPayload>): string | null {
  return given.webhook == null ? null : webhookProblem(given.webhook);
}
