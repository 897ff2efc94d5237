import type protobuf from "protobufjs";
import { parseJsonText } from "../../domain/json-depth.js";
import { OtlpDecodeError, type OtlpEvent, type OtlpSpan } from "./otlp-span.js";
import { otlpTraceMessages } from "./otlp-trace-messages.js";
import { type ProtoRequest, readProtoRequest } from "./protobuf-message.js";

/**
 * OTLP/HTTP trace request bodies (ExportTraceServiceRequest), protobuf or JSON, into OtlpSpans.
 *
 * Protobuf is decoded by protobufjs with the protocol's message declarations
 * (otlp-trace-messages.ts) and its messages read directly (protobuf-message.ts: decoding already
 * checked every type, and going through toObject first cost a second copy of every span). JSON is
 * read here, checking each field's type and naming the path of the first that is wrong.
 */

export function decodeOtlpProtobuf(body: Uint8Array): OtlpSpan[] {
  const { request } = otlpTraceMessages();
  let message: protobuf.Message;
  try {
    message = request.decode(body);
  } catch (error) {
    throw new OtlpDecodeError(`body is not a protobuf ExportTraceServiceRequest: ${(error as Error).message}`);
  }
  return readProtoRequest(message as unknown as ProtoRequest);
}

export function decodeOtlpJson(text: string): OtlpSpan[] {
  // Within the depth limit of every JSON body Hangar reads (domain/json-depth.ts).
  const parsed = parseJsonText(text, "body");
  if (!parsed.ok) throw new OtlpDecodeError(parsed.problem === "syntax" ? `body is not JSON: ${parsed.message}` : parsed.message);
  return readRequest(parsed.value);
}

/** ExportTraceServiceResponse, with partial_success only when spans were rejected. */
export function encodeOtlpResponse(rejectedSpans: number, errorMessage: string, as: "protobuf" | "json"): Uint8Array | object {
  const body = rejectedSpans > 0 ? { partialSuccess: { rejectedSpans: String(rejectedSpans), errorMessage } } : {};
  if (as === "json") return rejectedSpans > 0 ? { partialSuccess: { rejectedSpans, errorMessage } } : {};
  const { response } = otlpTraceMessages();
  return response.encode(response.fromObject(body)).finish();
}

/** google.rpc.Status, the body of an OTLP/HTTP failure. */
export function encodeOtlpStatus(code: number, message: string, as: "protobuf" | "json"): Uint8Array | object {
  if (as === "json") return { code, message };
  const { status } = otlpTraceMessages();
  return status.encode(status.fromObject({ code, message })).finish();
}

type Obj = Record<string, unknown>;

function isObject(value: unknown): value is Obj {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function list(value: unknown, where: string): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new OtlpDecodeError(`${where} must be an array`);
  return value;
}

function object(value: unknown, where: string): Obj {
  if (value === undefined || value === null) return {};
  if (!isObject(value)) throw new OtlpDecodeError(`${where} must be an object`);
  return value;
}

function text(value: unknown, where: string): string {
  if (value === undefined || value === null) return "";
  if (typeof value !== "string") throw new OtlpDecodeError(`${where} must be a string`);
  return value;
}

function enumValue(value: unknown, where: string): number {
  if (value === undefined || value === null) return 0;
  if (typeof value !== "number" || !Number.isInteger(value)) throw new OtlpDecodeError(`${where} must be an integer enum value`);
  return value;
}

/** fixed64 nanoseconds: a decimal string (what JSON exporters send) or a safe integer. */
function nanos(value: unknown, where: string): string {
  if (value === undefined || value === null) return "0";
  if (typeof value === "string" && /^\d{1,20}$/.test(value)) return value.replace(/^0+(?=\d)/, "");
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return String(value);
  throw new OtlpDecodeError(`${where} must be an unsigned integer of nanoseconds, got ${JSON.stringify(value)}`);
}

const HEX_ID: Record<number, RegExp> = { 8: /^[0-9a-fA-F]{16}$/, 16: /^[0-9a-fA-F]{32}$/ };

/** An id in hex, as OTLP/JSON spells it (not base64, unlike other bytes); empty means absent. */
function id(value: unknown, bytes: 8 | 16, where: string): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string" && (value === "" || HEX_ID[bytes].test(value))) return value.toLowerCase();
  throw new OtlpDecodeError(`${where} must be ${bytes * 2} hex digits, got ${JSON.stringify(value)}`);
}

function readRequest(request: unknown): OtlpSpan[] {
  if (!isObject(request)) throw new OtlpDecodeError("body must be an ExportTraceServiceRequest object");
  const spans: OtlpSpan[] = [];
  list(request.resourceSpans, "resourceSpans").forEach((rawResourceSpans, r) => {
    const at = `resourceSpans[${r}]`;
    const resourceSpans = object(rawResourceSpans, at);
    const resource = attributes(object(resourceSpans.resource, `${at}.resource`).attributes, `${at}.resource.attributes`);
    list(resourceSpans.scopeSpans, `${at}.scopeSpans`).forEach((rawScopeSpans, s) => {
      const scopeAt = `${at}.scopeSpans[${s}]`;
      const scopeSpans = object(rawScopeSpans, scopeAt);
      const rawScope = object(scopeSpans.scope, `${scopeAt}.scope`);
      const scope = { name: text(rawScope.name, `${scopeAt}.scope.name`), version: text(rawScope.version, `${scopeAt}.scope.version`) };
      list(scopeSpans.spans, `${scopeAt}.spans`).forEach((rawSpan, i) => {
        spans.push(readSpan(object(rawSpan, `${scopeAt}.spans[${i}]`), `${scopeAt}.spans[${i}]`, resource, scope));
      });
    });
  });
  return spans;
}

function readSpan(span: Obj, at: string, resource: Obj, scope: OtlpSpan["scope"]): OtlpSpan {
  const status = object(span.status, `${at}.status`);
  const parentSpanId = id(span.parentSpanId, 8, `${at}.parentSpanId`);
  return {
    traceId: id(span.traceId, 16, `${at}.traceId`),
    spanId: id(span.spanId, 8, `${at}.spanId`),
    parentSpanId: parentSpanId === "" ? null : parentSpanId,
    name: text(span.name, `${at}.name`),
    kind: enumValue(span.kind, `${at}.kind`),
    startTimeUnixNano: nanos(span.startTimeUnixNano, `${at}.startTimeUnixNano`),
    endTimeUnixNano: nanos(span.endTimeUnixNano, `${at}.endTimeUnixNano`),
    attributes: attributes(span.attributes, `${at}.attributes`),
    events: list(span.events, `${at}.events`).map((rawEvent, e): OtlpEvent => {
      const event = object(rawEvent, `${at}.events[${e}]`);
      return {
        name: text(event.name, `${at}.events[${e}].name`),
        timeUnixNano: nanos(event.timeUnixNano, `${at}.events[${e}].timeUnixNano`),
        attributes: attributes(event.attributes, `${at}.events[${e}].attributes`),
      };
    }),
    links: list(span.links, `${at}.links`).map((rawLink, l) => {
      const link = object(rawLink, `${at}.links[${l}]`);
      return {
        traceId: id(link.traceId, 16, `${at}.links[${l}].traceId`),
        spanId: id(link.spanId, 8, `${at}.links[${l}].spanId`),
        attributes: attributes(link.attributes, `${at}.links[${l}].attributes`),
      };
    }),
    status: { code: enumValue(status.code, `${at}.status.code`), message: text(status.message, `${at}.status.message`) },
    resource,
    scope,
  };
}

function attributes(raw: unknown, at: string): Obj {
  const result: Obj = {};
  list(raw, at).forEach((rawPair, i) => {
    const pair = object(rawPair, `${at}[${i}]`);
    const key = text(pair.key, `${at}[${i}].key`);
    result[key] = anyValue(pair.value, `${at}[${i}] (${key})`);
  });
  return result;
}

/** AnyValue as plain JSON: int64 as a number when it is safe, else its decimal string. */
function anyValue(raw: unknown, at: string): unknown {
  if (raw === undefined || raw === null) return null;
  const value = object(raw, at);
  if ("stringValue" in value) return text(value.stringValue, at);
  if ("boolValue" in value) {
    if (typeof value.boolValue !== "boolean") throw new OtlpDecodeError(`${at}: boolValue must be a boolean`);
    return value.boolValue;
  }
  if ("intValue" in value) {
    const int = value.intValue;
    const isInt = (typeof int === "number" && Number.isInteger(int)) || (typeof int === "string" && /^-?\d{1,20}$/.test(int));
    if (!isInt) throw new OtlpDecodeError(`${at}: intValue must be an integer, got ${JSON.stringify(int)}`);
    return Number.isSafeInteger(Number(int)) ? Number(int) : String(int);
  }
  if ("doubleValue" in value) {
    const double = typeof value.doubleValue === "string" ? Number(value.doubleValue) : value.doubleValue;
    if (typeof double !== "number") throw new OtlpDecodeError(`${at}: doubleValue must be a number`);
    return Number.isFinite(double) ? double : String(double);
  }
  if ("arrayValue" in value) {
    return list(object(value.arrayValue, at).values, `${at}.arrayValue.values`).map((item, i) => anyValue(item, `${at}[${i}]`));
  }
  if ("kvlistValue" in value) return attributes(object(value.kvlistValue, at).values, `${at}.kvlistValue.values`);
  if ("bytesValue" in value) return text(value.bytesValue, at);
  // An empty AnyValue is allowed by the spec: it means no value.
  return null;
}
