/**
 * Process-wide settings that `hangar serve` / `hangar worker` apply once, before they start
 * Hangar. They change no behaviour; each removes a per-call cost that LangChain, LangGraph and
 * langsmith pay many times per run: one run of a one-node graph reads `process.env` ~160 times
 * and calls `crypto.getRandomValues` 17 times. `npm run bench -- graph` (the graph in-process,
 * alternated with and without): 1.65–1.82 → 1.46–1.49 ms of CPU per run, about 0.2 ms of the
 * ~3.3 ms a run costs the server in the run bench (where it is within the VM's drift).
 *
 * They are applied by the CLI only (the process owner), never by code embedding Hangar.
 */
import { randomFillSync } from "node:crypto";

/**
 * Replaces `process.env` with a plain-object copy of itself.
 *
 * Why: every `process.env.X` read on Node is a call into C++ (getenv and a string copy).
 * @langchain/core and langsmith read several variables per runnable call (a langsmith RunTree
 * is built per node invocation and reads the endpoint, key, project and tracing flags), which
 * made environment reads a few percent of the server's CPU. A plain object answers in
 * nanoseconds.
 *
 * What stays true: later assignments (the deployment's `env` file) land in the copy and are seen
 * by everything in this process, child processes get the copy by default (child_process and
 * worker_threads both default to `process.env`). Only native code calling getenv() itself would
 * miss a variable set after this point. Windows keeps the real object: its environment is
 * case-insensitive, which a plain object is not.
 */
export function snapshotEnvironment(): void {
  if (process.platform === "win32") return;
  process.env = { ...process.env };
}

// Large enough that a refill (one getrandom syscall and OpenSSL's bookkeeping) serves hundreds
// of uuids; small requests only, so a caller asking for many bytes gets them straight.
const POOL_BYTES = 16 * 1024;
const POOLED_REQUEST_MAX_BYTES = 256;

/**
 * Serves small `crypto.getRandomValues` requests from a pool of random bytes, refilled from the
 * same CSPRNG in one call.
 *
 * Why: LangChain and langsmith make uuids (v6 checkpoint ids, v7 run ids) by asking
 * `crypto.getRandomValues` for 16 bytes at a time, several per graph step. Each call costs a trip
 * into OpenSSL (with a getpid() syscall for fork detection): 3% of the server's profile samples
 * in the run bench, part of it time the thread lost to other processes at that syscall. Node's own `crypto.randomUUID` buffers its entropy the same way.
 *
 * Every byte is handed out once. Anything other than a small Uint8Array (other typed arrays,
 * large or invalid requests) goes to the original, so its errors and types are unchanged.
 * Returns the function that undoes it (tests).
 */
export function poolRandomValues(): () => void {
  const webCrypto = globalThis.crypto as Crypto & { getRandomValues: Crypto["getRandomValues"] };
  const original = webCrypto.getRandomValues;
  const hadOwnProperty = Object.hasOwn(webCrypto, "getRandomValues");
  const pool = new Uint8Array(POOL_BYTES);
  let used = POOL_BYTES;

  const pooled = function getRandomValues<T extends ArrayBufferView | null>(array: T): T {
    if (!(array instanceof Uint8Array) || array.byteLength > POOLED_REQUEST_MAX_BYTES) {
      return original.call(webCrypto, array as never) as T;
    }
    if (used + array.byteLength > POOL_BYTES) {
      randomFillSync(pool);
      used = 0;
    }
    array.set(pool.subarray(used, used + array.byteLength));
    used += array.byteLength;
    return array;
  };
  Object.defineProperty(webCrypto, "getRandomValues", { value: pooled, configurable: true, writable: true });
  return () => {
    if (hadOwnProperty) Object.defineProperty(webCrypto, "getRandomValues", { value: original, configurable: true, writable: true });
    else delete (webCrypto as { getRandomValues?: unknown }).getRandomValues;
  };
}
