import { EventEmitter } from "node:events";
import type { RunStreamEvent } from "../domain/run-event.js";
import type { RunStatus } from "../domain/run.js";

/** What travels on the bus: a stream event, or the end of a run's stream. */
export type BusMessage =
  | { kind: "event"; event: RunStreamEvent }
  | { kind: "end"; runId: string; threadId: string; status: RunStatus | "deleted" };

export type BusListener = (message: BusMessage) => void;

/**
 * Live fan-out of run events to stream readers (SSE, GraphQL subscriptions), by run and by
 * thread. The local bus reaches readers in this process; `attachRedisFanout` extends it across
 * processes. Events are also stored (RunEventStore) so that readers who join late or reconnect
 * replay what they missed; the bus itself keeps nothing.
 */
export class RunEventBus {
  private readonly emitter = new EventEmitter();
  private readonly remotes: Array<(message: BusMessage) => void> = [];

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  /** Sends to local readers and to every attached remote transport. */
  publish(message: BusMessage): void {
    this.deliverLocally(message);
    for (const remote of this.remotes) remote(message);
  }

  /** Entry point for messages that arrived from another process. */
  deliverLocally(message: BusMessage): void {
    const { runId, threadId } = message.kind === "event" ? message.event : message;
    this.emitter.emit(`run:${runId}`, message);
    this.emitter.emit(`thread:${threadId}`, message);
  }

  addRemote(send: (message: BusMessage) => void): void {
    this.remotes.push(send);
  }

  subscribeRun(runId: string, listener: BusListener): () => void {
    return this.subscribe(`run:${runId}`, listener);
  }

  subscribeThread(threadId: string, listener: BusListener): () => void {
    return this.subscribe(`thread:${threadId}`, listener);
  }

  private subscribe(key: string, listener: BusListener): () => void {
    this.emitter.on(key, listener);
    return () => this.emitter.off(key, listener);
  }
}
