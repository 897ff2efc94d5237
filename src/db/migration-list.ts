import { CreateAssistants1763760000000 } from "../../migrations/1763760000000-create-assistants.js";
import { CreateThreads1763760001000 } from "../../migrations/1763760001000-create-threads.js";
import { CreateRuns1763760002000 } from "../../migrations/1763760002000-create-runs.js";

/** Every migration this version of Hangar knows, oldest first. Forward-only: never edit one. */
export const MIGRATIONS = [CreateAssistants1763760000000, CreateThreads1763760001000, CreateRuns1763760002000];
