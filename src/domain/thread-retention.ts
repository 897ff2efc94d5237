/** POST /threads/prune strategies: delete the threads, or keep each with only its latest checkpoint. */
export const PRUNE_STRATEGIES = ["delete", "keep_latest"] as const;
export type PruneStrategy = (typeof PRUNE_STRATEGIES)[number];
