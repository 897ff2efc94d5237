import type { Context } from "hono";
import { Hono } from "hono";
import { z } from "zod";
import { InvalidInputError, NotFoundError, PayloadTooLargeError } from "../../domain/errors.js";
import { assertStorableText, mayHoldUnstorableText } from "../../domain/storable-text.js";
import { readBoundedBody } from "../../http/bounded-body.js";
import type { HttpEnv } from "../../http/http-env.js";
import type { HangarRuntime } from "../../runtime.js";
import type { QueryTraceRunsInput } from "../../services/traces.service.js";
import { tracesService } from "../../services/traces.service.js";
import type { TraceRun } from "../../domain/trace-run.js";
import { decodeBody, DecodedBodyTooLargeError, UnsupportedEncodingError } from "../../tracing/ingest/decode-body.js";
import {
  flattenChildRuns,
  runOperationFromWire,
  traceRunToWire,
  type AttachmentsWire,
} from "../../tracing/ingest/langsmith-wire.js";
import { MultipartSyntaxError, multipartBoundary, splitMultipart } from "../../tracing/ingest/multipart-body.js";
import { collectMultipartRuns, MultipartRunsError } from "../../tracing/ingest/multipart-runs.js";
import { parseRunFilter, RunFilterError } from "../../tracing/ingest/run-filter.js";
import { HANGAR_VERSION } from "../../version.js";
import { parseInput } from "../read-body.js";
import { JsonObject } from "../schemas/common.js";
import {
  BatchIngestRunsRequest,
  BodyParamsForRunSchema,
  RunCreateSchema,
  RunQueryV2Request,
  RunRetrieveV2Query,
  RunUpdateSchema,
  SessionsQuery,
} from "../schemas/tracing.js";
import { traceProjectToWire, traceRunToV2Wire } from "../../tracing/ingest/langsmith-v2-wire.js";
import { otelRoutes } from "./otel.js";
import { feedbackFromWire, tracingFeedbackRoutes } from "./tracing-feedback.js";
import { FeedbackCreateSchema } from "../schemas/tracing-feedback.js";
import { traceFeedbackService } from "../../services/trace-feedback.service.js";
import { createRouteKit } from "./route-kit.js";

/** /tracing: the LangSmith run API, so the langsmith SDK (apiUrl = <server>/tracing) traces into Hangar. */
export function tracingRoutes(runtime: HangarRuntime): Hono<HttpEnv> {
  const { serviceContext: ctx, body, query } = createRouteKit(runtime);
  const { maxBodyBytes } = runtime.config;
  const routes = new Hono<HttpEnv>();

  // LangSmith: Get Server Info. The SDK sizes its batches from batch_ingest_config.
  routes.get("/info", (c) =>
    c.json({
      version: HANGAR_VERSION,
      license_expiration_time: null,
      batch_ingest_config: {
        use_multipart_endpoint: true,
        scale_up_qsize_trigger: 1000,
        scale_up_nthreads_limit: 16,
        scale_down_nempty_trigger: 4,
        size_limit: 100,
        // Half the body limit: the SDK's size estimate is approximate and must not reach a 413.
        size_limit_bytes: Math.floor(maxBodyBytes / 2),
      },
      // No gzip_body_enabled / zstd_compression_enabled: the SDK then sends bodies uncompressed.
      instance_flags: {},
    }),
  );

  // LangSmith: Create Run (a run may carry its whole subtree in child_runs)
  routes.post("/runs", async (c) => {
    const runs = flattenChildRuns(await body(c, JsonObject)).map((run, index) =>
      parseInput(RunCreateSchema, run, index === 0 ? "body" : `child run ${String(run.id)}`),
    );
    await tracesService.ingest(ctx(c), { posts: runs.map((run) => runOperationFromWire(run, run.id)), patches: [] });
    return c.json({}, 202);
  });

  // LangSmith: Batch Ingest Runs
  routes.post("/runs/batch", async (c) => {
    const { post = [], patch = [] } = await body(c, BatchIngestRunsRequest);
    const posts = post.map((run) => runOperationFromWire(run, run.id));
    await tracesService.ingest(ctx(c), { posts, patches: patch.map((run) => runOperationFromWire(run, run.id)) });
    return c.json({}, 202);
  });

  // LangSmith: Multipart Ingest Runs
  routes.post("/runs/multipart", async (c) => {
    const { post, patch, feedback } = await readMultipartRuns(c, maxBodyBytes);
    const runs = { posts: multipartOperations(post, "post"), patches: multipartOperations(patch, "patch") };
    if (feedback.length === 0) await tracesService.ingest(ctx(c), runs);
    else {
      // createFeedback with a trace id rides in the batch (as `feedback.<id>` parts).
      const feedbackInputs = feedback.map((part) => feedbackFromWire(parseInput(FeedbackCreateSchema, part, `part feedback.${String(part.id)}`)));
      await traceFeedbackService.ingestWithRuns(ctx(c), runs, feedbackInputs);
    }
    return c.json({}, 202);
  });

  // LangSmith: Update Run
  routes.patch("/runs/:run_id", async (c) => {
    const runId = c.req.param("run_id");
    const run = await body(c, RunUpdateSchema);
    if (run.id !== undefined && run.id.toLowerCase() !== runId.toLowerCase()) {
      throw new InvalidInputError(`id in the body ('${run.id}') differs from the run id in the path ('${runId}')`);
    }
    await tracesService.ingest(ctx(c), { posts: [], patches: [runOperationFromWire(run, runId)] });
    return c.json({}, 202);
  });

  // LangSmith: Read Run
  routes.get("/runs/:run_id", async (c) => {
    const run = await tracesService.get(ctx(c), c.req.param("run_id"));
    const [childRunIds] = await tracesService.listChildIds(ctx(c), [run.id]);
    return c.json(traceRunToWire(run, childRunIds));
  });

  // LangSmith: Query Runs
  routes.post("/runs/query", async (c) => {
    const request = await body(c, BodyParamsForRunSchema);
    const page = await tracesService.query(ctx(c), runQueryFromWire(request));
    return c.json({ runs: await runsToWire(c, page.runs, request.select), cursors: { next: page.nextCursor } });
  });

  // LangSmith v2: Retrieve Run (langsmith 0.12 `client.runs.retrieve`); a run of another project is not found
  routes.get("/api/v2/runs/:run_id", async (c) => {
    const { project_id: projectId, selects } = query(c, RunRetrieveV2Query);
    const run = await tracesService.get(ctx(c), c.req.param("run_id"));
    if (run.sessionId !== projectId.toLowerCase()) throw new NotFoundError(`Trace run '${run.id}' not found in project '${projectId}'`);
    return c.json(traceRunToV2Wire(run, selects));
  });

  // LangSmith v2: Query Runs (langsmith 0.12 `client.runs.query`, cursor pages of `items`)
  routes.post("/api/v2/runs/query", async (c) => {
    const request = await body(c, RunQueryV2Request);
    const page = await tracesService.query(ctx(c), runQueryV2FromWire(request));
    return c.json({ items: page.runs.map((run) => traceRunToV2Wire(run, request.selects)), next_cursor: page.nextCursor });
  });

  // LangSmith: Read Projects (`readProject({projectName})`, which `listRuns({projectName})` calls)
  routes.get("/sessions", async (c) => {
    const projects = await tracesService.listProjects(ctx(c), query(c, SessionsQuery));
    return c.json(projects.map(traceProjectToWire));
  });

  // LangSmith: Read Project
  routes.get("/sessions/:session_id", async (c) => {
    return c.json(traceProjectToWire(await tracesService.getProject(ctx(c), c.req.param("session_id"))));
  });

  // LangSmith's feedback API on the stored runs.
  routes.route("/feedback", tracingFeedbackRoutes(runtime));

  // OpenTelemetry spans (OTLP/HTTP) into the same store.
  routes.route("/otel", otelRoutes(runtime));

  async function runsToWire(c: Context<HttpEnv>, runs: TraceRun[], select: string[] | undefined) {
    const childIds = await tracesService.listChildIds(ctx(c), runs.map((run) => run.id));
    return runs.map((run, index) => {
      const wire = traceRunToWire(run, childIds[index]);
      if (!select?.length) return wire;
      // id and parent_run_id always come back, as from LangSmith: readRun({loadChildRuns}) builds
      // the tree from parent_run_id without selecting it.
      return Object.fromEntries(Object.entries(wire).filter(([key]) => key === "id" || key === "parent_run_id" || select.includes(key)));
    });
  }

  return routes;
}

/** The multipart body as wire runs; every syntax problem (and unstorable text) is a 422 naming the part. */
async function readMultipartRuns(c: Context<HttpEnv>, maxBytes: number) {
  const boundary = multipartBoundary(c.req.header("content-type"));
  if (!boundary) throw new InvalidInputError("Content-Type must be multipart/form-data with a boundary");
  const raw = await readBoundedBody(c.req.raw, maxBytes);
  let decoded: Buffer;
  let runs: ReturnType<typeof collectMultipartRuns>;
  try {
    decoded = await decodeBody(raw, c.req.header("content-encoding"), maxBytes);
    runs = collectMultipartRuns(splitMultipart(decoded, boundary));
  } catch (error) {
    if (error instanceof DecodedBodyTooLargeError) throw new PayloadTooLargeError(maxBytes);
    // Only the body's own faults are the client's (422); anything else is ours and propagates.
    if (error instanceof UnsupportedEncodingError || error instanceof MultipartSyntaxError || error instanceof MultipartRunsError) {
      throw new InvalidInputError(`Invalid multipart body: ${error.message}`);
    }
    throw error;
  }
  // Part names (run ids, attachment names) are raw bytes, so a NUL there is a NUL byte.
  if (decoded.includes(0) || mayHoldUnstorableText(decoded.toString("latin1"))) assertStorableText(runs, "body");
  return runs;
}

const RunCreateList = z.array(RunCreateSchema);

/**
 * Validates a multipart request's runs with one zod call (per-run calls cost twice as much at
 * 500 runs a batch); only when that fails are runs checked one by one, to name the bad part.
 */
function multipartOperations(runs: Record<string, unknown>[], kind: "post" | "patch") {
  const parsed = RunCreateList.safeParse(runs);
  if (!parsed.success) for (const run of runs) parseInput(RunCreateSchema, run, `part ${kind}.${String(run.id)}`);
  return parsed.data!.map((run, index) => runOperationFromWire(run, run.id, runs[index].attachments as AttachmentsWire | undefined));
}

/** LangSmith's filter language (the subset tracing/ingest/run-filter.ts parses); a syntax error is a 422. */
function parseFilterDsl(filter: string | undefined): ReturnType<typeof parseRunFilter> {
  if (filter === undefined) return {};
  try {
    return parseRunFilter(filter);
  } catch (error) {
    if (error instanceof RunFilterError) throw new InvalidInputError(`filter: ${error.message}`);
    throw error;
  }
}

/** v2 query fields → the service filter (the same one POST /runs/query uses). */
function runQueryV2FromWire(request: z.infer<typeof RunQueryV2Request>): QueryTraceRunsInput {
  const dsl = parseFilterDsl(request.filter);
  const runType = request.run_type?.toLowerCase() ?? dsl.runType;
  return {
    ids: request.ids,
    traceId: request.trace_id ?? dsl.traceId,
    parentRunId: dsl.parentRunId,
    isRoot: request.is_root ?? dsl.isRoot,
    hasError: request.has_error ?? dsl.hasError,
    runTypes: runType ? [runType] : undefined,
    names: dsl.name ? [dsl.name] : undefined,
    modelName: dsl.modelName,
    provider: dsl.provider,
    hangarRunId: dsl.hangarRunId,
    threadId: dsl.threadId,
    assistantId: dsl.assistantId,
    sessionIds: request.project_ids,
    sessionNames: dsl.sessionName ? [dsl.sessionName] : undefined,
    tags: dsl.tags,
    metadata: dsl.metadata && Object.keys(dsl.metadata).length ? dsl.metadata : undefined,
    feedback: dsl.feedback,
    startTimeFrom: request.min_start_time ?? dsl.startTimeFrom,
    startTimeTo: request.max_start_time ?? dsl.startTimeTo,
    limit: request.page_size,
    cursor: request.cursor,
  };
}

/** Query fields (LangSmith names plus Hangar's) → the service filter; `filter` may be the DSL or an object. */
function runQueryFromWire(request: z.infer<typeof BodyParamsForRunSchema>): QueryTraceRunsInput {
  const dsl = parseFilterDsl(typeof request.filter === "string" ? request.filter : undefined);
  const objectFilter = typeof request.filter === "object" ? request.filter : undefined;
  const metadata = { ...dsl.metadata, ...objectFilter, ...request.metadata };
  const names = request.name ?? dsl.name;
  const runType = request.run_type ?? dsl.runType;
  const sessionNames = request.session_name ?? (dsl.sessionName ? [dsl.sessionName] : undefined);
  return {
    ids: request.id,
    traceId: request.trace ?? dsl.traceId,
    parentRunId: request.parent_run ?? dsl.parentRunId,
    isRoot: request.is_root ?? dsl.isRoot,
    hasError: request.error ?? dsl.hasError,
    runTypes: runType ? [runType] : undefined,
    names: names ? [names] : undefined,
    modelName: request.model_name ?? dsl.modelName,
    provider: request.provider ?? dsl.provider,
    hangarRunId: request.hangar_run_id ?? dsl.hangarRunId,
    threadId: request.thread_id ?? dsl.threadId,
    assistantId: request.assistant_id ?? dsl.assistantId,
    sessionIds: request.session,
    sessionNames,
    tags: request.tags ?? dsl.tags,
    metadata: Object.keys(metadata).length ? metadata : undefined,
    feedback: dsl.feedback,
    // start_time/end_time bound the runs' START time: [start_time, end_time).
    startTimeFrom: request.start_time ?? dsl.startTimeFrom,
    startTimeTo: request.end_time ?? dsl.startTimeTo,
    limit: request.limit,
    cursor: request.cursor,
    order: request.order,
  };
}
