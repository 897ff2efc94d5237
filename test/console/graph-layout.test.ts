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

describe("layoutDrawing's routes", () => {
  // write_draft -> review, and review -> write_draft back (a cycle), review -> send, review -> end.
  const CYCLE = readDrawing({
    nodes: ["__start__", "write_draft", "review", "send", "__end__"].map((id) => ({ id })),
    edges: [
      { source: "__start__", target: "write_draft" },
      { source: "write_draft", target: "review" },
      { source: "review", target: "write_draft", conditional: true },
      { source: "review", target: "send", conditional: true },
      { source: "review", target: "__end__", conditional: true },
      { source: "send", target: "__end__" },
    ],
  });

  it("routes a back edge up a lane right of every node it passes, apart from the forward edge", () => {
    const layout = layoutDrawing(CYCLE);
    const byId = new Map(layout.nodes.map((node) => [node.id, node]));
    const back = layout.edges.find((edge) => edge.source === "review" && edge.target === "write_draft")!;
    const forward = layout.edges.find((edge) => edge.source === "write_draft" && edge.target === "review")!;
    expect(back.isBackEdge).toBe(true);
    expect(forward.isBackEdge).toBe(false);
    const laneX = back.points[1]!.x;
    for (const id of ["write_draft", "review"]) expect(laneX).toBeGreaterThan(byId.get(id)!.x + byId.get(id)!.width);
    // It leaves review's side and enters write_draft's side: no point on the forward edge's line.
    expect(back.points.every((point) => !forward.points.some((other) => other.x === point.x && other.y === point.y))).toBe(true);
    expect(back.points.at(-1)!.y).toBeCloseTo(byId.get("write_draft")!.y + byId.get("write_draft")!.height / 2);
  });

  it("follows dagre's bends for a forward edge that skips a rank, so it does not cross the node in between", () => {
    const layout = layoutDrawing(CYCLE);
    const send = layout.nodes.find((node) => node.id === "send")!;
    const skip = layout.edges.find((edge) => edge.source === "review" && edge.target === "__end__")!;
    expect(skip.points.length).toBeGreaterThanOrEqual(3);
    const inside = (point: { x: number; y: number }) =>
      point.x > send.x && point.x < send.x + send.width && point.y > send.y && point.y < send.y + send.height;
    expect(skip.points.some(inside)).toBe(false);
  });
});
