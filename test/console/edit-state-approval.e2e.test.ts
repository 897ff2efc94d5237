import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { saveScreenshot, useConsoleBrowser } from "./browser-helpers.js";

/**
 * The Threads page's "Edit state" on the example approval graph (MessagesAnnotation + two
 * string channels), with its state schema derived from the TypeScript types as `hangar serve`
 * does by default: the checkpoint's own values pass the check, a change can be saved, and what
 * is no message is still refused.
 */

const EXAMPLES = path.resolve(import.meta.dirname, "../../examples/langgraph.json");

// A schema cache of its own, so the schemas are derived from the graph's types while the page is
// open (as right after a deployment's first start), and a short GraphQL deadline, so the page's
// schema query outlives it: the editor must ask again until the schema is ready.
const DATA_DIR = mkdtempSync(path.join(os.tmpdir(), "hangar-edit-state-"));
afterAll(() => rmSync(DATA_DIR, { recursive: true, force: true }));

const fixture = useConsoleBrowser({
  server: { configPath: EXAMPLES, env: { HANGAR_SCHEMAS_FROM_TYPES: "true", HANGAR_DATA_DIR: DATA_DIR, HANGAR_GRAPHQL_DEADLINE_MS: "3000" } },
  screenshotPrefix: "edit-state-approval",
});

interface Approval {
  draft: string;
  decision: string;
  messages: Array<{ type: string; content: unknown }>;
}

describe("editing the approval graph's state", () => {
  it("accepts the checkpoint's own values, saves an edited draft, and refuses a number as a message", async () => {
    const { page, server } = fixture;
    const { thread_id: threadId } = await server.client.threads.create({ metadata: { graph_id: "approval" } });
    await server.client.runs.wait(threadId, "approval", { input: { messages: [{ role: "user", content: "Where is my parcel?" }] } });
    const interrupted = (await server.client.threads.getState<Approval>(threadId)).values;
    expect(interrupted.messages).toMatchObject([{ type: "human", content: "Where is my parcel?" }]);
    expect(interrupted.draft.length).toBeGreaterThan(0);

    await page.goto(`${server.url}/console/threads/${threadId}`);
    const timeline = page.getByRole("list", { name: "Checkpoint timeline" });
    // The newest checkpoint: write_draft's (step 1); review is waiting in interrupt().
    const row = timeline.locator('li[data-step="1"]').first();
    await row.locator(".checkpoint-summary").click();
    await row.getByRole("button", { name: "Edit state" }).click();
    const editor = row.getByRole("form", { name: "Edit state" });
    const field = editor.getByLabel("State values");
    const values = JSON.parse(await field.inputValue()) as Approval;
    expect(values).toEqual(interrupted);
    // The schema arrives once the graph's types are compiled (seconds; more on a loaded machine).
    await editor.getByText("Checked against the graph's state schema", { exact: false }).waitFor({ timeout: 200_000 });
    expect(await editor.locator(".field-error").allTextContents()).toEqual([]);

    await field.fill(JSON.stringify({ ...values, messages: [...values.messages, 42] }, null, 2));
    await editor.getByText(/messages\[1\] matches none of the allowed shapes/).waitFor();
    expect(await editor.getByRole("button", { name: "Save and continue" }).isDisabled()).toBe(true);

    const edited = "Your parcel left the depot this morning.";
    await field.fill(JSON.stringify({ ...values, draft: edited }, null, 2));
    expect(await editor.locator(".field-error").allTextContents()).toEqual([]);
    await saveScreenshot(page, "60-edit-state-approval", { fullPage: true });
    await editor.getByRole("button", { name: "Save and continue" }).click();
    // As write_draft, the graph goes on to review, which asks about the edited draft.
    await expect
      .poll(async () => (await server.client.threads.getState<Approval>(threadId)).tasks[0]?.interrupts[0]?.value)
      .toMatchObject([{ action_request: { args: { reply: edited } } }]);
  }, 240_000);
});
