import { useCallback, useEffect, useState } from "react";

/**
 * Cursor paging (Previous / Next) for a list connection. Not a growing page size: the API caps a
 * page at 100 items, so "show more" by asking for a bigger first page silently stops there.
 */
export function useCursorPages(pageSize: number) {
  const [cursors, setCursors] = useState<string[]>([]);
  const next = useCallback((endCursor: string) => setCursors((stack) => [...stack, endCursor]), []);
  const previous = useCallback(() => setCursors((stack) => stack.slice(0, -1)), []);
  const reset = useCallback(() => setCursors([]), []);
  return { pageSize, after: cursors.at(-1) ?? null, pageIndex: cursors.length, next, previous, reset };
}

export type CursorPages = ReturnType<typeof useCursorPages>;

interface PageOfConnection {
  totalCount: number;
  edges: readonly unknown[];
  pageInfo: { hasNextPage: boolean; endCursor?: string | null };
}

/** The Previous / Next bar under a list; hidden when everything fits on the first page. */
export function CursorPager({ pages, page }: { pages: CursorPages; page: PageOfConnection | undefined }) {
  // Deleting the last item of a later page leaves it empty: step back to one with items on it.
  const isPageEmpty = page !== undefined && page.edges.length === 0 && pages.pageIndex > 0;
  const { previous } = pages;
  useEffect(() => {
    if (isPageEmpty) previous();
  }, [isPageEmpty, previous]);

  if (!page || (pages.pageIndex === 0 && !page.pageInfo.hasNextPage)) return null;
  const firstShown = pages.pageIndex * pages.pageSize + 1;
  const { endCursor, hasNextPage } = page.pageInfo;
  return (
    <nav className="pager" aria-label="Pages">
      <button type="button" className="button" disabled={pages.pageIndex === 0} onClick={pages.previous}>
        ← Previous
      </button>
      <span className="muted">
        {firstShown}–{firstShown + page.edges.length - 1} of {page.totalCount}
      </span>
      <button type="button" className="button" disabled={!hasNextPage || !endCursor} onClick={() => endCursor && pages.next(endCursor)}>
        Next →
      </button>
    </nav>
  );
}
