import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { registerHooks } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { register, type NamespacedUnregister } from "tsx/esm/api";
import { splitGraphSpec } from "./deployment-config.js";

export interface GraphModuleLoader {
  /** Imports a TypeScript or JavaScript module by absolute path. */
  importModule(modulePath: string): Promise<Record<string, unknown>>;
  /** Imports a package specifier as the module at `parentModulePath` would (the same instance it got). */
  importFrom(specifier: string, parentModulePath: string): Promise<Record<string, unknown>>;
}

/**
 * Loads graph modules through tsx's programmatic API, because Hangar itself runs as compiled
 * JavaScript (node dist/...) where Node cannot import `.ts` files.
 *
 * We register ONE tsx namespace per loader rather than calling `tsImport` per graph or
 * registering tsx globally:
 * - a global `register()` would route every later import of the server through tsx's hooks;
 * - `tsImport` registers a fresh namespace on every call, and each namespace instantiates its
 *   own copy of every module it reaches (measured: @langchain/langgraph is re-evaluated,
 *   ~0.9 s), so graphs of one deployment would not even share packages with each other.
 * The deployment's own files (TS and JS alike) are module instances of the namespace. Installed
 * packages they import are not: see `shareInstalledPackages`. The registry still duck-types what
 * it gets back, since a deployment may bring its own copy of a package (its own node_modules).
 * The hooks stay registered for the life of the process: graph code may import lazily at run time.
 */
export function createGraphModuleLoader(configPath: string): GraphModuleLoader {
  const parentURL = pathToFileURL(configPath).href;
  // tsx would otherwise read the tsconfig.json of the server's working directory; the one next
  // to langgraph.json is the deployment's own (path aliases, jsx, decorators).
  const deploymentTsconfig = path.join(path.dirname(configPath), "tsconfig.json");
  const tsconfig = existsSync(deploymentTsconfig) ? deploymentTsconfig : undefined;
  let api: NamespacedUnregister | undefined;
  const namespace = () => {
    if (api) return api;
    api = register({ namespace: `hangar-graphs-${randomUUID()}`, ...(tsconfig ? { tsconfig } : {}) });
    // After this namespace's hooks, so it runs before them (Node runs the newest hooks first).
    shareInstalledPackages();
    return api;
  };
  return {
    async importModule(modulePath) {
      return (await namespace().import(pathToFileURL(modulePath).href, parentURL)) as Record<string, unknown>;
    },
    async importFrom(specifier, parentModulePath) {
      return (await namespace().import(specifier, pathToFileURL(parentModulePath).href)) as Record<string, unknown>;
    },
  };
}

/** JavaScript and JSON files: what Node loads without tsx. TypeScript in node_modules stays with tsx. */
const PLAIN_NODE_EXTENSIONS = new Set([".js", ".mjs", ".cjs", ".json"]);

/**
 * A tsx namespace tags every module it resolves, installed packages included, so without this a
 * deployment would get its own instance of @langchain/core, @langchain/langgraph, zod, langsmith…
 * next to the server's: ~30 MB of heap for the same files (measured on the example deployment),
 * and classes that fail `instanceof` across the two. When a deployment module imports a package
 * and Node's own resolution (from the importing file, without the namespace) finds the very file
 * tsx found, inside a node_modules folder, that file is loaded as any Node program would load it:
 * once per process, shared with the server and every other graph. A deployment with its own copy
 * of a package (its own node_modules) still gets that copy, and anything only tsx resolves
 * (path aliases, extensionless imports, TypeScript) stays in the namespace.
 *
 * Uses Node's in-thread module hooks (module.registerHooks). tsx uses them too from Node 22.22.3
 * on, where every namespace adds its own hooks and a namespace registered after this hook would
 * tag the shared file again: so this is registered after each namespace (a second copy in the
 * chain finds nothing left to change). Before 22.22.3 tsx's hooks run off-thread, after these.
 */
function shareInstalledPackages(): void {
  registerHooks({
    resolve(specifier, context, nextResolve) {
      // Read before nextResolve, and hand on copies: tsx rewrites the context it is given.
      const parent = context.parentURL;
      const resolved = nextResolve(specifier, { ...context });
      // A namespaced parent has a query (tsx's tag); the server's own imports stop here.
      if (!parent?.startsWith("file:") || !parent.includes("?") || !isInstalledPlainFile(resolved.url)) return resolved;
      try {
        const plain = nextResolve(specifier, { ...context, parentURL: withoutQuery(parent) });
        return withoutQuery(plain.url) === withoutQuery(resolved.url) ? plain : resolved;
      } catch (error) {
        // Node's resolution errors (ERR_MODULE_NOT_FOUND for an extensionless file, …): only tsx
        // resolves it, so tsx's answer stands. Anything else is not a resolution answer.
        if (!isResolutionError(error)) throw error;
        return resolved;
      }
    },
  });
}

function isInstalledPlainFile(url: string): boolean {
  if (!url.startsWith("file:")) return false;
  const { pathname } = new URL(url);
  return pathname.includes("/node_modules/") && PLAIN_NODE_EXTENSIONS.has(path.extname(pathname));
}

function isResolutionError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("ERR_");
}

function withoutQuery(url: string): string {
  const parsed = new URL(url);
  parsed.search = "";
  parsed.hash = "";
  return parsed.href;
}

/**
 * Reads a named export. CommonJS modules imported from ESM expose `module.exports` as `default`,
 * and Node's static detection of their named exports is best-effort, so we also look there.
 */
export function readModuleExport(moduleNamespace: Record<string, unknown>, exportName: string): unknown {
  if (Object.prototype.hasOwnProperty.call(moduleNamespace, exportName)) return moduleNamespace[exportName];
  const commonJsExports = moduleNamespace.default;
  if (
    exportName !== "default" &&
    typeof commonJsExports === "object" &&
    commonJsExports !== null &&
    Object.prototype.hasOwnProperty.call(commonJsExports, exportName)
  ) {
    return (commonJsExports as Record<string, unknown>)[exportName];
  }
  const available = Object.keys(moduleNamespace);
  throw new Error(
    `the module has no export "${exportName}" (it exports: ${available.length > 0 ? available.join(", ") : "nothing"})`,
  );
}

/**
 * Imports a deployment module named like a graph (`./file.ts:export`, relative to the config's
 * directory) and reads the export: auth.path, http.app and store.index.embed go through here.
 * Throws naming the key, the spec and the file when it does not load or lacks the export.
 */
export async function importDeploymentExport(
  loader: GraphModuleLoader,
  directory: string,
  key: string,
  spec: string,
): Promise<{ exported: unknown; exportName: string; absolutePath: string }> {
  const { modulePath, exportName } = splitGraphSpec(spec);
  const absolutePath = path.resolve(directory, modulePath);
  try {
    return { exported: readModuleExport(await loader.importModule(absolutePath), exportName), exportName, absolutePath };
  } catch (error) {
    throw new Error(`Cannot load ${key} "${spec}" (${absolutePath}): ${(error as Error).message}`, { cause: error });
  }
}
