/**
 * Console benchmark: how long the graph view takes to draw a 50-node graph in headless Chromium,
 * as the page measures it itself (data-render-ms on the graph view: from drawing to painted
 * nodes). The graph is `wide` (test/fixtures/graphs/studio.ts: 50 nodes in 10 layers, 52 with
 * start and end, 55 edges), drawn on its assistant page, loaded BENCH_CONSOLE_RENDERS times
 * (default 20) after one warm-up load. The target is 200 ms. test/console/studio.e2e.test.ts
 * checks that every node is drawn; how fast is measured here, where the machine's load is
 * reported beside the numbers instead of failing a test on a busy machine.
 *
 * The server is the built one (`node dist/src/cli.js`, serving dist/web: run `npm run build`
 * first). Chromium: CHROMIUM_PATH, default /usr/bin/chromium.
 */
import fs from "node:fs";
import path from "node:path";
import { chromium } from "playwright-core";
import {
  RESULTS_DIR,
  createBenchDatabase,
  envInt,
  percentiles,
  printTable,
  repoState,
  round,
  startServerProcess,
  waitForQuietMachine,
  writeResults,
} from "./bench-kit.js";

const RENDERS = Math.max(1, envInt("BENCH_CONSOLE_RENDERS", 20));
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const NODES = 52;

export async function consoleSuite(stamp: string): Promise<void> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`console bench: no Chromium at ${CHROMIUM} (set CHROMIUM_PATH)`);
  const database = await createBenchDatabase("console");
  const server = await startServerProcess({
    configPath: "test/fixtures/studio.langgraph.json",
    databaseUrl: database.url,
    logPath: path.join(RESULTS_DIR, `console-${stamp}.log`),
    entry: "built",
    env: { HANGAR_SCHEMAS_FROM_TYPES: "false" },
  });
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox"] });
  const rows = [];
  try {
    const page = await browser.newPage({ viewport: { width: 1360, height: 880 } });
    page.setDefaultTimeout(60_000);
    const graphView = page.getByTestId("graph-view").first();
    const renderOnce = async (): Promise<number> => {
      await page.goto(`${server.url}/console/assistants/wide`);
      await graphView.locator('[data-node-id="n9_4"]').waitFor();
      const nodes = Number(await graphView.getAttribute("data-node-count"));
      if (nodes !== NODES) throw new Error(`console bench: the graph view drew ${nodes} nodes, not ${NODES}`);
      // The page sets data-render-ms once the nodes are painted, a frame or more after they exist.
      await page.getByTestId("graph-view").and(page.locator("[data-render-ms]")).first().waitFor();
      return Number(await graphView.getAttribute("data-render-ms"));
    };
    await renderOnce();
    const quiet = await waitForQuietMachine();
    const samples: number[] = [];
    for (let index = 0; index < RENDERS; index++) samples.push(await renderOnce());
    rows.push({
      scenario: `graph view, ${NODES} nodes / 55 edges`,
      busy_before_pct: quiet.busy_pct,
      n: RENDERS,
      ...percentiles(samples),
      max_ms: round(Math.max(...samples)),
    });
  } finally {
    await browser.close();
    await server.stop();
    await database.drop();
  }
  printTable(`Console graph view: drawing to painted nodes (${RENDERS} page loads)`, rows, ["busy_before_pct", "n", "p50_ms", "p95_ms", "p99_ms", "max_ms"]);
  const file = writeResults("console", stamp, { suite: "console", ...repoState(), node: process.version, renders: RENDERS, rows });
  console.log(`\nresults: ${file}`);
}
