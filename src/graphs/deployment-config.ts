import { readFileSync } from "node:fs";
import path from "node:path";
import { parseEnv } from "node:util";
import { z } from "zod";
import {
  CheckpointerConfigSchema,
  resolveCheckpointerSettings,
  resolveStoreSettings,
  StoreConfigSchema,
  type CheckpointerSettings,
  type StoreSettings,
} from "./retention-config.js";
import { WebhooksConfigSchema, type WebhooksConfig } from "./webhooks-config.js";

/** One entry of `graphs`, resolved against the config file's directory. */
export interface GraphSpec {
  graphId: string;
  /** The spec exactly as written in the config, e.g. `./agent/graph.ts:graph`; used in messages. */
  spec: string;
  /** Absolute path of the module. */
  modulePath: string;
  /** Export to read; `default` when the spec names none. */
  exportName: string;
  description?: string;
}

export interface DeploymentConfig {
  /** Absolute path of the config file. */
  path: string;
  directory: string;
  /** In config order. */
  graphs: GraphSpec[];
  /** Resolved values: the inline object, or the parsed contents of the referenced .env file. */
  env: Record<string, string>;
  http: HttpSettings | undefined;
  auth: unknown;
  /** `store`: semantic index and item TTLs (defaults filled in). */
  store: StoreSettings;
  /** `checkpointer`: thread TTLs (defaults filled in). */
  checkpointer: CheckpointerSettings;
  /** `webhooks`: URL policy and headers of run webhooks (resolved at start: resolveWebhookSettings). */
  webhooks: WebhooksConfig | undefined;
  /** Top-level keys Hangar does not interpret (node_version, dependencies, …), untouched. */
  extra: Record<string, unknown>;
  /** Problems that do not stop the deployment (a missing `.env` file), for the caller to log. */
  warnings: string[];
}

// Env values are strings in langgraph.json, but numbers/booleans are common hand-written slips;
// stringifying them is what a .env file would have produced anyway.
const EnvValue = z.union([z.string(), z.number(), z.boolean()]).transform(String);

// langgraph-cli also accepts `{ path, description }` objects for a graph, so we do too.
const GraphEntry = z.union([
  z.string().min(1),
  z.object({ path: z.string().min(1), description: z.string().optional() }),
]);

/**
 * langgraph.json `http.mount_prefix`: every route is served under it ("/api" → "/api/threads").
 * Checked here so a bad one stops start-up naming the file: it must be a path of plain segments,
 * with a leading `/` and no trailing one.
 */
const MountPrefix = z
  .string()
  .regex(/^(\/[A-Za-z0-9._~-]+)+$/, 'must be a path such as "/api": a leading "/", no trailing "/", segments of letters, digits, ".", "_", "~" or "-"');

/** `http.middleware_order`: whether the deployment's `http.app` middleware runs before authentication (LangGraph's default) or after it. */
export const MIDDLEWARE_ORDERS = ["middleware_first", "auth_first"] as const;

const HttpSettingsFile = z.looseObject({
  cors: z.unknown().optional(),
  mount_prefix: MountPrefix.optional(),
  middleware_order: z.enum(MIDDLEWARE_ORDERS, { error: `must be "middleware_first" (the default) or "auth_first"` }).optional(),
});

export type HttpSettings = z.infer<typeof HttpSettingsFile>;

const DeploymentConfigFile = z.looseObject({
  graphs: z
    .record(z.string().min(1), GraphEntry)
    .refine((graphs) => Object.keys(graphs).length > 0, "must declare at least one graph"),
  env: z.union([z.record(z.string(), EnvValue), z.string().min(1)]).optional(),
  http: HttpSettingsFile.optional(),
  auth: z.unknown().optional(),
  store: StoreConfigSchema.optional(),
  checkpointer: CheckpointerConfigSchema.optional(),
  webhooks: WebhooksConfigSchema.optional(),
});

const KNOWN_KEYS = new Set(["graphs", "env", "http", "auth", "store", "checkpointer", "webhooks"]);

/** Reads and validates a langgraph.json-style file; every failure names the file. */
export function loadDeploymentConfig(configPath: string): DeploymentConfig {
  const absolutePath = path.resolve(configPath);
  const directory = path.dirname(absolutePath);
  const fail = (problem: string, cause?: unknown): never => {
    throw new Error(`Invalid deployment config ${absolutePath}: ${problem}`, { cause });
  };

  let text: string;
  try {
    text = readFileSync(absolutePath, "utf8");
  } catch (error) {
    return fail(`cannot read file (${(error as Error).message})`, error);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return fail(`not valid JSON (${(error as Error).message})`, error);
  }
  const parsed = DeploymentConfigFile.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`);
    return fail(problems.join("; "));
  }
  const file = parsed.data;

  const graphs = Object.entries(file.graphs).map(([graphId, entry]): GraphSpec => {
    const spec = typeof entry === "string" ? entry : entry.path;
    const { modulePath, exportName } = splitGraphSpec(spec);
    if (modulePath === "") fail(`graphs.${graphId}: "${spec}" names no module path`);
    return {
      graphId,
      spec,
      modulePath: path.resolve(directory, modulePath),
      exportName,
      ...(typeof entry === "object" && entry.description !== undefined ? { description: entry.description } : {}),
    };
  });

  let env: Record<string, string> = {};
  const warnings: string[] = [];
  if (typeof file.env === "string") {
    const envPath = path.resolve(directory, file.env);
    try {
      env = definedEntries(parseEnv(readFileSync(envPath, "utf8")));
    } catch (error) {
      // Templates ship only `.env.example`: like LangGraph's CLI, a missing file is not fatal
      // (the variables may come from the real environment). Any other failure is.
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
        fail(`env file ${envPath} cannot be read (${(error as Error).message})`, error);
      }
      warnings.push(`env file ${envPath} (langgraph.json "env") does not exist; starting without it`);
    }
  } else if (file.env !== undefined) {
    env = file.env;
  }

  const extra = Object.fromEntries(Object.entries(file).filter(([key]) => !KNOWN_KEYS.has(key)));
  const store = resolveStoreSettings(file.store);
  const checkpointer = resolveCheckpointerSettings(file.checkpointer);
  return { path: absolutePath, directory, graphs, env, http: file.http, auth: file.auth, store, checkpointer, webhooks: file.webhooks, extra, warnings };
}

/**
 * Splits `./path.ts:exportName`. Only a colon after the last path separator counts, so Windows
 * drive letters (`C:\graphs\a.ts`) are not mistaken for an export name.
 */
export function splitGraphSpec(spec: string): { modulePath: string; exportName: string } {
  const lastSeparator = Math.max(spec.lastIndexOf("/"), spec.lastIndexOf("\\"));
  const colon = spec.lastIndexOf(":");
  if (colon > lastSeparator) {
    const exportName = spec.slice(colon + 1).trim();
    return { modulePath: spec.slice(0, colon).trim(), exportName: exportName || "default" };
  }
  return { modulePath: spec.trim(), exportName: "default" };
}

/**
 * Copies config env into `target` without overriding variables that are already set: the
 * operator's real environment must win over values committed next to the graphs.
 * Returns the names that were applied.
 */
export function applyDeploymentEnv(config: DeploymentConfig, target: NodeJS.ProcessEnv = process.env): string[] {
  const applied: string[] = [];
  for (const [name, value] of Object.entries(config.env)) {
    if (target[name] !== undefined) continue;
    target[name] = value;
    applied.push(name);
  }
  return applied;
}

function definedEntries(dict: NodeJS.Dict<string>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(dict)) if (value !== undefined) result[key] = value;
  return result;
}
