/**
 * How long a test waits for a condition (vi.waitFor, expect.poll) before it fails. Vitest's 1 s
 * default gives up on conditions that a loaded machine meets later (a console page re-rendering,
 * a sweep's next pass, a subscription reaching another process): on 2 cores at a load average of
 * 24 such waits took several seconds. vitest.config.ts makes it expect.poll's default; vi.waitFor
 * has no configurable default, so its callers pass it.
 */
export const CONDITION_TIMEOUT_MS = 20_000;
