import path from "node:path";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { routePath, type PageName, type Route } from "../../web/src/lib/routes.js";
import { saveScreenshot, useConsoleBrowser, watchPageErrors } from "./browser-helpers.js";

/**
 * Every console page, with real data on its detail pages, at 420 px and on a desktop, in light and
 * dark (issue 29, "420 px on every page"): nothing scrolls sideways and no label is cut. Screenshots
 * of each go to the test artifacts (every-page-<page>-<width>-<scheme>.png).
 */
const EXAMPLES = path.resolve(import.meta.dirname, "../../examples/langgraph.json");
const fixture = useConsoleBrowser({ server: { configPath: EXAMPLES }, screenshotPrefix: "every-page" });

interface Seeded {
  assistantId: string;
  threadId: string;
  traceId: string;
}
const seeded: Seeded = { assistantId: "", threadId: "", traceId: "" };

/**
 * One entry per page the router knows (`satisfies` fails to compile when a page is added to
 * web/src/lib/routes.ts without one here), each with the data its detail page needs.
 */
const ROUTES = {
  assistants: () => ({ page: "assistants" }),
  assistant: (data) => ({ page: "assistant", assistantId: data.assistantId }),
  playground: (data) => ({ page: "playground", assistantId: data.assistantId, threadId: data.threadId }),
  threads: () => ({ page: "threads" }),
  thread: (data) => ({ page: "thread", threadId: data.threadId }),
  traces: () => ({ page: "traces" }),
  trace: (data) => ({ page: "trace", traceId: data.traceId, runId: null }),
  usage: () => ({ page: "usage" }),
  crons: () => ({ page: "crons" }),
  memory: () => ({ page: "memory" }),
  prices: () => ({ page: "prices" }),
  "not-found": () => ({ page: "not-found", path: "/console/no-such-page" }),
} satisfies { [Name in PageName]: (data: Seeded) => Extract<Route, { page: Name }> };

const VIEWPORTS = [
  { width: 420, height: 860 },
  { width: 1360, height: 880 },
];
const SCHEMES = ["light", "dark"] as const;

beforeAll(async () => {
  const { client } = fixture.server;
  const [assistant] = await client.assistants.search({ graphId: "approval", limit: 1 });
  if (!assistant) throw new Error("the example deployment has no approval assistant");
  // A thread stopped in interrupt(), with a long-named metadata value and a trace.
  const thread = await client.threads.create({ metadata: { customer_reference: "order-2026-11-26-a-very-long-reference-0042" } });
  const run = await client.runs.create(thread.thread_id, assistant.assistant_id, {
    input: { messages: [{ role: "user", content: "Where is my parcel? It was meant to arrive on Tuesday." }] },
  });
  await client.runs.join(thread.thread_id, run.run_id);
  await client.crons.create(assistant.assistant_id, { schedule: "15 7 * * 1-5", input: { messages: [{ role: "user", content: "daily digest" }] } });
  await client.crons.createForThread(thread.thread_id, assistant.assistant_id, { schedule: "*/30 * * * *" });
  await client.store.putItem(["users", "customer-4711", "preferences"], "delivery", { window: "mornings", note: "leave the parcel with the neighbour at number 12" });
  Object.assign(seeded, { assistantId: assistant.assistant_id, threadId: thread.thread_id, traceId: run.run_id });
}, 120_000);

/** Sideways overflow of the document, and labels whose text is wider than their box. */
function layoutProblems(page: Page) {
  return page.evaluate(() => {
    const overflow = document.documentElement.scrollWidth - window.innerWidth;
    const labels = document.querySelectorAll<HTMLElement>(
      "button, label, th, dt, h1, h2, h3, nav a, .badge, .chip, .run-type, .legend-item, .tab, .stat dd",
    );
    const clipped: string[] = [];
    for (const label of labels) {
      if (label.offsetParent === null) continue;
      const style = getComputedStyle(label);
      const cutsText = style.overflowX !== "visible" || style.textOverflow === "ellipsis";
      // Truncation with the whole text in a tooltip is a choice (long run names), not a cut label.
      if (cutsText && label.scrollWidth > label.clientWidth + 1 && !label.title) {
        clipped.push(`${label.tagName.toLowerCase()}.${label.className}: "${label.textContent?.trim().slice(0, 40)}"`);
      }
      const box = label.getBoundingClientRect();
      if (box.right > window.innerWidth + 1 && !label.closest(".table-scroll, .waterfall, .graph-view, [data-scrolls]")) {
        clipped.push(`${label.tagName.toLowerCase()} past the right edge: "${label.textContent?.trim().slice(0, 40)}"`);
      }
    }
    return { overflow, clipped };
  });
}

async function settle(page: Page): Promise<void> {
  await page.waitForLoadState("networkidle");
  await page.locator(".loading").first().waitFor({ state: "detached" });
  await page.locator("main h1, .page h1").first().waitFor();
}

describe("every console page", () => {
  it("(the checks themselves) catch a page wider than the window and a cut label", async () => {
    const { page, server } = fixture;
    await page.setViewportSize(VIEWPORTS[0]);
    await page.goto(`${server.url}${routePath({ page: "crons" })}`);
    await settle(page);
    expect(await layoutProblems(page)).toEqual({ overflow: 0, clipped: [] });
    await page.evaluate(() => {
      const wide = document.createElement("div");
      wide.style.width = "900px";
      wide.textContent = "wide";
      document.querySelector(".page")?.append(wide);
      const cut = document.createElement("button");
      cut.style.cssText = "width: 40px; overflow: hidden; white-space: nowrap";
      cut.textContent = "Continue in test environment";
      document.querySelector(".page")?.append(cut);
    });
    const found = await layoutProblems(page);
    expect(found.overflow).toBeGreaterThan(0);
    expect(found.clipped).toEqual([expect.stringContaining("Continue in test")]);
    expect(fixture.pageErrors).toEqual([]);
  });

  // The four window sizes and schemes run side by side, each in a browser context of its own:
  // most of a page's time is networkidle's half second without requests, which they share.
  for (const viewport of VIEWPORTS) {
    for (const scheme of SCHEMES) {
      it.concurrent(`fits ${viewport.width} px (${scheme}) without sideways scrolling or cut labels`, async ({ expect }) => {
        const { server } = fixture;
        const context = await fixture.browser.newContext({ viewport, colorScheme: scheme });
        const page = await context.newPage();
        page.setDefaultTimeout(10_000);
        const pageErrors = watchPageErrors(page);
        try {
          const problems: Record<string, unknown> = {};
          for (const [name, routeOf] of Object.entries(ROUTES)) {
            await page.goto(`${server.url}${routePath(routeOf(seeded))}`);
            await settle(page);
            const found = await layoutProblems(page);
            if (found.overflow > 0 || found.clipped.length > 0) problems[name] = found;
            await saveScreenshot(page, `every-page-${name}-${viewport.width}-${scheme}`, { fullPage: true });
          }
          expect(problems).toEqual({});
          expect(pageErrors).toEqual([]);
        } catch (error) {
          // The fixture's failure screenshot shows its own page, not this context's.
          await saveScreenshot(page, `failed-every-page-${viewport.width}-${scheme}`).catch(() => undefined);
          throw error;
        } finally {
          await context.close();
        }
      }, 180_000);
    }
  }
});
