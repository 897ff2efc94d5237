import type { Client } from "@langchain/langgraph-sdk";

/**
 * Resolves once a run's stream has carried a `values` event that `isReached` accepts: the run is
 * then known to be between those steps, however loaded the machine is (a fixed sleep guesses).
 * Joins the stream with its replay, so an event sent before the join still counts; the join is
 * closed when this resolves. Throws if the run ends first.
 */
export async function untilRunValues(
  client: Client,
  threadId: string,
  runId: string,
  isReached: (values: unknown) => boolean,
): Promise<void> {
  const stop = new AbortController();
  try {
    for await (const part of client.runs.joinStream(threadId, runId, { streamMode: "values", signal: stop.signal })) {
      if (part.event === "values" && isReached(part.data)) return;
    }
  } finally {
    stop.abort();
  }
  throw new Error(`run ${runId} ended before its stream reached the awaited values`);
}
