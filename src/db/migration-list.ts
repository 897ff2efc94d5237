import { CreateAssistants1763760000000 } from "../../migrations/1763760000000-create-assistants.js";
import { CreateThreads1763760001000 } from "../../migrations/1763760001000-create-threads.js";
import { CreateRuns1763760002000 } from "../../migrations/1763760002000-create-runs.js";
import { CreateTraceRuns1763760010000 } from "../../migrations/1763760010000-create-trace-runs.js";
import { CreateModelPrices1763760011000 } from "../../migrations/1763760011000-create-model-prices.js";
import { CreateRunFunctions1763760020000 } from "../../migrations/1763760020000-create-run-functions.js";
import { CreateCrons1763760030000 } from "../../migrations/1763760030000-create-crons.js";
import { AddRunsCronId1763760031000 } from "../../migrations/1763760031000-add-runs-cron-id.js";
import { CheckAssistantOnEnqueue1763760040000 } from "../../migrations/1763760040000-check-assistant-on-enqueue.js";
import { CreateStoreItems1763760050000 } from "../../migrations/1763760050000-create-store-items.js";
import { AddThreadsTtl1763760051000 } from "../../migrations/1763760051000-add-threads-ttl.js";
import { AnnounceAssistantChanges1763760060000 } from "../../migrations/1763760060000-announce-assistant-changes.js";
import { AdoptCheckpointTables1763760070000 } from "../../migrations/1763760070000-adopt-checkpoint-tables.js";
import { CreateWebhookDeliveries1763760082000 } from "../../migrations/1763760082000-create-webhook-deliveries.js";
import { NumberRunEventsInThreadOrder1763760084000 } from "../../migrations/1763760084000-number-run-events-in-thread-order.js";
import { CreateServerSecrets1763760091000 } from "../../migrations/1763760091000-create-server-secrets.js";
import { CreateCronFirings1763760093000 } from "../../migrations/1763760093000-create-cron-firings.js";
import { DecideMultitaskOnEnqueue1763760095000 } from "../../migrations/1763760095000-decide-multitask-on-enqueue.js";
import { CreateTraceFeedback1763760097500 } from "../../migrations/1763760097500-create-trace-feedback.js";
import { AddModelPriceTiers1763760098000 } from "../../migrations/1763760098000-add-model-price-tiers.js";
import { AddTraceRunPriceTier1763760098100 } from "../../migrations/1763760098100-add-trace-run-price-tier.js";
import { SeedModelPrices2026111763760098200 } from "../../migrations/1763760098200-seed-model-prices-2026-11.js";
import { AddEncryptionContext1763760098800 } from "../../migrations/1763760098800-add-encryption-context.js";
import { IndexTraceRootsByStartTime1763760099000 } from "../../migrations/1763760099000-index-trace-roots-by-start-time.js";
import { IndexTraceRunTags1763760099500 } from "../../migrations/1763760099500-index-trace-run-tags.js";
import { AddRunEncryptionContext1764300000000 } from "../../migrations/1764300000000-add-run-encryption-context.js";
import { CorrectModelPrices2026111764300200000 } from "../../migrations/1764300200000-correct-model-prices-2026-11.js";
import { AddAssistantLatestVersion1764300300000 } from "../../migrations/1764300300000-add-assistant-latest-version.js";
import { DropAssistantChangeTrigger1764400000000 } from "../../migrations/1764400000000-drop-assistant-change-trigger.js";
import { IndexPendingRunsInClaimOrder1764450000000 } from "../../migrations/1764450000000-index-pending-runs-in-claim-order.js";
import { DisableAssistantMetadataPendingList1764460000000 } from "../../migrations/1764460000000-disable-assistant-metadata-pending-list.js";
import { EnqueueRunsInSets1764500000000 } from "../../migrations/1764500000000-enqueue-runs-in-sets.js";

/** Every migration this version of Hangar knows, oldest first. Forward-only: never edit one. */
export const MIGRATIONS = [
  CreateAssistants1763760000000,
  CreateThreads1763760001000,
  CreateRuns1763760002000,
  CreateTraceRuns1763760010000,
  CreateModelPrices1763760011000,
  CreateRunFunctions1763760020000,
  CreateCrons1763760030000,
  AddRunsCronId1763760031000,
  CheckAssistantOnEnqueue1763760040000,
  CreateStoreItems1763760050000,
  AddThreadsTtl1763760051000,
  AnnounceAssistantChanges1763760060000,
  AdoptCheckpointTables1763760070000,
  CreateWebhookDeliveries1763760082000,
  NumberRunEventsInThreadOrder1763760084000,
  CreateServerSecrets1763760091000,
  CreateCronFirings1763760093000,
  DecideMultitaskOnEnqueue1763760095000,
  CreateTraceFeedback1763760097500,
  AddModelPriceTiers1763760098000,
  AddTraceRunPriceTier1763760098100,
  SeedModelPrices2026111763760098200,
  AddEncryptionContext1763760098800,
  IndexTraceRootsByStartTime1763760099000,
  IndexTraceRunTags1763760099500,
  AddRunEncryptionContext1764300000000,
  CorrectModelPrices2026111764300200000,
  AddAssistantLatestVersion1764300300000,
  DropAssistantChangeTrigger1764400000000,
  IndexPendingRunsInClaimOrder1764450000000,
  DisableAssistantMetadataPendingList1764460000000,
  EnqueueRunsInSets1764500000000,
];
