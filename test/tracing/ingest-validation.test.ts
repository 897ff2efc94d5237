import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

// Runs that are odd are stored with warnings; requests that are malformed are refused whole.
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server?.close();
});

function post(path: string, body: string, headers: Record<string, string> = { "content-type": "application/json" }) {
  return server.request(path, { method: "POST", headers, body });
}

async function expectNotStored(id: string) {
  expect((await server.request(`/tracing/runs/${id}`)).status).toBe(404);
}

function validRun(id = randomUUID()) {
  return { id, name: "ok", run_type: "llm", start_time: "2025-06-01T00:00:00Z" };
}

describe("ingestion: odd runs are stored verbatim with warnings", () => {
  it("keeps a run with an unknown block type, an unmatched tool_call_id and an unknown usage key", async () => {
    const id = randomUUID();
    const inputs = {
      messages: [
        { role: "user", content: [{ type: "hologram", data: "?" }] },
        { role: "tool", tool_call_id: "call_nowhere", content: "42" },
      ],
    };
    const outputs = { role: "assistant", content: "ok", usage_metadata: { input_tokens: 3, output_tokens: 1, bananas: 7 } };
    const response = await post("/tracing/runs/batch", JSON.stringify({ post: [{ ...validRun(id), inputs, outputs }] }));
    expect(response.status).toBe(202);
    const run = (await (await server.request(`/tracing/runs/${id}`)).json()) as Record<string, any>;
    expect(run.inputs).toEqual(inputs);
    expect(run.outputs).toEqual(outputs);
    expect(run.warnings.length).toBeGreaterThanOrEqual(3);
    const warnings = run.warnings.join("\n");
    expect(warnings).toContain("hologram");
    expect(warnings).toContain("call_nowhere");
    expect(warnings).toContain("bananas");
    expect(run.rendered.warnings.length).toBeGreaterThan(0);
  });

  it("keeps an unknown run_type and a malformed dotted_order", async () => {
    const id = randomUUID();
    const body = { ...validRun(id), run_type: "telepathy", dotted_order: "not-a-dotted-order" };
    expect((await post("/tracing/runs/batch", JSON.stringify({ post: [body] }))).status).toBe(202);
    const run = (await (await server.request(`/tracing/runs/${id}`)).json()) as Record<string, any>;
    expect(run).toMatchObject({ run_type: "telepathy", dotted_order: "not-a-dotted-order" });
    const warnings = run.warnings.join("\n");
    expect(warnings).toContain("telepathy");
    expect(warnings).toContain("dotted_order is malformed");
  });

  it("refuses text PostgreSQL cannot store (NUL, unpaired surrogate) with 422 naming the field, as every route does", async () => {
    const id = randomUUID();
    const body = { ...validRun(id), inputs: { text: "nul\u0000here" } };
    const response = await post("/tracing/runs/batch", JSON.stringify({ post: [body] }));
    expect(response.status).toBe(422);
    expect((await response.json()).detail).toBe("body.post[0].inputs.text: text contains a NUL character (\\u0000), which cannot be stored");
    expect((await server.request(`/tracing/runs/${id}`)).status).toBe(404);
  });
});

describe("ingestion: malformed requests are refused with 422 and store nothing", () => {
  it("refuses a body that is not JSON", async () => {
    const response = await post("/tracing/runs/batch", '{"post": [');
    expect(response.status).toBe(422);
    expect((await response.json()).detail).toContain("not valid JSON");
  });

  it("refuses a run without id, naming the field, and stores none of the batch", async () => {
    const good = validRun();
    const response = await post("/tracing/runs/batch", JSON.stringify({ post: [good, { name: "no id", run_type: "llm" }] }));
    expect(response.status).toBe(422);
    expect((await response.json()).detail).toContain("post.1.id");
    await expectNotStored(good.id);
  });

  it("refuses a time that is neither ISO 8601 nor epoch milliseconds, naming the run and field", async () => {
    const good = validRun();
    const bad = { ...validRun(), start_time: "yesterday" };
    const response = await post("/tracing/runs/batch", JSON.stringify({ post: [good], patch: [bad] }));
    expect(response.status).toBe(422);
    const { detail } = await response.json();
    expect(detail).toContain("start_time");
    expect(detail).toContain(bad.id);
    await expectNotStored(good.id);
    await expectNotStored(bad.id);
  });

  it("refuses ids that are not UUIDs and a PATCH whose body id differs from the path", async () => {
    const response = await post("/tracing/runs", JSON.stringify({ ...validRun(), trace_id: "trace-1" }));
    expect(response.status).toBe(422);
    expect((await response.json()).detail).toContain("trace_id");
    const id = randomUUID();
    const patch = await server.request(`/tracing/runs/${id}`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ id: randomUUID(), outputs: {} }),
    });
    expect(patch.status).toBe(422);
    await expectNotStored(id);
  });

  it("refuses a multipart body with a part that is not JSON, naming the part", async () => {
    const good = validRun();
    const badId = randomUUID();
    const boundary = "b0undary";
    const part = (name: string, data: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\nContent-Type: application/json\r\n\r\n${data}\r\n`;
    const body = `${part(`post.${good.id}`, JSON.stringify(good))}${part(`post.${badId}`, "{oops")}--${boundary}--\r\n`;
    const response = await post("/tracing/runs/multipart", body, { "content-type": `multipart/form-data; boundary=${boundary}` });
    expect(response.status).toBe(422);
    expect((await response.json()).detail).toContain(`post.${badId}`);
    await expectNotStored(good.id);
  });

  it("refuses multipart without a boundary and unknown run ids on read", async () => {
    const response = await post("/tracing/runs/multipart", "x", { "content-type": "multipart/form-data" });
    expect(response.status).toBe(422);
    expect((await server.request(`/tracing/runs/${randomUUID()}`)).status).toBe(404);
    expect((await server.request("/tracing/runs/not-a-uuid")).status).toBe(404);
  });
});
