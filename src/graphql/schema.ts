import { lexicographicSortSchema, printSchema } from "graphql";
import { builder } from "./builder.js";
import "./modules/enums.js";
import "./modules/assistant.js";
import "./modules/graph-schemas.js";
import "./modules/thread.js";
import "./modules/thread-time-travel.js";
import "./modules/run/run.js";
import "./modules/run/mutations.js";
import "./modules/run/subscriptions.js";
import "./modules/thread-events.js";
import "./modules/cron/cron.js";
import "./modules/cron/cron-firing.js";
import "./modules/cron/mutations.js";
import "./modules/trace/usage.js";
import "./modules/trace/rendered.js";
import "./modules/trace/trace-run.js";
import "./modules/trace/feedback.js";
import "./modules/trace/queries.js";
import "./modules/trace/usage-summary.js";
import "./modules/model-price/model-price.js";
import "./modules/model-price/mutations.js";
import "./modules/viewer.js";
import "./modules/store-item.js";

export const schema = builder.toSchema();

/**
 * The schema as schema.graphql holds it (`npm run codegen`), types and fields sorted so that the
 * file changes only when the schema does, not when module import order does.
 */
export function printedSchema(): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
