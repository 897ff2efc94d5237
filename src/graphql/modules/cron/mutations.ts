import type { CronPayload } from "../../../domain/cron.js";
import type { JsonObject } from "../../../domain/json.js";
import { CRON_MULTITASK_DEFAULT, cronPayloadOf } from "../../../domain/run-request.js";
import { cronsService, type UpdateCronInput } from "../../../services/crons.service.js";
import { builder } from "../../builder.js";
import { omitNull } from "../../input-values.js";
import { MultitaskStrategy, StreamMode } from "../run/run.js";
import { nodeListOf } from "../run/mutations.js";
import { CronRef, OnRunCompleted } from "./cron.js";

/** The payload fields both inputs share (GraphQL null → not given). */
interface PayloadInput {
  input?: unknown;
  context?: JsonObject | null;
  config?: JsonObject | null;
  streamMode?: CronPayload["streamModes"] | null;
  multitaskStrategy?: CronPayload["multitaskStrategy"] | null;
  webhook?: string | null;
  interruptBefore?: readonly string[] | null;
  interruptAfter?: readonly string[] | null;
}

/** Only the payload fields given: an update keeps the others. */
function payloadOf(input: PayloadInput): Partial<CronPayload> {
  return {
    input: input.input ?? undefined,
    context: omitNull(input.context),
    config: omitNull(input.config),
    streamModes: input.streamMode && input.streamMode.length > 0 ? [...new Set(input.streamMode)] : undefined,
    multitaskStrategy: omitNull(input.multitaskStrategy),
    webhook: omitNull(input.webhook),
    interruptBefore: nodeListOf(input.interruptBefore) ?? undefined,
    interruptAfter: nodeListOf(input.interruptAfter) ?? undefined,
  };
}

builder.relayMutationField(
  "createCron",
  {
    inputFields: (t) => ({
      threadId: t.id({ description: "The thread to run on; omitted or null: a stateless cron (a new thread per firing)." }),
      assistantId: t.id({ required: true, description: "An assistant UUID, or a deployed graph's name." }),
      schedule: t.string({ required: true, description: "5 fields: minute hour day-of-month month day-of-week." }),
      timezone: t.string({ description: "An IANA zone the schedule is read in; default UTC." }),
      input: t.field({ type: "JSON", description: "Sent as the run's input at every firing." }),
      context: t.field({ type: "JSONObject", description: "Overlaid key by key on the assistant's context at each firing." }),
      config: t.field({ type: "JSONObject" }),
      metadata: t.field({ type: "JSONObject", description: "The cron's; each firing's run carries it too, with cron_id." }),
      streamMode: t.field({ type: [StreamMode], description: "What each run's stream carries; default [VALUES]." }),
      multitaskStrategy: t.field({ type: MultitaskStrategy, defaultValue: CRON_MULTITASK_DEFAULT, description: "Thread crons, when the thread is busy." }),
      webhook: t.string({ description: "An http(s) URL, or a path on this server (`/…`, delivered to its custom routes), that receives each finished run." }),
      interruptBefore: t.stringList(),
      interruptAfter: t.stringList(),
      endTime: t.field({ type: "DateTime", description: "No firing after this instant; must be in the future." }),
      enabled: t.boolean({ defaultValue: true }),
      onRunCompleted: t.field({ type: OnRunCompleted, description: "Stateless crons only; default DELETE." }),
    }),
  },
  {
    description:
      "Creates a cron. INVALID_INPUT naming the field for a bad schedule, timezone or endTime; NOT_FOUND for an " +
      "unknown assistant or thread. A refused request creates nothing.",
    resolve: async (_root, { input }, ctx) => {
      const cron = await cronsService.create(ctx.services, {
        threadId: input.threadId ?? null,
        assistantId: input.assistantId,
        schedule: input.schedule,
        timezone: omitNull(input.timezone),
        metadata: omitNull(input.metadata),
        endTime: omitNull(input.endTime),
        enabled: omitNull(input.enabled),
        onRunCompleted: omitNull(input.onRunCompleted),
        payload: cronPayloadOf(payloadOf(input)),
      });
      return { cron };
    },
  },
  { outputFields: (t) => ({ cron: t.expose("cron", { type: CronRef }) }) },
);

builder.relayMutationField(
  "updateCron",
  {
    inputFields: (t) => ({
      cronId: t.id({ required: true }),
      schedule: t.string(),
      timezone: t.string(),
      input: t.field({ type: "JSON" }),
      context: t.field({ type: "JSONObject" }),
      config: t.field({ type: "JSONObject" }),
      metadata: t.field({ type: "JSONObject", description: "Replaces the cron's metadata." }),
      streamMode: t.field({ type: [StreamMode] }),
      multitaskStrategy: t.field({ type: MultitaskStrategy }),
      webhook: t.string(),
      interruptBefore: t.stringList(),
      interruptAfter: t.stringList(),
      endTime: t.field({ type: "DateTime" }),
      enabled: t.boolean(),
      onRunCompleted: t.field({ type: OnRunCompleted }),
    }),
  },
  {
    description:
      "Replaces the given fields; omitted ones stay. A new schedule, timezone, endTime or enabled re-plans the " +
      "next run from now (a disabled cron has none).",
    resolve: async (_root, { input }, ctx) => {
      const update: UpdateCronInput = {
        schedule: omitNull(input.schedule),
        timezone: omitNull(input.timezone),
        metadata: omitNull(input.metadata),
        endTime: omitNull(input.endTime),
        enabled: omitNull(input.enabled),
        onRunCompleted: omitNull(input.onRunCompleted),
        payload: payloadOf(input),
      };
      return { cron: await cronsService.update(ctx.services, input.cronId, update) };
    },
  },
  { outputFields: (t) => ({ cron: t.expose("cron", { type: CronRef }) }) },
);

builder.relayMutationField(
  "deleteCron",
  {
    inputFields: (t) => ({ cronId: t.id({ required: true }) }),
  },
  {
    description: "Deletes the cron: it fires no more. The runs it queued stay (they are ordinary runs).",
    resolve: async (_root, { input }, ctx) => {
      await cronsService.delete(ctx.services, input.cronId);
      return { cronId: input.cronId.toLowerCase() };
    },
  },
  {
    outputFields: (t) => ({
      deletedCronId: t.exposeID("cronId"),
      deletedId: t.globalID({
        description: "The deleted cron's global id, for client caches.",
        resolve: (payload) => ({ type: CronRef, id: payload.cronId }),
      }),
    }),
  },
);
