import { useEffect, useRef, useState, type FormEvent } from "react";
import { useQuery } from "../../api/use-query.js";
import { ErrorBanner, Loading } from "../../components/feedback.js";
import { StoreSearchDocument } from "../../generated/graphql.js";
import { namespacePath } from "../../lib/store-namespace.js";
import type { ItemRef } from "./use-namespace-level.js";

const RESULT_COUNT = 20;

/**
 * Semantic search over every namespace, ranked by the server's similarity score. Deployments
 * without langgraph.json store.index cannot rank: the server's refusal is shown as it is.
 */
export function MemorySearch({ version, onSelect }: { version: number; onSelect: (item: ItemRef) => void }) {
  const [text, setText] = useState("");
  const [query, setQuery] = useState("");
  const search = useQuery(StoreSearchDocument, { query, first: RESULT_COUNT }, { skip: query === "" });
  const { refetch } = search;
  const isSearching = useRef(false);
  isSearching.current = query !== "";
  useEffect(() => {
    // An edit, create or delete changes what matches: ask again (the version is the signal).
    if (version > 0 && isSearching.current) refetch();
  }, [version, refetch]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = text.trim();
    if (trimmed === query) search.refetch();
    setQuery(trimmed);
  };
  const results = query === "" ? null : (search.data?.storeItems.edges.map((edge) => edge.node) ?? null);
  return (
    <section className="panel memory-search" aria-label="Semantic search">
      <form className="toolbar" role="search" onSubmit={submit}>
        <input
          type="search"
          className="memory-search-input"
          value={text}
          placeholder="Search memories by meaning…"
          aria-label="Semantic search"
          data-search
          onChange={(event) => setText(event.target.value)}
        />
        <button type="submit" className="button">
          Search
        </button>
      </form>
      {query !== "" && <ErrorBanner error={search.error} onRetry={search.refetch} />}
      {query !== "" && search.isLoading && !results && <Loading label="Searching…" />}
      {results && !search.error && (
        <>
          <p className="muted memory-result-count" aria-live="polite">
            {results.length === 0 ? `Nothing matches “${query}”.` : `${results.length} closest to “${query}”`}
          </p>
          <ol className="memory-results">
            {results.map((result) => (
              <li key={result.id}>
                <button type="button" className="memory-result" onClick={() => onSelect({ namespace: result.namespace, key: result.key })}>
                  <span className="memory-score" data-testid="search-score" title="Cosine similarity">
                    {result.score === null || result.score === undefined ? "—" : result.score.toFixed(3)}
                  </span>
                  <span className="memory-result-name">
                    <span className="muted">{namespacePath(result.namespace)} /</span> <code>{result.key}</code>
                  </span>
                  <span className="memory-result-value muted">{JSON.stringify(result.value)}</span>
                </button>
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}
