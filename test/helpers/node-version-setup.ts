import { nodeVersionProblem } from "../../src/node-version.js";

/**
 * The first global setup: on an older Node.js the suite stops here with the CLI's message,
 * instead of most files failing one by one with "registerHooks is not a function".
 */
export default function checkNodeVersion(): void {
  const problem = nodeVersionProblem(process.versions.node);
  if (problem) throw new Error(problem);
}
