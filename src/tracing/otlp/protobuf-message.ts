/**
 * Decoded ExportTraceServiceRequest messages (protobufjs, from the official .proto files) into
 * OtlpSpans. Fields a message does not carry read as their proto3 defaults (protobufjs keeps
 * those on the prototype), 64-bit integers arrive as Long objects and bytes as Uint8Arrays; a
 * oneof's virtual property names the field that is set.
 */
import { MAX_JSON_DEPTH } from "../../domain/input-bounds.js";
import { OtlpDecodeError, type OtlpSpan } from "./otlp-span.js";

interface Long {
  toString(): string;
  toNumber(): number;
}
type Int64 = number | Long;

interface ProtoAnyValue {
  value?: string;
  stringValue: string;
  boolValue: boolean;
  intValue: Int64;
  doubleValue: number;
  arrayValue?: { values: ProtoAnyValue[] } | null;
  kvlistValue?: { values: ProtoKeyValue[] } | null;
  bytesValue: Uint8Array;
}
interface ProtoKeyValue {
  key: string;
  value?: ProtoAnyValue | null;
}
interface ProtoSpan {
  traceId: Uint8Array;
  spanId: Uint8Array;
  parentSpanId: Uint8Array;
  name: string;
  kind: number;
  startTimeUnixNano: Int64;
  endTimeUnixNano: Int64;
  attributes: ProtoKeyValue[];
  events: { timeUnixNano: Int64; name: string; attributes: ProtoKeyValue[] }[];
  links: { traceId: Uint8Array; spanId: Uint8Array; attributes: ProtoKeyValue[] }[];
  status?: { code: number; message: string } | null;
}
export interface ProtoRequest {
  resourceSpans: {
    resource?: { attributes: ProtoKeyValue[] } | null;
    scopeSpans: { scope?: { name: string; version: string } | null; spans: ProtoSpan[] }[];
  }[];
}

export function readProtoRequest(request: ProtoRequest): OtlpSpan[] {
  const spans: OtlpSpan[] = [];
  for (const resourceSpans of request.resourceSpans) {
    const resource = attributes(resourceSpans.resource?.attributes ?? []);
    for (const scopeSpans of resourceSpans.scopeSpans) {
      const scope = { name: scopeSpans.scope?.name ?? "", version: scopeSpans.scope?.version ?? "" };
      for (const span of scopeSpans.spans) spans.push(readSpan(span, resource, scope));
    }
  }
  return spans;
}

function readSpan(span: ProtoSpan, resource: Record<string, unknown>, scope: OtlpSpan["scope"]): OtlpSpan {
  return {
    traceId: hex(span.traceId),
    spanId: hex(span.spanId),
    parentSpanId: span.parentSpanId.length > 0 ? hex(span.parentSpanId) : null,
    name: span.name,
    kind: span.kind,
    startTimeUnixNano: String(span.startTimeUnixNano),
    endTimeUnixNano: String(span.endTimeUnixNano),
    attributes: attributes(span.attributes),
    events: span.events.map((event) => ({ name: event.name, timeUnixNano: String(event.timeUnixNano), attributes: attributes(event.attributes) })),
    links: span.links.map((link) => ({ traceId: hex(link.traceId), spanId: hex(link.spanId), attributes: attributes(link.attributes) })),
    status: { code: span.status?.code ?? 0, message: span.status?.message ?? "" },
    resource,
    scope,
  };
}

/** Ids of the wrong length pass through as their hex; the span check (spanRejection) refuses them. */
function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");
}

function attributes(pairs: readonly ProtoKeyValue[], depth = 0): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const pair of pairs) result[pair.key] = pair.value ? anyValue(pair.value, depth) : null;
  return result;
}

/** Values nest no deeper than any JSON Hangar accepts (MAX_JSON_DEPTH), so storing them cannot overflow a stack. */
function anyValue(value: ProtoAnyValue, depth: number): unknown {
  if (depth >= MAX_JSON_DEPTH) throw new OtlpDecodeError(`an attribute value is nested deeper than ${MAX_JSON_DEPTH} levels`);
  switch (value.value) {
    case "stringValue":
      return value.stringValue;
    case "boolValue":
      return value.boolValue;
    case "intValue": {
      const int = value.intValue;
      if (typeof int === "number") return int;
      const number = int.toNumber();
      return Number.isSafeInteger(number) ? number : int.toString();
    }
    case "doubleValue":
      return Number.isFinite(value.doubleValue) ? value.doubleValue : String(value.doubleValue);
    case "arrayValue":
      return (value.arrayValue?.values ?? []).map((item) => anyValue(item, depth + 1));
    case "kvlistValue":
      return attributes(value.kvlistValue?.values ?? [], depth + 1);
    case "bytesValue":
      return Buffer.from(value.bytesValue).toString("base64");
    default:
      return null;
  }
}
