import { z } from "zod";
import type { AuthUser } from "../auth/auth-types.js";
import type { BlobCipher, BlobHandler } from "../db/checkpoint-encryption.js";
import type { JsonHandler, JsonHandlers } from "../db/json-field-cipher.js";
import type { EncryptionContext } from "../domain/encryption.js";
import type { JsonObject } from "../domain/json.js";
import type { Logger } from "../logger.js";
import type { DeploymentConfig } from "./deployment-config.js";
import { importDeploymentExport, type GraphModuleLoader } from "./graph-module-loader.js";

/**
 * `context(user, context)`: derives the encryption context of a request from its authenticated
 * user (LangGraph's `@encryption.context`); what it returns becomes `context.metadata` for every
 * handler call of that request and is stored with the rows written.
 */
export type EncryptionContextHandler = (user: AuthUser, context: EncryptionContext) => Promise<JsonObject> | JsonObject;

/** The handlers of the deployment's encryption module; a pair it does not register is null. */
export interface DeploymentEncryption {
  blob: BlobCipher | null;
  json: JsonHandlers | null;
  context: EncryptionContextHandler | null;
}

/**
 * langgraph.json `encryption`: `path` names a module export (`./encryption.ts:encryption`) with
 * the deployment's handlers, shaped like LangGraph's `Encryption` (Python SDK; the JS SDK has none):
 * `encrypt.blob` / `decrypt.blob` (checkpoint bytes, db/checkpoint-encryption.ts),
 * `encrypt.json` / `decrypt.json` (thread, assistant, run, cron and store JSON fields,
 * db/json-field-cipher.ts) and `context` (per-request context, services/field-encryption.ts). Each encrypt handler needs its decrypt handler; a
 * module with none, any other key in the section, or a module that fails to load stops start-up.
 */
const EncryptionSection = z.strictObject({ path: z.string().min(1) });

export async function loadEncryption(
  deployment: DeploymentConfig,
  loader: GraphModuleLoader,
  log: Logger,
): Promise<DeploymentEncryption | null> {
  const section = deployment.extra.encryption;
  if (section === undefined) return null;
  const parsed = EncryptionSection.safeParse(section);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${["encryption", ...issue.path].join(".")}: ${issue.message}`);
    throw new Error(`Invalid deployment config ${deployment.path}: ${problems.join("; ")} (Hangar refuses encryption settings it does not implement)`);
  }
  const spec = parsed.data.path;
  const { exported, exportName, absolutePath } = await importDeploymentExport(loader, deployment.directory, "encryption.path", spec);
  const where = `encryption.path "${spec}" (${absolutePath}): export "${exportName}"`;
  const encrypt = handlerGroup(exported, "encrypt");
  const decrypt = handlerGroup(exported, "decrypt");
  const blob = handlerPair<BlobHandler>(encrypt, decrypt, "blob", where);
  const json = handlerPair<JsonHandler>(encrypt, decrypt, "json", where);
  const context = isObject(exported) ? exported.context : undefined;
  if (context !== undefined && typeof context !== "function") throw new Error(`${where}: context must be a function ((user, context) => metadata)`);
  if (!blob && !json) {
    throw new Error(
      `${where} must have encrypt.blob and decrypt.blob ((context, bytes: Uint8Array) => Uint8Array) and/or ` +
        "encrypt.json and decrypt.json ((context, data: object) => object) functions",
    );
  }
  log.info(
    { path: spec, blob: blob !== null, json: json !== null, context: context !== undefined },
    `encryption loaded: ${blob ? "checkpoint channel values and pending writes are encrypted" : "no blob handlers: checkpoints stay in clear"}; ` +
      (json
        ? "thread metadata and values, assistant metadata and context, run metadata and kwargs, cron metadata and payload and store " +
          "values go through encrypt.json (it chooses the keys)"
        : "no JSON handlers: thread, assistant, run, cron and store JSON fields stay in clear"),
  );
  if (json) {
    // Copies of run data outside those fields, which no LangGraph handler covers: said where operators look.
    log.warn(
      { path: spec },
      "encrypt.json is not applied to stored stream events (run_events), traces, or a run's webhook body while it waits for delivery: " +
        "those stay in clear (README: Encryption at rest)",
    );
  }
  return { blob, json, context: (context as EncryptionContextHandler | undefined) ?? null };
}

/** Both handlers of a kind bound to their group, or null when neither is there; one alone is refused. */
function handlerPair<T>(
  encrypt: Record<string, unknown> | undefined,
  decrypt: Record<string, unknown> | undefined,
  kind: "blob" | "json",
  where: string,
): { encrypt: T; decrypt: T } | null {
  const sealer = encrypt?.[kind];
  const opener = decrypt?.[kind];
  if (sealer === undefined && opener === undefined) return null;
  if (typeof sealer !== "function" || typeof opener !== "function") {
    throw new Error(`${where} must have both encrypt.${kind} and decrypt.${kind} as functions (data written could not be read back otherwise)`);
  }
  return { encrypt: sealer.bind(encrypt) as T, decrypt: opener.bind(decrypt) as T };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function handlerGroup(exported: unknown, name: "encrypt" | "decrypt"): Record<string, unknown> | undefined {
  if (!isObject(exported)) return undefined;
  const group = exported[name];
  return isObject(group) || typeof group === "function" ? (group as Record<string, unknown>) : undefined;
}
