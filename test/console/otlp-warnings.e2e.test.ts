import { describe, expect, it } from "vitest";
import { saveScreenshot, useConsoleBrowser } from "./browser-helpers.js";

// An OpenTelemetry span with attributes no mapping knows is stored whole: the trace view names them
// in its warnings, so nothing is dropped silently.
const fixture = useConsoleBrowser({ screenshotPrefix: "otlp-warnings" });

describe("an OTLP span with unmapped attributes in the console", () => {
  it("shows the run with a warning naming the attributes kept as sent", async () => {
    const { page, server } = fixture;
    const now = BigInt(Date.now()) * 1_000_000n;
    const span = {
      traceId: "5b8efff798038103d269b633813fc60c",
      spanId: "eee19b7ec3c1b174",
      name: "chat gpt-4o-mini",
      kind: 3,
      startTimeUnixNano: String(now - 1_500_000_000n),
      endTimeUnixNano: String(now),
      attributes: [
        { key: "gen_ai.operation.name", value: { stringValue: "chat" } },
        { key: "gen_ai.request.model", value: { stringValue: "gpt-4o-mini" } },
        { key: "gen_ai.usage.input_tokens", value: { intValue: "1000" } },
        { key: "gen_ai.usage.output_tokens", value: { intValue: "500" } },
        { key: "acme.routing.shard", value: { stringValue: "eu-west-3" } },
      ],
    };
    const response = await fetch(`${server.url}/otel/v1/traces`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: "acme" }, spans: [span] }] }] }),
    });
    expect(response.status).toBe(200);
    const listed = await fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "{ traces(first: 1) { edges { node { traceRunId traceId warnings cost { totalCost } } } } }" }),
    });
    const [edge] = ((await listed.json()) as { data: { traces: { edges: Array<{ node: { traceRunId: string; traceId: string; warnings: string[]; cost: { totalCost: string } } }> } } })
      .data.traces.edges;
    expect(edge?.node.warnings.join(" ")).toContain("acme.routing.shard");
    expect(edge?.node.cost.totalCost).toBe("0.00045");

    await page.goto(`${server.url}/console/traces/${edge?.node.traceId}?run=${edge?.node.traceRunId}`);
    const warning = page.getByText("Stored with warnings:");
    await warning.waitFor();
    await page.getByText(/acme\.routing\.shard/).first().waitFor();
    await saveScreenshot(page, "otlp-unmapped-attributes");
    expect(fixture.pageErrors).toEqual([]);
  });
});
