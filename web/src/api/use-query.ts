import { useCallback, useEffect, useRef, useState } from "react";
import type { TypedDocumentString } from "../generated/graphql.js";
import { useApiKeyState } from "./api-key.js";
import { useConnectionState } from "./connection.js";
import { ApiError, execute } from "./graphql-client.js";

export interface QueryState<TData> {
  data: TData | null;
  error: ApiError | null;
  isLoading: boolean;
  /** Runs the query again (keeps showing the current data meanwhile). */
  refetch: () => void;
}

/**
 * Runs a query when its variables change (and after the API key changes), keeping the previous
 * data on screen while the next answer loads, so lists do not flash empty on every keystroke.
 * `pollMs` re-runs it periodically, for pages that show live statuses.
 */
export function useQuery<TData, TVariables>(
  operation: TypedDocumentString<TData, TVariables>,
  variables: TVariables,
  options: { skip?: boolean; pollMs?: number } = {},
): QueryState<TData> {
  const { generation } = useApiKeyState();
  // Back after an outage: what the page shows may be stale (or an error), so it is read again.
  const { isConnected, reconnects } = useConnectionState();
  const [data, setData] = useState<TData | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [isLoading, setLoading] = useState(!options.skip);
  const [tick, setTick] = useState(0);
  const variablesKey = JSON.stringify(variables);
  const latestVariables = useRef(variables);
  latestVariables.current = variables;

  useEffect(() => {
    if (options.skip) {
      setLoading(false);
      return;
    }
    const abort = new AbortController();
    setLoading(true);
    execute(operation, latestVariables.current, abort.signal)
      .then((result) => {
        if (abort.signal.aborted) return;
        setData(result);
        setError(null);
      })
      .catch((caught: unknown) => {
        if (abort.signal.aborted) return;
        setError(caught instanceof ApiError ? caught : new ApiError(String(caught), null, 0));
      })
      .finally(() => {
        if (!abort.signal.aborted) setLoading(false);
      });
    return () => abort.abort();
  }, [operation, variablesKey, generation, reconnects, tick, options.skip]);

  useEffect(() => {
    // No polling while the server is away: the liveness probe alone retries, so the browser's
    // console gets one failed request per retry rather than one per polling query.
    if (!options.pollMs || options.skip || !isConnected) return;
    const timer = window.setInterval(() => {
      if (document.visibilityState === "visible") setTick((value) => value + 1);
    }, options.pollMs);
    return () => window.clearInterval(timer);
  }, [options.pollMs, options.skip, isConnected]);

  const refetch = useCallback(() => setTick((value) => value + 1), []);
  return { data, error, isLoading, refetch };
}

/** A mutation's call, whether it is in flight, and its last error. */
export function useAction<TArgs extends unknown[], TResult>(action: (...args: TArgs) => Promise<TResult>) {
  const [isPending, setPending] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const run = useCallback(
    async (...args: TArgs): Promise<TResult | null> => {
      setPending(true);
      setError(null);
      try {
        return await action(...args);
      } catch (caught) {
        setError(caught instanceof ApiError ? caught : new ApiError(String(caught), null, 0));
        return null;
      } finally {
        setPending(false);
      }
    },
    [action],
  );
  return { run, isPending, error, clearError: () => setError(null) };
}
