import { InvalidInputError } from "../../domain/errors.js";
import { runIdOfEvent } from "../../protocol/protocol-events.js";
import { openProtocolEventStream } from "../../protocol/protocol-stream.js";
import { eventFilterOf, PROTOCOL_CHANNELS, ProtocolError, sinceOf, type ProtocolEvent } from "../../protocol/protocol-wire.js";
import { builder } from "../builder.js";
import { untilUnsubscribed } from "./run/subscriptions.js";

/**
 * A thread's events as LangGraph streaming protocol v2 names them, over GraphQL: the same events,
 * built by the same code (protocol/protocol-stream.ts), as the protocol's WebSocket and SSE
 * transports send, so REST, GraphQL and the console share one event model.
 */

const ThreadEventRef = builder.objectRef<ProtocolEvent>("ThreadEvent");

builder.objectType(ThreadEventRef, {
  description: "One event of a thread's stream in LangGraph streaming protocol v2 (what /threads/{id}/stream/events sends).",
  fields: (t) => ({
    method: t.exposeString("method", {
      description: "The event: values, updates, messages, tools, lifecycle, input.requested, checkpoints, tasks or custom.",
    }),
    namespace: t.stringList({
      description: "The subgraph path (`child:<task id>`, …); empty for the thread's own graph.",
      resolve: (event) => event.params.namespace,
    }),
    node: t.string({ nullable: true, description: "The node that produced a messages event.", resolve: (event) => event.params.node ?? null }),
    timestamp: t.float({ description: "When the server sent it, in milliseconds since the epoch.", resolve: (event) => event.params.timestamp }),
    data: t.field({ type: "JSON", nullable: true, description: "The event's data, as the protocol defines it for its method.", resolve: (event) => event.params.data }),
    seq: t.float({
      description: "The thread stream position of the stored event it came from (an integer; several events can share one): pass the last one seen as `since` to resume.",
      resolve: (event) => event.seq,
    }),
    runId: t.id({
      nullable: true,
      description: "The run it came from (Hangar's addition: the protocol's events name no run).",
      resolve: (event) => runIdOfEvent(event) ?? null,
    }),
    eventId: t.string({ description: "Unique within the thread's stream.", resolve: (event) => event.event_id }),
  }),
});

builder.subscriptionFields((t) => ({
  threadEvents: t.field({
    type: ThreadEventRef,
    description:
      "A thread's events on the protocol v2 channels asked for: with `since`, the stored events after that position " +
      "first (a reconnect resumes without loss or duplicates); without it, from the start of the run in progress (then those queued " +
      "behind it), or of the thread's latest run when none is active. " +
      "Then live ones (runs executing in any process) until the client unsubscribes. NOT_FOUND for a thread the caller cannot read.",
    args: {
      threadId: t.arg.id({ required: true }),
      channels: t.arg.stringList({
        required: true,
        description: `Any of ${PROTOCOL_CHANNELS.join(", ")}, or custom:<name> for one custom channel.`,
      }),
      // A list of lists, which GraphQL input lists cannot nest here: JSON, checked by the protocol's rule.
      namespaces: t.arg({
        type: "JSON",
        description:
          'Namespace prefixes to keep, a list of string lists such as [["child"]] (a segment `child` matches `child:<task id>`); default: [[]], the thread\'s own graph and below.',
      }),
      depth: t.arg.int({ description: "How far below a prefix events still match; default: any depth." }),
      since: t.arg.float({ description: "A `seq` seen before: replay the stored events after it, then go on live." }),
    },
    subscribe: async (_root, args, ctx) => {
      const { filter, since } = filterOf(args);
      const abort = new AbortController();
      const stream = await openProtocolEventStream(ctx.services, { threadId: args.threadId, filter, since, signal: abort.signal });
      async function* events(): AsyncGenerator<ProtocolEvent> {
        yield* stream.replayed;
        yield* stream.live;
      }
      return untilUnsubscribed(events(), abort);
    },
    resolve: (event) => event,
  }),
}));

/** The arguments read by the protocol's own rules; what it refuses is INVALID_INPUT naming the argument. */
function filterOf(args: { channels: string[]; namespaces?: unknown; depth?: number | null; since?: number | null }) {
  const params = { channels: args.channels, namespaces: args.namespaces ?? undefined, depth: args.depth ?? undefined, since: args.since ?? undefined };
  try {
    return { filter: eventFilterOf(params), since: sinceOf(params) };
  } catch (error) {
    if (error instanceof ProtocolError) throw new InvalidInputError(error.message);
    throw error;
  }
}
