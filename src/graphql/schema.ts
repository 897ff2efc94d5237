import { builder } from "./builder.js";
import "./modules/enums.js";
import "./modules/assistant.js";
import "./modules/graph-schemas.js";
import "./modules/thread.js";
import "./modules/run/run.js";
import "./modules/run/mutations.js";
import "./modules/run/subscriptions.js";

export const schema = builder.toSchema();
