import { useCallback, useEffect, useState } from "react";
import { ApiError, execute } from "../../api/graphql-client.js";
import { StoreItemsUnderDocument, StoreNamespaceLevelDocument } from "../../generated/graphql.js";
import { sameNamespace } from "../../lib/store-namespace.js";

const PAGE_SIZE = 100;

export interface ItemRef {
  namespace: string[];
  key: string;
}

interface Level {
  children: string[][];
  childrenCursor: string | null;
  items: ItemRef[];
  itemsCursor: string | null;
}

const EMPTY: Level = { children: [], childrenCursor: null, items: [], itemsCursor: null };

/**
 * One level of the namespace tree: the namespaces one label below `labels`, and the items kept
 * directly in `labels` (the root has none). The API lists items under a prefix, deeper ones too,
 * so a page may hold few direct items: "more" reads the next page and keeps the direct ones.
 * Re-read from the start whenever `version` changes (after an edit, a create or a delete).
 */
export function useNamespaceLevel(labels: string[], version: number) {
  const [level, setLevel] = useState<Level>(EMPTY);
  const [error, setError] = useState<ApiError | null>(null);
  const [isLoading, setLoading] = useState(true);
  const labelsKey = JSON.stringify(labels);

  const readChildren = useCallback(
    async (after: string | null) => {
      const prefix: string[] = JSON.parse(labelsKey);
      const result = await execute(StoreNamespaceLevelDocument, { prefix: prefix.length > 0 ? prefix : null, maxDepth: prefix.length + 1, first: PAGE_SIZE, after });
      const { edges, pageInfo } = result.storeNamespaces;
      return {
        children: edges.map((edge) => edge.node.labels).filter((child) => child.length === prefix.length + 1),
        cursor: pageInfo.hasNextPage ? (pageInfo.endCursor ?? null) : null,
      };
    },
    [labelsKey],
  );

  const readItems = useCallback(
    async (after: string | null) => {
      const prefix: string[] = JSON.parse(labelsKey);
      if (prefix.length === 0) return { items: [], cursor: null };
      const result = await execute(StoreItemsUnderDocument, { namespacePrefix: prefix, first: PAGE_SIZE, after });
      const { edges, pageInfo } = result.storeItems;
      return {
        items: edges.map((edge) => ({ namespace: edge.node.namespace, key: edge.node.key })).filter((item) => sameNamespace(item.namespace, prefix)),
        cursor: pageInfo.hasNextPage ? (pageInfo.endCursor ?? null) : null,
      };
    },
    [labelsKey],
  );

  const guard = useCallback(async (work: () => Promise<void>) => {
    setLoading(true);
    try {
      await work();
      setError(null);
    } catch (caught) {
      setError(caught instanceof ApiError ? caught : new ApiError(String(caught), null, 0));
    } finally {
      setLoading(false);
    }
  }, []);

  useEffect(() => {
    let isCurrent = true;
    void guard(async () => {
      const [children, items] = await Promise.all([readChildren(null), readItems(null)]);
      if (isCurrent) setLevel({ children: children.children, childrenCursor: children.cursor, items: items.items, itemsCursor: items.cursor });
    });
    return () => {
      isCurrent = false;
    };
  }, [guard, readChildren, readItems, version]);

  const moreChildren = () =>
    guard(async () => {
      if (!level.childrenCursor) return;
      const next = await readChildren(level.childrenCursor);
      setLevel((current) => ({ ...current, children: [...current.children, ...next.children], childrenCursor: next.cursor }));
    });
  const moreItems = () =>
    guard(async () => {
      if (!level.itemsCursor) return;
      const next = await readItems(level.itemsCursor);
      setLevel((current) => ({ ...current, items: [...current.items, ...next.items], itemsCursor: next.cursor }));
    });

  return { ...level, error, isLoading, moreChildren, moreItems };
}
