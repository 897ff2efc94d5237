import { z } from "zod";
import { optional } from "./common.js";

/** POST /internal/truncate: LangGraph's dev server calls the checkpoint flag `checkpointer`, its test helper `checkpoint`. */
export const TruncateRequest = z.object({
  runs: optional(z.boolean()),
  threads: optional(z.boolean()),
  assistants: optional(z.boolean()),
  checkpointer: optional(z.boolean()),
  checkpoint: optional(z.boolean()),
  store: optional(z.boolean()),
});
