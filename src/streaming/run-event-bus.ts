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
 *
 * Other processes must hear of a message only once what it announces is committed: their readers
 * subscribe, then read the database, and an event announced before a reader subscribed but
 * committed after its read would reach it only with the run's next event. A run's stream events
 * are therefore sent to them by the store after their batch commits (`sendToOtherProcesses`);
 * `publish` is for messages whose cause is committed already (a run's end, a state edit).
 */
export class RunEventBus {
  private readonly emitter = new EventEmitter();
  private readonly remotes: Array<(message: BusMessage) => void> = [];

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  /** Sends to local readers and to other processes; what the message announces must be committed. */
  publish(message: BusMessage): void {
    this.deliverLocally(message);
    this.sendToOtherProcesses(message);
  }

  /** Through every attached remote transport, in call order. */
  sendToOtherProcesses(message: BusMessage): void {
    for (const remote of this.remotes) remote(message);
  }

  /** Readers in this process (they also read what is not committed yet); entry point of messages from other processes. */
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
