import type { StoreEmbeddings, StoreIndexConfig } from "../db/hangar-store.js";
import type { DeploymentConfig } from "./deployment-config.js";
import { importDeploymentExport, type GraphModuleLoader } from "./graph-module-loader.js";

/** `provider:model` strings langgraph.json `store.index.embed` may name, besides a module path. */
const PROVIDERS = ["openai"] as const;

/**
 * The deployment's `store.index` with its embeddings ready, or undefined when it has none.
 * `embed` is either `openai:<model>` (OPENAI_API_KEY, and OPENAI_BASE_URL for any
 * OpenAI-compatible server) or `./path.ts:export`, relative to langgraph.json, naming an
 * Embeddings object (embedDocuments + embedQuery) or an async function from a list of texts to a
 * list of vectors, as LangGraph Platform accepts. Failures name the setting. A module is imported
 * through the deployment's loader, the graphs' own, so it shares their module instances.
 */
export async function loadStoreIndex(
  deployment: DeploymentConfig,
  loader: GraphModuleLoader,
  env: NodeJS.ProcessEnv = process.env,
): Promise<StoreIndexConfig | undefined> {
  const index = deployment.store.index;
  if (!index) return undefined;
  const embeddings = isModuleSpec(index.embed)
    ? await loadEmbeddingsModule(deployment, loader, index.embed)
    : await createProviderEmbeddings(index.embed, index.dims, env);
  return { embeddings, dims: index.dims, fields: index.fields, provider: index.embed };
}

function isModuleSpec(embed: string): boolean {
  return embed.startsWith(".") || embed.startsWith("/") || /\.(m|c)?(t|j)sx?(:|$)/.test(embed);
}

async function createProviderEmbeddings(embed: string, dims: number, env: NodeJS.ProcessEnv): Promise<StoreEmbeddings> {
  const colon = embed.indexOf(":");
  const provider = colon > 0 ? embed.slice(0, colon) : "";
  const model = embed.slice(colon + 1);
  if (provider !== "openai" || model === "") {
    throw new Error(
      `store.index.embed "${embed}": expected ${PROVIDERS.map((name) => `"${name}:<model>"`).join(", ")} or a module path such as "./embed.ts:embed"`,
    );
  }
  // The provider SDK (~230 modules) is loaded only when a deployment names it, not at every start.
  const { OpenAIEmbeddings } = await import("@langchain/openai");
  return new OpenAIEmbeddings({
    model,
    // text-embedding-3 models shorten their vectors to `dimensions` on request; dims must match.
    ...(model.startsWith("text-embedding-3") ? { dimensions: dims } : {}),
    ...(env.OPENAI_API_KEY ? { apiKey: env.OPENAI_API_KEY } : {}),
    ...(env.OPENAI_BASE_URL ? { configuration: { baseURL: env.OPENAI_BASE_URL } } : {}),
    // A failing provider fails the put at once (503) rather than after minutes of retries.
    maxRetries: 1,
  });
}

async function loadEmbeddingsModule(deployment: DeploymentConfig, loader: GraphModuleLoader, embed: string): Promise<StoreEmbeddings> {
  const { exported } = await importDeploymentExport(loader, deployment.directory, "store.index.embed", embed);
  if (isEmbeddingsObject(exported)) return exported;
  if (typeof exported === "function") {
    const embedTexts = exported as (texts: string[]) => Promise<number[][]> | number[][];
    return {
      embedDocuments: async (texts) => embedTexts(texts),
      embedQuery: async (text) => {
        const [vector] = await embedTexts([text]);
        if (!vector) throw new Error("the embed function returned no vector for the query");
        return vector;
      },
    };
  }
  throw new Error(`store.index.embed "${embed}" is neither an Embeddings object (embedDocuments, embedQuery) nor a function`);
}

function isEmbeddingsObject(value: unknown): value is StoreEmbeddings {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return typeof candidate.embedDocuments === "function" && typeof candidate.embedQuery === "function";
}
