import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { ApiError, execute } from "../api/graphql-client.js";
import { useConnectionState } from "../api/connection.js";
import { ThreadStepsDocument, type ThreadStepsQuery } from "../generated/graphql.js";
import { runSteps, type RunStep } from "../lib/run-steps.js";

export type StepState = ThreadStepsQuery["thread"]["history"][number];

// Checkpoints per page: a long thread's history is read a page at a time, newest first.
export const STEP_PAGE_SIZE = 25;
// Re-reading after a change asks again for what was shown, up to this many checkpoints.
const MAX_REFRESH = 200;

/**
 * A thread's (or a subgraph's, with `checkpointNs`) checkpoint history and its steps, newest
 * page first; older pages load on demand. A new `refreshKey` (a node finished, a run ended)
 * reads the newest checkpoints again.
 */
export function useThreadHistory(threadId: string | null, checkpointNs: string | null, refreshKey: string, pageSize = STEP_PAGE_SIZE) {
  const [states, setStates] = useState<StepState[]>([]);
  const [hasEarlier, setHasEarlier] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const [isLoading, setLoading] = useState(false);
  const loaded = useRef({ key: "", count: 0 });
  const { reconnects } = useConnectionState();

  useEffect(() => {
    if (!threadId) {
      setStates([]);
      return;
    }
    let isCurrent = true;
    // What was shown of this history is asked for again; another thread starts at one page.
    const key = `${threadId}|${checkpointNs ?? ""}`;
    if (loaded.current.key !== key) {
      loaded.current = { key, count: 0 };
      setStates([]);
    }
    const limit = Math.min(MAX_REFRESH, Math.max(pageSize, loaded.current.count));
    setLoading(true);
    execute(ThreadStepsDocument, { threadId, limit, checkpointNs })
      .then(({ thread }) => {
        if (!isCurrent) return;
        loaded.current.count = thread.history.length;
        setStates(thread.history);
        setHasEarlier(thread.history.length === limit);
        setError(null);
      })
      .catch((caught: unknown) => isCurrent && setError(asApiError(caught)))
      .finally(() => isCurrent && setLoading(false));
    return () => {
      isCurrent = false;
    };
  }, [threadId, checkpointNs, refreshKey, reconnects, pageSize]);

  const loadEarlier = useCallback(async () => {
    const oldest = states.at(-1)?.checkpointId;
    if (!threadId || !oldest) return;
    setLoading(true);
    try {
      const { thread } = await execute(ThreadStepsDocument, { threadId, limit: pageSize, before: oldest, checkpointNs });
      setStates((previous) => [...previous, ...thread.history]);
      loaded.current.count += thread.history.length;
      setHasEarlier(thread.history.length === pageSize);
    } catch (caught) {
      setError(asApiError(caught));
    } finally {
      setLoading(false);
    }
  }, [threadId, checkpointNs, states, pageSize]);

  const steps: RunStep[] = useMemo(() => runSteps(states), [states]);
  return { states, steps, hasEarlier, loadEarlier, error, isLoading };
}

function asApiError(caught: unknown): ApiError {
  return caught instanceof ApiError ? caught : new ApiError(String(caught), null, 0);
}
