import { createRequire } from "node:module";
import type { HangarRuntime } from "../runtime.js";
import { HANGAR_VERSION } from "../version.js";

const require = createRequire(import.meta.url);

function packageVersion(name: string): string | null {
  try {
    return (require(`${name}/package.json`) as { version: string }).version;
  } catch {
    return null;
  }
}

/** GET /info, in the shape LangGraph Platform servers report (version + capability flags). */
export function serverInfo(runtime: HangarRuntime) {
  return {
    version: HANGAR_VERSION,
    langgraph_js_version: packageVersion("@langchain/langgraph"),
    flags: {
      assistants: true,
      crons: true,
      langsmith: false,
      langsmith_tracing_replicas: false,
    },
    host: {
      kind: "self-hosted",
      project_id: null,
      host_revision_id: null,
      revision_id: null,
      tenant_id: null,
    },
    hangar: {
      database: runtime.db.kind,
      graphs: runtime.graphs.names(),
      auth: authKind(runtime),
    },
  };
}

/** How callers are authenticated: "custom", "api-key", "api-key+custom" or "none". */
function authKind(runtime: HangarRuntime): string {
  const kinds = [];
  if (runtime.config.apiKeys.length > 0) kinds.push("api-key");
  if (runtime.customAuth?.authenticate) kinds.push("custom");
  return kinds.length > 0 ? kinds.join("+") : "none";
}
