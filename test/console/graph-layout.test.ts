import { describe, expect, it } from "vitest";
import { collapseDrawing, layoutDrawing, readDrawing, subgraphsOf } from "../../web/src/lib/graph-layout.js";
import { xrayDepthFor } from "../../web/src/lib/node-activity.js";

// The pipeline fixture (test/fixtures/graphs/studio.ts) as LangGraph draws it with xray 1.
const XRAY = readDrawing({
  nodes: ["__start__", "plan", "research:search", "research:summarize", "write", "__end__"].map((id) => ({ id })),
  edges: [
    { source: "__start__", target: "plan", conditional: false },
    { source: "plan", target: "research:search", conditional: true },
    { source: "plan", target: "write", conditional: true },
    { source: "research:search", target: "research:summarize", conditional: false },
    { source: "research:summarize", target: "write", conditional: false },
    { source: "write", target: "__end__", conditional: false },
  ],
});

describe("collapseDrawing", () => {
  it("folds a subgraph's nodes into one node, keeping the edges in and out and dropping those inside", () => {
    const folded = collapseDrawing(XRAY, new Set());
    expect(folded.nodes.map((node) => node.id)).toEqual(["__start__", "plan", "research", "write", "__end__"]);
    expect(folded.edges.map((edge) => `${edge.source}->${edge.target}${edge.conditional ? "?" : ""}`)).toEqual([
      "__start__->plan",
      "plan->research?",
      "plan->write?",
      "research->write",
      "write->__end__",
    ]);
  });

  it("leaves an expanded subgraph as drawn", () => {
    expect(collapseDrawing(XRAY, new Set(["research"]))).toEqual(XRAY);
    expect(subgraphsOf(XRAY)).toEqual(["research"]);
  });
});

describe("layoutDrawing", () => {
  it("places nodes top to bottom in edge order, without overlaps, marking folded subgraphs", () => {
    const layout = layoutDrawing(collapseDrawing(XRAY, new Set()), new Set(["research"]));
    const byId = new Map(layout.nodes.map((node) => [node.id, node]));
    expect(byId.get("__start__")!.y).toBeLessThan(byId.get("plan")!.y);
    expect(byId.get("plan")!.y).toBeLessThan(byId.get("research")!.y);
    expect(byId.get("research")!.y).toBeLessThan(byId.get("write")!.y);
    expect(byId.get("write")!.y).toBeLessThan(byId.get("__end__")!.y);
    expect(byId.get("research")!.kind).toBe("subgraph");
    expect(byId.get("__start__")!.kind).toBe("start");
    expect(layout.edges.filter((edge) => edge.conditional)).toHaveLength(2);
    for (const a of layout.nodes) {
      for (const b of layout.nodes) {
        if (a === b) continue;
        const apart = a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;
        expect(apart, `${a.id} overlaps ${b.id}`).toBe(true);
      }
    }
  });

  it("needs an xray depth as deep as the deepest expanded subgraph", () => {
    expect(xrayDepthFor(new Set())).toBe(0);
    expect(xrayDepthFor(new Set(["research", "research:inner"]))).toBe(2);
  });
});
