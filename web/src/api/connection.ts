import { useSyncExternalStore } from "react";

/**
 * Whether the console can reach the server. A page that is only being looked at sends nothing,
 * so a light liveness probe (GET /ok, which touches no dependency) runs while the tab is
 * visible; GraphQL requests and the live stream report what they see in between. While the
 * server is away the probe backs off (1, 2, 4, then every 5 s): each failed request is one line
 * in the browser's console, so a fixed fast poll would fill it.
 */

const LIVENESS_PATH = "/ok";
const HEALTHY_PROBE_MS = 5_000;
const RETRY_MS = [1_000, 2_000, 4_000, 5_000];

export interface ConnectionState {
  isConnected: boolean;
  /** Counts recoveries: queries re-run when it changes, since what they showed may be stale. */
  reconnects: number;
}

let state: ConnectionState = { isConnected: true, reconnects: 0 };
const listeners = new Set<() => void>();
let timer: number | null = null;
let failedProbes = 0;
let isStarted = false;

function setConnected(isConnected: boolean): void {
  if (state.isConnected === isConnected) return;
  state = { isConnected, reconnects: state.reconnects + (isConnected ? 1 : 0) };
  for (const listener of listeners) listener();
}

/** A request could not reach the server (a refused connection, not an error answer). */
export function reportUnreachable(): void {
  if (!state.isConnected) return;
  setConnected(false);
  failedProbes = 0;
  scheduleProbe(RETRY_MS[0]);
}

/** The server answered something. */
export function reportReachable(): void {
  failedProbes = 0;
  if (state.isConnected) return;
  setConnected(true);
  scheduleProbe(HEALTHY_PROBE_MS);
}

/** Something hinted the server may be gone (the live stream closed): probe now rather than later. */
export function checkConnection(): void {
  scheduleProbe(0);
}

function scheduleProbe(delayMs: number): void {
  if (timer !== null) window.clearTimeout(timer);
  timer = window.setTimeout(() => void probe(), delayMs);
}

async function probe(): Promise<void> {
  timer = null;
  // A hidden tab probes nothing; it checks again as soon as it is shown.
  if (document.visibilityState !== "visible") return;
  try {
    await fetch(LIVENESS_PATH, { cache: "no-store" });
    reportReachable();
    if (timer === null) scheduleProbe(HEALTHY_PROBE_MS);
  } catch {
    reportUnreachable();
    failedProbes++;
    scheduleProbe(RETRY_MS[Math.min(failedProbes, RETRY_MS.length - 1)]!);
  }
}

function start(): void {
  if (isStarted) return;
  isStarted = true;
  scheduleProbe(HEALTHY_PROBE_MS);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") scheduleProbe(0);
  });
}

function subscribeToConnection(listener: () => void): () => void {
  start();
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useConnectionState(): ConnectionState {
  return useSyncExternalStore(subscribeToConnection, () => state);
}
