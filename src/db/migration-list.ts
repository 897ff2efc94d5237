import { CreateAssistants1763760000000 } from "../../migrations/1763760000000-create-assistants.js";
import { CreateThreads1763760001000 } from "../../migrations/1763760001000-create-threads.js";
import { CreateRuns1763760002000 } from "../../migrations/1763760002000-create-runs.js";
import { CreateTraceRuns1763760010000 } from "../../migrations/1763760010000-create-trace-runs.js";
import { CreateModelPrices1763760011000 } from "../../migrations/1763760011000-create-model-prices.js";
import { CreateCrons1763760020000 } from "../../migrations/1763760020000-create-crons.js";
import { AddRunsCronId1763760021000 } from "../../migrations/1763760021000-add-runs-cron-id.js";

/** Every migration this version of Hangar knows, oldest first. Forward-only: never edit one. */
export const MIGRATIONS = [CreateAssistants1763760000000, CreateThreads1763760001000, CreateRuns1763760002000, CreateTraceRuns1763760010000, CreateModelPrices1763760011000, CreateCrons1763760020000, AddRunsCronId1763760021000];
