#!/usr/bin/env node
// The CLI's entry: only the Node.js version check is imported statically, so an older Node
// prints what to install instead of failing to link a module that needs a newer one.
import { nodeVersionProblem } from "./node-version.js";

const problem = nodeVersionProblem(process.versions.node);
if (problem) {
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}
await import("./cli-commands.js");
