import type { Context } from "hono";
import { Hono } from "hono";
import { AppError } from "../../domain/errors.js";
import { readBoundedBody } from "../../http/bounded-body.js";
import type { HttpEnv } from "../../http/http-env.js";
import type { HangarRuntime } from "../../runtime.js";
import { tracesService } from "../../services/traces.service.js";
import { decodeBody, DecodedBodyTooLargeError, UnsupportedEncodingError } from "../../tracing/ingest/decode-body.js";
import { decodeOtlpJson, decodeOtlpProtobuf, encodeOtlpResponse, encodeOtlpStatus } from "../../tracing/otlp/decode-otlp.js";
import { OtlpDecodeError } from "../../tracing/otlp/otlp-span.js";
import { createRouteKit } from "./route-kit.js";

type OtlpEncoding = "protobuf" | "json";

// google.rpc.Code values the OTLP/HTTP spec uses in failure bodies.
const INVALID_ARGUMENT = 3;
const RESOURCE_EXHAUSTED = 8;

/**
 * OTLP/HTTP trace ingestion (POST {prefix}/v1/traces), mounted at /otel and /tracing/otel: any
 * OpenTelemetry exporter (protobuf or JSON, optionally gzip) sends spans, which become trace runs.
 * Authentication and the operator rule are /tracing's (the HTTP middleware and the service).
 * Failures answer as OTLP says: a google.rpc.Status in the request's encoding; a malformed body is
 * a 400 and nothing of it is stored.
 */
export function otelRoutes(runtime: HangarRuntime): Hono<HttpEnv> {
  const { serviceContext: ctx } = createRouteKit(runtime);
  const { maxBodyBytes } = runtime.config;
  const routes = new Hono<HttpEnv>();

  routes.post("/v1/traces", async (c) => {
    const encoding = encodingOf(c.req.header("content-type"));
    if (encoding === null) {
      const message = `Content-Type must be application/x-protobuf or application/json, got '${c.req.header("content-type") ?? ""}'`;
      return answer(c, 415, encodeOtlpStatus(INVALID_ARGUMENT, message, "json"), "json");
    }
    let spans;
    try {
      const body = await decodeBody(await readBoundedBody(c.req.raw, maxBodyBytes), c.req.header("content-encoding"), maxBodyBytes);
      spans = encoding === "protobuf" ? decodeOtlpProtobuf(body) : decodeOtlpJson(body.toString("utf8"));
    } catch (error) {
      if (error instanceof DecodedBodyTooLargeError || (error instanceof AppError && error.code === "PAYLOAD_TOO_LARGE")) {
        return answer(c, 413, encodeOtlpStatus(RESOURCE_EXHAUSTED, `body is larger than ${maxBodyBytes} bytes`, encoding), encoding);
      }
      if (error instanceof UnsupportedEncodingError || error instanceof OtlpDecodeError) {
        return answer(c, 400, encodeOtlpStatus(INVALID_ARGUMENT, `Invalid OTLP trace request: ${error.message}`, encoding), encoding);
      }
      throw error;
    }
    try {
      const projectName = c.req.header("langsmith-project") || undefined;
      const { rejectedSpans, errorMessage } = await tracesService.ingestOtelSpans(ctx(c), spans, { projectName });
      return answer(c, 200, encodeOtlpResponse(rejectedSpans, errorMessage, encoding), encoding);
    } catch (error) {
      // A span the store refuses (e.g. text PostgreSQL cannot hold) fails the whole request, as
      // any bad batch does: nothing of it was written.
      if (error instanceof AppError && error.code === "INVALID_INPUT") {
        return answer(c, 400, encodeOtlpStatus(INVALID_ARGUMENT, `Invalid OTLP trace request: ${error.message}`, encoding), encoding);
      }
      throw error;
    }
  });

  return routes;
}

function encodingOf(contentType: string | undefined): OtlpEncoding | null {
  const mediaType = (contentType ?? "").split(";")[0].trim().toLowerCase();
  if (mediaType === "application/x-protobuf" || mediaType === "application/protobuf") return "protobuf";
  if (mediaType === "application/json") return "json";
  return null;
}

function answer(c: Context<HttpEnv>, status: 200 | 400 | 413 | 415, body: Uint8Array | object, encoding: OtlpEncoding): Response {
  if (encoding === "json") return c.json(body, status);
  return c.body(Buffer.from(body as Uint8Array), status, { "content-type": "application/x-protobuf" });
}
