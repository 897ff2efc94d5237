import { withTransaction } from "../db/tx.js";
import {
  deleteAllRuns,
  deleteAllStoreItems,
  deleteAllThreads,
  deleteAllWebhookDeliveries,
  deleteUserAssistants,
} from "../db/sql/delete-all-data.js";
import { deleteAllCheckpoints, deleteThreadCheckpoints } from "../db/sql/thread-checkpoints.js";
import { requireOperator } from "./access-scope.js";
import { announceAssistantsChanged } from "./assistants.service.js";
import type { ServiceContext } from "./service-context.js";

/** What POST /internal/truncate empties (LangGraph's dev server's flags). */
export interface TruncateFlags {
  runs?: boolean;
  threads?: boolean;
  assistants?: boolean;
  checkpoints?: boolean;
  store?: boolean;
}

/**
 * Empties whole resources at once, as LangGraph's development server does between its own
 * tests: the official API suite calls it before its tests. Off unless the operator turns it on
 * (HANGAR_ENABLE_TRUNCATE), and for operators only. Assistants the deployment created from
 * langgraph.json stay, as they do there. Threads go with their checkpoints (a checkpoint
 * without its thread is unreachable), and checkpoints can also go on their own.
 */
export const dataResetService = {
  async truncate(ctx: ServiceContext, flags: TruncateFlags): Promise<void> {
    requireOperator(ctx, "Truncating data");
    await withTransaction(ctx.db, async (manager) => {
      if (flags.runs) {
        await deleteAllRuns(manager);
        await deleteAllWebhookDeliveries(manager);
      }
      if (flags.threads) {
        const threadIds = await deleteAllThreads(manager);
        if (threadIds.length > 0 && !flags.checkpoints) await deleteThreadCheckpoints(manager, threadIds);
      }
      if (flags.checkpoints) await deleteAllCheckpoints(manager);
      if (flags.assistants) await deleteUserAssistants(manager);
      if (flags.store) await deleteAllStoreItems(manager);
    });
    if (flags.assistants) announceAssistantsChanged(ctx);
  },
};
