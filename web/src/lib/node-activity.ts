import { readInterrupts } from "./run-stream.js";

/**
 * What the graph view shows of a run, kept apart from the layout code (graph-layout.ts) so that
 * pages can compute it without loading the layout library, which loads with the graph view.
 */

/** What a run did to each node, from its events: running now, finished, stopped in interrupt(). */
export interface NodeActivity {
  active: readonly string[];
  finished: readonly string[];
  /** Node name → the interrupt values it is waiting on. */
  interrupted: Readonly<Record<string, unknown[]>>;
}

export const NO_ACTIVITY: NodeActivity = { active: [], finished: [], interrupted: {} };

/** The xray depth needed to show every expanded subgraph (`a:b` needs 2). */
export function xrayDepthFor(expanded: ReadonlySet<string>): number {
  let depth = 0;
  for (const id of expanded) depth = Math.max(depth, id.split(":").length);
  return depth;
}

/** A stored state's interrupted tasks (ThreadState.tasks), each on its node. */
export function interruptedActivity(tasks: ReadonlyArray<{ name: string; interrupts: unknown }>): NodeActivity {
  const interrupted: Record<string, unknown[]> = {};
  for (const task of tasks) {
    const values = readInterrupts(task.interrupts).map((item) => item.value);
    if (values.length > 0) interrupted[task.name] = values;
  }
  return { active: [], finished: [], interrupted };
}
