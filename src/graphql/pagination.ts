import { resolveArrayConnection, resolveOffsetConnection, type DefaultConnectionArguments } from "@pothos/plugin-relay";

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/**
 * A connection page over a service's `search` (limit/offset) and `count`. Cursors are opaque
 * offsets: the services order every list with an id tie-breaker, so an offset always names the
 * same position while the data does not change. `last` without `before` needs the total first;
 * otherwise the COUNT query runs only if the client selects `totalCount`.
 */
export async function resolveServicePage<T>(
  args: DefaultConnectionArguments,
  fetchPage: (page: { limit: number; offset: number }) => Promise<T[]>,
  countAll: () => Promise<number>,
) {
  let total: Promise<number> | undefined;
  const totalCount = () => (total ??= countAll());
  const needsTotal = args.last != null && args.before == null;
  const connection = await resolveOffsetConnection(
    {
      args,
      defaultSize: DEFAULT_PAGE_SIZE,
      maxSize: MAX_PAGE_SIZE,
      totalCount: needsTotal ? await totalCount() : undefined,
    },
    fetchPage,
  );
  return { ...connection, totalCount };
}

/** A connection page over a list already in memory (a DataLoader result). */
export function resolveListPage<T>(args: DefaultConnectionArguments, list: readonly T[]) {
  return {
    ...resolveArrayConnection({ args, defaultSize: DEFAULT_PAGE_SIZE, maxSize: MAX_PAGE_SIZE }, list),
    totalCount: () => list.length,
  };
}
