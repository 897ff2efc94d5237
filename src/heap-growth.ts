import v8 from "node:v8";

/**
 * How far past what the last full GC found live V8 may grow the old generation before the next
 * one: to 1 + HEAP_GROWING_PERCENT / 100 times it. V8's own factor goes up to 4 on a machine with
 * memory to spare when its GCs are cheap, which a server's are (a few tens of ms for ~70 MB live).
 *
 * Under a burst of long requests, much of what each holds (request, stream, run state) outlives
 * two scavenges and is promoted, then dies with its request: garbage in the old generation that
 * only a full GC frees. At factor 4 the heap of `hangar serve` kept that garbage across bursts of
 * 1,000 streams until it reached ~4 times the live heap (RSS 364, then 500, then 599 MB on three
 * bursts); at factor 2 a full GC ran about twice a burst and RSS stayed at ~295 MB, each GC taking
 * 20-140 ms on a thread mostly waiting for PostgreSQL.
 *
 * 2.5, not 2: the full GCs cost CPU where the heap is small and turns over slowly. Runs one at a
 * time (`npm run bench -- runs`, c=1) cost the server 6.8 ms of CPU per run at factor 2 against
 * 4.8 ms with V8's own factor, and 5.6 at 2.5 against 6.1 at 2 (same runs, alternated); four
 * bursts of 1,000 streams peaked at 292-366 MB at 2.5, 290-296 at 2, 317-454 with V8's own.
 */
export const HEAP_GROWING_PERCENT = 150;

const OPERATOR_SETTING = /^--heap[-_]growing[-_]percent(=|$)/;

/**
 * Sets V8's heap growing factor for this process (v8.setFlagsFromString, read by V8 each time it
 * sets the next full GC's threshold), unless the operator chose one on the node command line
 * (`node --heap-growing-percent=N …`; V8 does not accept it in NODE_OPTIONS). Called by the
 * commands that run the server, before they load it. Returns whether it set it.
 */
export function limitHeapGrowth(execArgv: readonly string[] = process.execArgv): boolean {
  if (execArgv.some((arg) => OPERATOR_SETTING.test(arg))) return false;
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  return true;
}
