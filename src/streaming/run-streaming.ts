import type { RunEventBus } from "./run-event-bus.js";
import type { RunEventStore } from "./run-event-store.js";
import type { RunSignals } from "./run-signals.js";

/** The process's run coordination: live events, their stored copy, and queue wake-ups. */
export interface RunStreaming {
  bus: RunEventBus;
  store: RunEventStore;
  signals: RunSignals;
}
