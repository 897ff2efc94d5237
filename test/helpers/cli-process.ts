import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * `node` arguments that run the hangar CLI as `npm start` does: the built entry, which the test
 * run's global setup keeps current (scripts/build-steps.ts). Through tsx instead, every process
 * would transform and load the sources anew: `hangar migrate` took 9.4 s that way against 1.6 s
 * built, on the shared 2-core machine at a load average of 22.
 */
export function cliArgs(args: readonly string[]): string[] {
  return [path.join(root, "dist/src/cli.js"), ...args];
}

/** The repository root: the CLI processes' working directory (relative --config paths). */
export const CLI_CWD = root;
/** Every process started and not yet exited, ready or not: stopCliProcesses ends them all. */
const running = new Set<ChildProcess>();

export interface CliProcess {
  /** The HTTP address (`serve` only; null for `worker`). */
  url: string | null;
  child: ChildProcess;
  /** Its log lines at warn level and above (pino levels 40+), for a failing test to show. */
  problems(): string[];
}

/** A real `hangar serve` / `hangar worker` OS process (the built CLI entry), resolved once it logs that it is running. */
export function startCliProcess(args: string[], env: Record<string, string>): Promise<CliProcess> {
  const child = spawn(process.execPath, cliArgs(args), {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: "info", ...env },
  });
  running.add(child);
  let output = "";
  const problems: string[] = [];
  let partial = "";
  const collectProblems = (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) if (/"level":(4|5|6)0/.test(line) && problems.length < 100) problems.push(line);
  };
  child.stdout.on("data", collectProblems);
  child.stderr.on("data", collectProblems);
  child.on("exit", () => running.delete(child));
  return new Promise((resolve, reject) => {
    const onOutput = (chunk: Buffer) => {
      output += chunk;
      if (!output.includes('"msg":"Hangar is running"')) return;
      child.stdout.off("data", onOutput);
      child.stderr.off("data", onOutput);
      const url = output.match(/"url":"(http:[^"]+)"/)?.[1] ?? null;
      resolve({
        url,
        child,
        problems: () => [...problems],
      });
    };
    child.stdout.on("data", onOutput);
    child.stderr.on("data", onOutput);
    child.on("exit", (code) => reject(new Error(`hangar ${args.join(" ")} exited (${code}) before it ran:\n${output}`)));
  });
}

/** SIGTERM to every process started here that is still running (started or still starting), then waits. */
export async function stopCliProcesses(): Promise<void> {
  await Promise.all(
    [...running].map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once("exit", () => resolve());
          child.kill("SIGTERM");
        }),
    ),
  );
}
