import { z } from "zod";
import type { BlobCipher, BlobHandler } from "../db/checkpoint-encryption.js";
import type { Logger } from "../logger.js";
import type { DeploymentConfig } from "./deployment-config.js";
import { importDeploymentExport, type GraphModuleLoader } from "./graph-module-loader.js";

/**
 * langgraph.json `encryption`: `path` names a module export (`./encryption.ts:encryption`) with
 * the deployment's handlers, shaped like LangGraph's `Encryption` (Python SDK; the JS SDK has none):
 * `encrypt.blob(context, bytes)` and `decrypt.blob(context, bytes)`, each returning the bytes to
 * store / to read. Hangar encrypts checkpoint blobs with them (db/checkpoint-encryption.ts).
 *
 * JSON field handlers (`encrypt.json` / `decrypt.json`: thread, run, assistant and cron metadata,
 * store values) and a `context` handler (per-user key context) are not implemented: a module
 * that registers them expects those fields encrypted, so Hangar refuses to start rather than
 * leave them in clear. So does any other key in the section, and a module that fails to load.
 */
const EncryptionSection = z.strictObject({ path: z.string().min(1) });

export async function loadEncryption(deployment: DeploymentConfig, loader: GraphModuleLoader, log: Logger): Promise<BlobCipher | null> {
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
  const unsupported = [
    ...(encrypt?.json !== undefined ? ["encrypt.json"] : []),
    ...(decrypt?.json !== undefined ? ["decrypt.json"] : []),
    ...(isObject(exported) && exported.context !== undefined ? ["context"] : []),
  ];
  if (unsupported.length > 0) {
    throw new Error(
      `${where} registers ${unsupported.join(", ")}: Hangar encrypts checkpoint blobs only (encrypt.blob / decrypt.blob) and does not ` +
        "implement JSON field encryption or encryption context handlers yet; refusing to start with those fields in clear",
    );
  }
  if (typeof encrypt?.blob !== "function" || typeof decrypt?.blob !== "function") {
    throw new Error(`${where} must have encrypt.blob and decrypt.blob functions ((context, bytes: Uint8Array) => Uint8Array | Promise<Uint8Array>)`);
  }
  log.info(
    { path: spec },
    "checkpoint encryption loaded: checkpoint channel values and pending writes are stored encrypted; " +
      "thread values, metadata, run inputs, stream events and store values stay in clear (README: Encryption at rest)",
  );
  return { encrypt: (encrypt.blob as BlobHandler).bind(encrypt), decrypt: (decrypt.blob as BlobHandler).bind(decrypt) };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function handlerGroup(exported: unknown, name: "encrypt" | "decrypt"): Record<string, unknown> | undefined {
  if (!isObject(exported)) return undefined;
  const group = exported[name];
  return isObject(group) || typeof group === "function" ? (group as Record<string, unknown>) : undefined;
}
