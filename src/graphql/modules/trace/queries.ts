import { resolveCursorConnection, type DefaultConnectionArguments } from "@pothos/plugin-relay";
import { InvalidInputError } from "../../../domain/errors.js";
import { tracesService, type QueryTraceRunsInput } from "../../../services/traces.service.js";
import { encodeTraceCursor } from "../../../services/traces/trace-cursor.js";
import type { TraceRun, TraceTree } from "../../../domain/trace-run.js";
import { builder } from "../../builder.js";
import type { GraphqlContext } from "../../context.js";
import { omitNull } from "../../input-values.js";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "../../pagination.js";
import { TraceFeedbackFilterInput } from "./feedback.js";
import { TraceRef, TraceRunRef } from "./trace-run.js";

/** The `traces` filter arguments, as the service takes them. */
type TraceRunFilterArgs = Omit<QueryTraceRunsInput, "limit" | "cursor" | "offset" | "order">;

/**
 * A connection page of runs, newest first, over the service's keyset cursors: (start time, id)
 * positions rather than offsets, so pages stay put while new runs arrive. Paging backwards
 * (`last`/`before`) reads the other way and reverses. `after` and `before` together are not
 * supported (a keyset page has one bound).
 */
async function resolveTraceRunPage(ctx: GraphqlContext, args: DefaultConnectionArguments, filter: TraceRunFilterArgs) {
  if (args.after != null && args.before != null) throw new InvalidInputError("traces: give after or before, not both");
  const { startTimeFrom, startTimeTo, ...rest } = filter;
  const connection = await resolveCursorConnection<Promise<TraceRun[]>>(
    { args, defaultSize: DEFAULT_PAGE_SIZE, maxSize: MAX_PAGE_SIZE, toCursor: (run: TraceRun) => encodeTraceCursor(run) },
    async ({ after, before, limit, inverted }): Promise<TraceRun[]> => {
      const page = await tracesService.query(ctx.services, {
        ...rest,
        startTimeFrom,
        startTimeTo,
        limit,
        cursor: inverted ? before : after,
        order: inverted ? "asc" : "desc",
      });
      return page.runs;
    },
  );
  let total: Promise<number> | undefined;
  return { ...connection, totalCount: () => (total ??= tracesService.count(ctx.services, filter)) };
}

/** An empty tag list filters nothing (rather than matching no run or every run). */
function nonEmpty(values: readonly string[] | null | undefined): string[] | undefined {
  return values && values.length > 0 ? [...values] : undefined;
}

/** The tree's runs and child lists go into the request's loaders: walking the tree costs no query. */
function primeLoaders(ctx: GraphqlContext, tree: TraceTree): TraceTree {
  const childIds = new Map<string, string[]>(tree.runs.map((run) => [run.id, []]));
  for (const run of tree.runs) {
    if (run.parentRunId !== null) childIds.get(run.parentRunId)?.push(run.id);
    ctx.loaders.traceRun.prime(run.id, run);
  }
  for (const [id, children] of childIds) ctx.loaders.traceRunChildIds.prime(id, children);
  return tree;
}

builder.queryFields((t) => ({
  traces: t.connection(
    {
      type: TraceRunRef,
      description:
        "Trace runs matching every given filter, newest first (by start time, ties by id): root runs unless " +
        "rootsOnly is false. Times bound the start time: from inclusive, to exclusive.",
      args: {
        rootsOnly: t.arg.boolean({ defaultValue: true, description: "Only runs without a parent (one per trace)." }),
        startTimeFrom: t.arg({ type: "DateTime" }),
        startTimeTo: t.arg({ type: "DateTime" }),
        runType: t.arg.string({ description: "llm, chain, tool …" }),
        nameContains: t.arg.string({ description: "Case-insensitive substring of the run's name." }),
        model: t.arg.string({ description: "The exact model name." }),
        provider: t.arg.string(),
        hasError: t.arg.boolean({ description: "true: runs that failed (a LangGraph interrupt() is no failure); false: the others." }),
        runId: t.arg.id({ description: "Runs recorded by this Hangar run." }),
        threadId: t.arg.id(),
        assistantId: t.arg.id(),
        traceId: t.arg.id(),
        metadata: t.arg({ type: "JSONObject", description: "extra.metadata containing these keys and values." }),
        metadataAnyOf: t.arg({
          type: ["JSONObject"],
          description: "extra.metadata containing at least one of these objects (1 to 64), as threads' metadataAnyOf.",
        }),
        tags: t.arg.stringList({ description: "Runs carrying every one of these tags." }),
        tagsAny: t.arg.stringList({ description: "Runs carrying at least one of these tags." }),
        feedback: t.arg({ type: TraceFeedbackFilterInput }),
      },
      resolve: (_root, args, ctx) =>
        resolveTraceRunPage(ctx, args, {
          isRoot: args.rootsOnly === false ? undefined : true,
          startTimeFrom: omitNull(args.startTimeFrom),
          startTimeTo: omitNull(args.startTimeTo),
          runTypes: args.runType == null ? undefined : [args.runType],
          nameContains: omitNull(args.nameContains)?.trim() || undefined,
          modelName: omitNull(args.model),
          provider: omitNull(args.provider),
          hasFailed: omitNull(args.hasError),
          hangarRunId: omitNull(args.runId),
          threadId: omitNull(args.threadId),
          assistantId: omitNull(args.assistantId),
          traceId: omitNull(args.traceId),
          metadata: omitNull(args.metadata),
          metadataAnyOf: omitNull(args.metadataAnyOf),
          tags: nonEmpty(args.tags),
          tagsAny: nonEmpty(args.tagsAny),
          feedback: args.feedback
            ? {
                key: args.feedback.key,
                scoreMin: omitNull(args.feedback.scoreMin),
                scoreMax: omitNull(args.feedback.scoreMax),
                inTrace: args.feedback.anyRunOfTrace !== false,
              }
            : undefined,
        }),
    },
    { name: "TraceRunConnection" },
    { name: "TraceRunEdge" },
  ),
  trace: t.field({
    type: TraceRef,
    description: "A whole trace (read at once: its runs' children cost no further query); NOT_FOUND when it has no runs.",
    args: { traceId: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => primeLoaders(ctx, await tracesService.getTree(ctx.services, args.traceId)),
  }),
  traceRun: t.field({
    type: TraceRunRef,
    description: "One trace run; NOT_FOUND when it does not exist.",
    args: { traceRunId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => tracesService.get(ctx.services, args.traceRunId),
  }),
}));
