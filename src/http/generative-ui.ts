import { mkdtemp, readFile, readdir, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Hono } from "hono";
import { getMimeType } from "hono/utils/mime";
import { z } from "zod";
import type { DeploymentConfig } from "../graphs/deployment-config.js";
import type { Logger } from "../logger.js";
import { respondWithError } from "../rest/errors.js";
import { readJsonBody } from "../rest/read-body.js";
import { NotFoundError } from "../domain/errors.js";
import type { HttpEnv } from "./http-env.js";

/** One bundled file of a graph's UI (its JavaScript entry and CSS). */
export interface UiFile {
  basename: string;
  contents: Uint8Array;
}

/** The bundles of langgraph.json `ui`, by the name they are served under (usually a graph id). */
export type GenerativeUi = ReadonlyMap<string, UiFile[]>;

const UiSection = z.record(z.string().min(1), z.string().min(1));
const UiConfigSection = z.object({ shared: z.array(z.string()).optional() }).optional();
const ComponentRequest = z.object({ name: z.string().min(1) });

/**
 * Bundles each langgraph.json `ui` entry (TSX and its CSS) once at start with LangGraph's own UI
 * bundler (@langchain/langgraph-ui, esbuild underneath), so `LoadExternalComponent` from
 * `@langchain/langgraph-sdk/react-ui` can render them: the bundle takes React and the SDK from
 * the page (`LGUI_REQUIRE`). A broken entry stops start-up naming the file.
 */
export async function loadGenerativeUi(deployment: DeploymentConfig, log: Logger): Promise<GenerativeUi> {
  const { ui, ui_config: uiConfig } = deployment.extra;
  if (ui === undefined) return new Map();
  const defs = UiSection.safeParse(ui);
  if (!defs.success) throw new Error(`Invalid deployment config ${deployment.path}: ui must map names to "./file.tsx" paths`);
  const config = UiConfigSection.safeParse(uiConfig);
  if (!config.success) throw new Error(`Invalid deployment config ${deployment.path}: ui_config.shared must be a list of package names`);
  // Loaded only here: the bundler (esbuild, Tailwind, Lightning CSS) would cost ~40 MB of RSS
  // (measured) in a server whose deployment has no ui section.
  const { build } = await import("@langchain/langgraph-ui");
  const output = await mkdtemp(path.join(os.tmpdir(), "hangar-ui-"));
  const startedAt = Date.now();
  try {
    const bundles = new Map<string, UiFile[]>();
    for (const [name, file] of Object.entries(defs.data)) {
      const entry = path.resolve(deployment.directory, file);
      // Checked first: esbuild would print its own error for a missing entry before ours.
      if (!(await isFile(entry))) throw new Error(`ui.${name}: "${file}" (${entry}) does not bundle: no such file`);
      try {
        await build({ cwd: deployment.directory, defs: { [name]: file }, config: config.data ?? {}, output });
      } catch (error) {
        throw new Error(`ui.${name}: "${file}" (${path.resolve(deployment.directory, file)}) does not bundle: ${(error as Error).message}`, {
          cause: error,
        });
      }
      const folder = path.join(output, "public", name);
      const files = await Promise.all(
        (await readdir(folder)).map(async (basename) => ({ basename, contents: new Uint8Array(await readFile(path.join(folder, basename))) })),
      );
      bundles.set(name, files);
    }
    log.info({ ui: [...bundles.keys()], ms: Date.now() - startedAt }, "generative UI bundled");
    return bundles;
  } finally {
    await rm(output, { recursive: true, force: true });
  }
}

/**
 * GET /ui/{name}/{file}: the bundled files (open, like the console's: they hold no data).
 * Mounted before authentication.
 */
export function mountUiAssets(app: Hono<HttpEnv>, ui: GenerativeUi): void {
  if (ui.size === 0) return;
  app.get("/ui/:name/:basename", (c) => {
    const file = ui.get(c.req.param("name"))?.find((candidate) => candidate.basename === c.req.param("basename"));
    if (!file) return c.json({ detail: `No UI file ${c.req.path}` }, 404);
    return c.body(file.contents.slice().buffer as ArrayBuffer, 200, { "content-type": getMimeType(file.basename) ?? "application/octet-stream" });
  });
}

/**
 * POST /ui/{name} `{"name": component}` (the SDK's `client["~ui"].getComponent`): the HTML that
 * loads one component, its stylesheets and a script whose onload renders it into the shadow root
 * `LoadExternalComponent` made (`{{shadowRootId}}`). Authenticated like the API.
 */
export function mountUiComponents(
  app: Hono<HttpEnv>,
  ui: GenerativeUi,
  { maxBodyBytes, mountPrefix }: { maxBodyBytes: number; mountPrefix: string },
  log: Logger,
): void {
  if (ui.size === 0) return;
  app.post("/ui/:name", async (c) => {
    const name = c.req.param("name");
    const files = ui.get(name);
    if (!files) return respondWithError(c, new NotFoundError(`UI not found for "${name}"`), c.get("log") ?? log);
    const { name: component } = await readJsonBody(c, ComponentRequest, maxBodyBytes);
    const host = c.req.header("host") ?? "";
    // Absolute URLs: the HTML is inserted into another page. Local hosts are plain http.
    const isLocal = /^(localhost|127\.0\.0\.1)(:|$)/.test(host);
    const base = `${isLocal ? "http:" : ""}//${host}${mountPrefix}/ui/${name}`;
    const globalName = `__LGUI_${name.replace(/[^a-zA-Z0-9]/g, "_")}`;
    const html = [
      ...files.filter((file) => file.basename.endsWith(".css")).map((file) => `<link rel="stylesheet" href="${base}/${file.basename}" />`),
      ...files
        .filter((file) => file.basename.endsWith(".js"))
        .map((file) => {
          const onload = escapeAttribute(`${globalName}.render(${JSON.stringify(component)}, "{{shadowRootId}}")`);
          return `<script src="${base}/${file.basename}" onload='${onload}'></script>`;
        }),
    ];
    return c.body(html.join("\n"), 200, { "content-type": "text/html; charset=utf-8" });
  });
}

/** For a single-quoted attribute: the browser decodes these back before the script runs. */
function escapeAttribute(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("'", "&#39;").replaceAll("<", "&lt;");
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}
