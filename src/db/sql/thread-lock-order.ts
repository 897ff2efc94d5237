/**
 * The order in which a batched statement should process its items: by thread id, stable. Every
 * batch that locks thread rows then takes common threads in the same order, so two batches (of
 * two processes) cannot deadlock each other. Answers item indexes.
 */
export function threadLockOrder<T>(items: readonly T[], threadIdOf: (item: T) => string): number[] {
  return items
    .map((_, index) => index)
    .sort((a, b) => {
      const left = threadIdOf(items[a]!);
      const right = threadIdOf(items[b]!);
      return left < right ? -1 : left > right ? 1 : a - b;
    });
}
