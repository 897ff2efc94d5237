import { randomUUID } from "node:crypto";
import { TaskState, type AgentCard, type Message, type SendMessageRequest, type StreamResponse, type Task } from "@a2a-js/sdk";
import {
  A2AError,
  ExtendedAgentCardNotConfiguredError,
  PushNotificationNotSupportedError,
  RequestMalformedError,
  TaskNotCancelableError,
  TaskNotFoundError,
  UnsupportedOperationError,
} from "@a2a-js/sdk/errors";
import type { A2ARequestHandler } from "@a2a-js/sdk/server";
import { asUnavailableError } from "../db/connection-loss.js";
import type { Assistant } from "../domain/assistant.js";
import { AppError, coerceError } from "../domain/errors.js";
import { isRunFinished, type Run } from "../domain/run.js";
import { agentCallsService } from "../services/agent-calls.service.js";
import { runResultsService } from "../services/run-results.service.js";
import { cancelRuns } from "../services/run-lifecycle/cancel-run.js";
import { runsService } from "../services/runs.service.js";
import type { ServiceContext } from "../services/service-context.js";
import { agentMessage, CONTEXT_KEY, contextIdOf, graphInputOf, MESSAGE_KEY, taskOf, taskStateOf, type RunEnd } from "./a2a-tasks.js";

// How long tasks/cancel waits for a running run's worker to stop it before answering.
const CANCEL_WAIT_MS = 5_000;

/**
 * The SDK's request-handler interface implemented over Hangar's runs service, for one request
 * of one caller to one assistant (the SDK's JSON-RPC transport handlers parse and answer the
 * protocol). Not the SDK's DefaultRequestHandler: that keeps tasks and their live event buses in
 * this process's memory, whereas here a task is a run in PostgreSQL, so a task can be read or
 * cancelled from any Hangar process, after a restart too, and is listed like any run.
 */
export class RunsA2AHandler implements A2ARequestHandler {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly assistant: Assistant,
    private readonly card: AgentCard,
    private readonly runHeaders: Record<string, string>,
  ) {}

  async getAgentCard(): Promise<AgentCard> {
    return this.card;
  }

  async getAuthenticatedExtendedAgentCard(): Promise<AgentCard> {
    throw new ExtendedAgentCardNotConfiguredError("This agent has no extended card");
  }

  /** message/send: a run on the context's thread; answers when it ends (or at once, returnImmediately). */
  async sendMessage(params: SendMessageRequest): Promise<Message | Task> {
    return this.guard(async () => {
      const run = await this.startRun(params);
      if (params.configuration?.returnImmediately) return taskOf(run, null);
      const end = await agentCallsService.readToEnd(this.ctx, run);
      return taskOf(end.run, end, params.configuration?.historyLength);
    });
  }

  /**
   * message/stream: the task, `working` when the run starts and after each graph step (naming the
   * nodes), then the output artifact and the final status with the reply.
   */
  async *sendMessageStream(params: SendMessageRequest): AsyncGenerator<StreamResponse, void, undefined> {
    const run = await this.guard(() => this.startRun(params));
    yield* this.followRun(run);
  }

  async getTask(params: { id: string; historyLength?: number }): Promise<Task> {
    return this.guard(async () => {
      const run = await this.findRun(params.id);
      return taskOf(run, await this.endOf(run), params.historyLength);
    });
  }

  async cancelTask(params: { id: string }): Promise<Task> {
    return this.guard(async () => {
      const run = await this.findRun(params.id);
      if (isRunFinished(run.status)) throw new TaskNotCancelableError(`Task ${run.runId} already ended (${taskStateName(run)})`);
      await cancelRuns(this.ctx, { runIds: [run.runId], action: "interrupt" });
      // A running run stops when its worker sees the request; its task is answered once it has.
      const ended = (await runResultsService.waitForEnd(this.ctx, run.runId, AbortSignal.timeout(CANCEL_WAIT_MS))) ?? run;
      return taskOf(ended, isRunFinished(ended.status) ? await this.endOf(ended) : null);
    });
  }

  /** tasks/resubscribe: the stream of a task still running (or the end of a finished one). */
  async *resubscribe(params: { id: string }): AsyncGenerator<StreamResponse, void, undefined> {
    const run = await this.guard(() => this.findRun(params.id));
    yield* this.followRun(run);
  }

  async listTasks(): Promise<never> {
    throw new UnsupportedOperationError("tasks/list is not supported: list the thread's runs through Hangar's REST or GraphQL API");
  }

  async createTaskPushNotificationConfig(): Promise<never> {
    throw new PushNotificationNotSupportedError("Push notifications are not supported");
  }

  async getTaskPushNotificationConfig(): Promise<never> {
    throw new PushNotificationNotSupportedError("Push notifications are not supported");
  }

  async listTaskPushNotificationConfigs(): Promise<never> {
    throw new PushNotificationNotSupportedError("Push notifications are not supported");
  }

  async deleteTaskPushNotificationConfig(): Promise<never> {
    throw new PushNotificationNotSupportedError("Push notifications are not supported");
  }

  private async startRun(params: SendMessageRequest): Promise<Run> {
    const input = graphInputOf(params.message);
    const message = params.message!;
    if (message.taskId) {
      // Each message is a run of its own: a task (run) is never continued, the context is.
      const run = await this.findRun(message.taskId);
      throw new UnsupportedOperationError(`Task ${run.runId} cannot take more messages; send the next message with contextId '${message.contextId || contextIdOf(run)}' and no taskId`);
    }
    const contextId = message.contextId || randomUUID();
    try {
      return await agentCallsService.startInConversation(this.ctx, {
        assistantId: this.assistant.assistantId,
        contextId,
        input,
        headers: this.runHeaders,
        metadata: { source: "a2a", [CONTEXT_KEY]: contextId, [MESSAGE_KEY]: message.messageId || randomUUID() },
      });
    } catch (error) {
      // The context's thread exists but is not the caller's (custom auth): a bad contextId.
      if (error instanceof AppError && error.code === "NOT_FOUND") {
        throw new RequestMalformedError(`contextId '${contextId}' names a conversation this caller cannot see (${error.message})`);
      }
      throw error;
    }
  }

  private async *followRun(run: Run): AsyncGenerator<StreamResponse, void, undefined> {
    const first = taskOf(run, null);
    yield { payload: { $case: "task", value: first } };
    if (isRunFinished(run.status)) {
      yield statusUpdate(taskOf(run, await this.guard(() => this.endOf(run))));
      return;
    }
    const events = agentCallsService.followRun(this.ctx, run);
    let started = false;
    let steps = 0;
    for (;;) {
      const next = await this.guard(() => events.next());
      if (next.done) {
        const task = taskOf(next.value.run, next.value);
        if (task.artifacts[0]) {
          yield { payload: { $case: "artifactUpdate", value: { taskId: task.id, contextId: task.contextId, artifact: task.artifacts[0], append: false, lastChunk: true, metadata: undefined } } };
        }
        yield statusUpdate(task);
        return;
      }
      // The run's first event: it has started. Then one `working` update per graph step.
      if (!started) {
        started = true;
        yield statusUpdate(working(first));
      }
      if (next.value.event === "updates") {
        steps += 1;
        yield statusUpdate(working(first, agentMessage(`step ${steps}: ${nodesOf(next.value.data)}`, first)));
      }
    }
  }

  /** A run of this assistant the caller may read; anything else is "task not found". */
  private async findRun(taskId: unknown): Promise<Run> {
    // Params arrive as the client sent them: a missing or non-string id is invalid params (-32602).
    if (typeof taskId !== "string" || !taskId.trim()) throw new RequestMalformedError("A task id is required: params.id must be a non-empty string");
    try {
      const run = await runsService.get(this.ctx, null, taskId);
      if (run.assistantId === this.assistant.assistantId) return run;
    } catch (error) {
      if (!(error instanceof AppError && error.code === "NOT_FOUND")) throw error;
    }
    throw new TaskNotFoundError(`Task ${taskId} not found for agent ${this.assistant.assistantId}`);
  }

  /** What a finished run's stream left: its last values and error (stored events, replayed). */
  private async endOf(run: Run): Promise<RunEnd | null> {
    if (!isRunFinished(run.status)) return null;
    return agentCallsService.readToEnd(this.ctx, run);
  }

  /**
   * Service refusals as A2A errors naming the cause (bad input → invalid params, missing → task
   * not found); anything unexpected is logged and answered without its details.
   */
  private async guard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof A2AError) throw error;
      if (error instanceof AppError && error.code !== "INTERNAL" && error.code !== "UNAVAILABLE") {
        if (error.code === "NOT_FOUND") throw new TaskNotFoundError(error.message);
        if (error.code === "INVALID_INPUT") throw new RequestMalformedError(error.message);
        throw new UnsupportedOperationError(error.message);
      }
      // A lost database connection (classified as REST does) is worth a retry; say so.
      const unavailable = (error instanceof AppError && error.code === "UNAVAILABLE") || asUnavailableError(error) !== null;
      this.ctx.log.error({ err: coerceError(error) }, "A2A request failed");
      throw new Error(unavailable ? "Service unavailable; retry shortly" : "Internal error");
    }
  }
}

function statusUpdate(task: Task): StreamResponse {
  return { payload: { $case: "statusUpdate", value: { taskId: task.id, contextId: task.contextId, status: task.status, metadata: undefined } } };
}

function working(task: Task, message?: Message): Task {
  return { ...task, status: { state: TaskState.TASK_STATE_WORKING, message, timestamp: new Date().toISOString() } };
}

/** The nodes an `updates` event reports ({node: update}), for progress messages. */
function nodesOf(data: string): string {
  try {
    const update: unknown = JSON.parse(data);
    return typeof update === "object" && update !== null ? Object.keys(update).join(", ") : "update";
  } catch {
    return "update";
  }
}

function taskStateName(run: Run): string {
  return TaskState[taskStateOf(run.status)] ?? run.status;
}
