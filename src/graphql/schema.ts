import { builder } from "./builder.js";
import "./modules/enums.js";
import "./modules/assistant.js";
import "./modules/graph-schemas.js";
import "./modules/thread.js";
import "./modules/run/run.js";
import "./modules/run/mutations.js";
import "./modules/run/subscriptions.js";
import "./modules/cron/cron.js";
import "./modules/cron/mutations.js";
import "./modules/trace/usage.js";
import "./modules/trace/rendered.js";
import "./modules/trace/trace-run.js";
import "./modules/trace/queries.js";
import "./modules/trace/usage-summary.js";
import "./modules/model-price.js";
import "./modules/store-item.js";

export const schema = builder.toSchema();
