import protobuf from "protobufjs";

/**
 * The OTLP trace messages Hangar reads and answers (OpenTelemetry protocol v1: the collector's
 * trace service request/response, spans, resources, scopes and attribute values), declared as
 * protobufjs reflection: names, field numbers and wire types as the protocol defines them. Field
 * names are protobufjs's camelCase forms, as its decoder sets them; `AnyValue.value` is the
 * oneof's virtual property naming the field that is set.
 */
const KEY_VALUE = "opentelemetry.proto.common.v1.KeyValue";
const repeated = (type: string, id: number) => ({ rule: "repeated", type, id });

const DESCRIPTOR = {
  nested: {
    opentelemetry: {
      nested: {
        proto: {
          nested: {
            common: {
              nested: {
                v1: {
                  nested: {
                    AnyValue: {
                      oneofs: { value: { oneof: ["stringValue", "boolValue", "intValue", "doubleValue", "arrayValue", "kvlistValue", "bytesValue"] } },
                      fields: {
                        stringValue: { type: "string", id: 1 },
                        boolValue: { type: "bool", id: 2 },
                        intValue: { type: "int64", id: 3 },
                        doubleValue: { type: "double", id: 4 },
                        arrayValue: { type: "ArrayValue", id: 5 },
                        kvlistValue: { type: "KeyValueList", id: 6 },
                        bytesValue: { type: "bytes", id: 7 },
                      },
                    },
                    ArrayValue: { fields: { values: repeated("AnyValue", 1) } },
                    KeyValueList: { fields: { values: repeated("KeyValue", 1) } },
                    KeyValue: { fields: { key: { type: "string", id: 1 }, value: { type: "AnyValue", id: 2 } } },
                    InstrumentationScope: {
                      fields: {
                        name: { type: "string", id: 1 },
                        version: { type: "string", id: 2 },
                        attributes: repeated("KeyValue", 3),
                        droppedAttributesCount: { type: "uint32", id: 4 },
                      },
                    },
                  },
                },
              },
            },
            resource: {
              nested: {
                v1: {
                  nested: {
                    Resource: { fields: { attributes: repeated(KEY_VALUE, 1), droppedAttributesCount: { type: "uint32", id: 2 } } },
                  },
                },
              },
            },
            trace: {
              nested: {
                v1: {
                  nested: {
                    ResourceSpans: {
                      fields: {
                        resource: { type: "opentelemetry.proto.resource.v1.Resource", id: 1 },
                        scopeSpans: repeated("ScopeSpans", 2),
                        schemaUrl: { type: "string", id: 3 },
                      },
                    },
                    ScopeSpans: {
                      fields: {
                        scope: { type: "opentelemetry.proto.common.v1.InstrumentationScope", id: 1 },
                        spans: repeated("Span", 2),
                        schemaUrl: { type: "string", id: 3 },
                      },
                    },
                    Span: {
                      fields: {
                        traceId: { type: "bytes", id: 1 },
                        spanId: { type: "bytes", id: 2 },
                        traceState: { type: "string", id: 3 },
                        parentSpanId: { type: "bytes", id: 4 },
                        name: { type: "string", id: 5 },
                        kind: { type: "SpanKind", id: 6 },
                        startTimeUnixNano: { type: "fixed64", id: 7 },
                        endTimeUnixNano: { type: "fixed64", id: 8 },
                        attributes: repeated(KEY_VALUE, 9),
                        droppedAttributesCount: { type: "uint32", id: 10 },
                        events: repeated("Event", 11),
                        droppedEventsCount: { type: "uint32", id: 12 },
                        links: repeated("Link", 13),
                        droppedLinksCount: { type: "uint32", id: 14 },
                        status: { type: "Status", id: 15 },
                        flags: { type: "fixed32", id: 16 },
                      },
                      nested: {
                        SpanKind: {
                          values: {
                            SPAN_KIND_UNSPECIFIED: 0,
                            SPAN_KIND_INTERNAL: 1,
                            SPAN_KIND_SERVER: 2,
                            SPAN_KIND_CLIENT: 3,
                            SPAN_KIND_PRODUCER: 4,
                            SPAN_KIND_CONSUMER: 5,
                          },
                        },
                        Event: {
                          fields: {
                            timeUnixNano: { type: "fixed64", id: 1 },
                            name: { type: "string", id: 2 },
                            attributes: repeated(KEY_VALUE, 3),
                            droppedAttributesCount: { type: "uint32", id: 4 },
                          },
                        },
                        Link: {
                          fields: {
                            traceId: { type: "bytes", id: 1 },
                            spanId: { type: "bytes", id: 2 },
                            traceState: { type: "string", id: 3 },
                            attributes: repeated(KEY_VALUE, 4),
                            droppedAttributesCount: { type: "uint32", id: 5 },
                            flags: { type: "fixed32", id: 6 },
                          },
                        },
                      },
                    },
                    Status: {
                      fields: { message: { type: "string", id: 2 }, code: { type: "StatusCode", id: 3 } },
                      nested: { StatusCode: { values: { STATUS_CODE_UNSET: 0, STATUS_CODE_OK: 1, STATUS_CODE_ERROR: 2 } } },
                    },
                  },
                },
              },
            },
            collector: {
              nested: {
                trace: {
                  nested: {
                    v1: {
                      nested: {
                        ExportTraceServiceRequest: { fields: { resourceSpans: repeated("opentelemetry.proto.trace.v1.ResourceSpans", 1) } },
                        ExportTraceServiceResponse: { fields: { partialSuccess: { type: "ExportTracePartialSuccess", id: 1 } } },
                        ExportTracePartialSuccess: { fields: { rejectedSpans: { type: "int64", id: 1 }, errorMessage: { type: "string", id: 2 } } },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
    // OTLP/HTTP answers a failure with google.rpc.Status (code, message; details unused here).
    google: { nested: { rpc: { nested: { Status: { fields: { code: { type: "int32", id: 1 }, message: { type: "string", id: 2 } } } } } } },
  },
};

export interface OtlpTraceMessages {
  request: protobuf.Type;
  response: protobuf.Type;
  status: protobuf.Type;
}

let messages: OtlpTraceMessages | undefined;

/** The message types, built once on first use. */
export function otlpTraceMessages(): OtlpTraceMessages {
  if (!messages) {
    const root = protobuf.Root.fromJSON(DESCRIPTOR);
    messages = {
      request: root.lookupType("opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest"),
      response: root.lookupType("opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse"),
      status: root.lookupType("google.rpc.Status"),
    };
  }
  return messages;
}
