/**
 * One OpenTelemetry span as the OTLP decoders (protobuf and JSON) hand it on: ids in lower-case
 * hex, times in nanoseconds since the epoch as decimal strings (they pass 2^53), attribute
 * values as plain JSON values (arrays and key-value lists become arrays and objects; bytes are
 * base64 text).
 */
export interface OtlpSpan {
  traceId: string;
  spanId: string;
  /** Null for a root span. */
  parentSpanId: string | null;
  name: string;
  /** SpanKind: 0 unspecified, 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: Record<string, unknown>;
  events: OtlpEvent[];
  links: { traceId: string; spanId: string; attributes: Record<string, unknown> }[];
  /** StatusCode: 0 unset, 1 ok, 2 error. */
  status: { code: number; message: string };
  resource: Record<string, unknown>;
  scope: { name: string; version: string };
}

export interface OtlpEvent {
  name: string;
  timeUnixNano: string;
  attributes: Record<string, unknown>;
}

/** A body that is not an ExportTraceServiceRequest; the message names where it went wrong. */
export class OtlpDecodeError extends Error {}

export const SPAN_KIND_NAMES = ["unspecified", "internal", "server", "client", "producer", "consumer"] as const;
