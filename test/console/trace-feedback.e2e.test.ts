import { randomUUID } from "node:crypto";
import { Client } from "langsmith";
import { describe, expect, it } from "vitest";
import { saveScreenshot, useConsoleBrowser } from "./browser-helpers.js";

// The console's trace view shows a run's feedback, as the langsmith client gave it.
const fixture = useConsoleBrowser({ screenshotPrefix: "trace-feedback" });

describe("feedback in the console's trace view", () => {
  it("lists a run's feedback, adds and deletes one, and says when there is none", async () => {
    const { server, page } = fixture;
    const rootId = randomUUID();
    const callId = randomUUID();
    const started = Date.now() - 2000;
    const post = (run: Record<string, unknown>) =>
      server.request("/tracing/runs", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(run) });
    const posted = await Promise.all([
      post({ id: rootId, trace_id: rootId, name: "support-agent", run_type: "chain", start_time: started, end_time: started + 900, inputs: {}, outputs: {} }),
      post({
        id: callId,
        trace_id: rootId,
        parent_run_id: rootId,
        name: "ChatOpenAI",
        run_type: "llm",
        start_time: started + 100,
        end_time: started + 800,
        inputs: { messages: [{ role: "user", content: "Where is my parcel?" }] },
        outputs: { choices: [{ message: { role: "assistant", content: "It left Lyon this morning." } }] },
      }),
    ]);
    expect(posted.map((response) => response.status)).toEqual([202, 202]);
    const client = new Client({ apiUrl: `${server.url}/tracing`, autoBatchTracing: false, callerOptions: { maxRetries: 0 } });
    await client.createFeedback(callId, "correctness", {
      score: 0.25,
      value: "wrong city",
      comment: "The parcel is in Lille",
      correction: { content: "It left Lille this morning." },
      feedbackSourceType: "model",
    });

    await page.goto(`${server.url}/console/traces/${rootId}?run=${callId}`);
    const table = page.getByTestId("run-feedback");
    await table.waitFor();
    const cells = await table.locator("tbody tr").first().locator("td").allTextContents();
    expect(cells).toEqual(["correctnessmodel", "0.25", "wrong city", "The parcel is in Lille", '{"content":"It left Lille this morning."}', "EditDelete"]);

    // Edited in place (updateTraceFeedback): score, value (JSON when it parses) and comment; the
    // langsmith client reads the change back, the correction untouched.
    await table.getByRole("button", { name: "Edit feedback correctness" }).click();
    const edit = page.getByRole("form", { name: "Edit feedback correctness" });
    expect(await edit.getByLabel("Score").inputValue()).toBe("0.25");
    expect(await edit.getByLabel("Value").inputValue()).toBe("wrong city");
    await edit.getByLabel("Score").fill("0.75");
    await edit.getByLabel("Value").fill('{"city":"Lille"}');
    await edit.getByLabel("Comment").fill("right city after all");
    await edit.getByRole("button", { name: "Save" }).click();
    await table.getByText("right city after all").waitFor();
    const [corrected] = await (async () => {
      const found = [];
      for await (const feedback of client.listFeedback({ runIds: [callId], feedbackKeys: ["correctness"] })) found.push(feedback);
      return found;
    })();
    expect(corrected).toMatchObject({
      score: 0.75,
      value: { city: "Lille" },
      comment: "right city after all",
      correction: { content: "It left Lille this morning." },
    });
    // A refused edit stays open with the server's answer, and changes nothing.
    await table.getByRole("button", { name: "Edit feedback correctness" }).click();
    await edit.getByLabel("Score").fill("1e13");
    await edit.getByRole("button", { name: "Save" }).click();
    await page.getByRole("alert").getByText(/score must be below 1e12 in magnitude/).waitFor();
    await edit.getByRole("button", { name: "Cancel" }).click();
    await edit.waitFor({ state: "detached" });
    expect((await table.locator("tbody tr").first().locator("td").allTextContents()).slice(1, 4)).toEqual(["0.75", '{"city":"Lille"}', "right city after all"]);

    // Added from the console (source app), and stored: the langsmith client reads it back.
    const form = page.getByRole("form", { name: "Add feedback" });
    await form.getByLabel("Feedback key").fill("helpfulness");
    await form.getByLabel("Score").fill("0.9");
    await form.getByLabel("Comment").fill("clear answer");
    await form.getByRole("button", { name: "Add feedback" }).click();
    await table.getByText("clear answer").waitFor();
    const stored = [];
    for await (const feedback of client.listFeedback({ runIds: [callId], feedbackKeys: ["helpfulness"] })) stored.push(feedback);
    expect(stored).toMatchObject([{ key: "helpfulness", score: 0.9, comment: "clear answer", feedback_source: { type: "app" } }]);
    await saveScreenshot(page, "run-feedback", { fullPage: true });

    // A bad score is the server's refusal, shown; nothing is added.
    await form.getByLabel("Feedback key").fill("x".repeat(201));
    await form.getByRole("button", { name: "Add feedback" }).click();
    await page.getByRole("alert").getByText(/key must be a non-empty string of at most 200 characters/).waitFor();
    expect(await table.locator("tbody tr").count()).toBe(2);

    // The row's own button going away, not its text: the comment was edited above, so the original
    // text was already gone and waiting for it raced the delete.
    const deleteCorrectness = table.getByRole("button", { name: "Delete feedback correctness" });
    await deleteCorrectness.click();
    await deleteCorrectness.waitFor({ state: "detached" });
    const left = [];
    for await (const feedback of client.listFeedback({ runIds: [callId] })) left.push(feedback.key);
    expect(left).toEqual(["helpfulness"]);

    await page.goto(`${server.url}/console/traces/${rootId}?run=${rootId}`);
    await page.getByTestId("trace-run-panel").getByText("No feedback on this run.").waitFor();
    expect(fixture.pageErrors).toEqual([]);
  });
});
