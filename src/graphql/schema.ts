import { builder } from "./builder.js";
import "./modules/enums.js";
import "./modules/assistant.js";
import "./modules/graph-schemas.js";
import "./modules/thread.js";

export const schema = builder.toSchema();
