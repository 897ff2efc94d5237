import type { Client } from "@langchain/langgraph-sdk";
import { expect } from "vitest";

/**
 * Semantic search over the example deployment's offline embedding (examples/embed.ts), the same
 * on every database: puts a few items, then checks the ranking, the scores and that items
 * indexed with `index: false` or on other fields stay out of (or low in) the results.
 */
export async function checkSemanticRanking(client: Client, root: string): Promise<void> {
  await client.store.putItem([root, "food"], "pizza", { text: "I love pizza with extra cheese" });
  await client.store.putItem([root, "food"], "pasta", { text: "pasta and pizza are Italian food" });
  await client.store.putItem([root, "sky"], "weather", { text: "The weather today is rainy and cold" });
  await client.store.putItem([root, "food"], "hidden", { text: "pizza cheese pizza cheese" }, { index: false });
  await client.store.putItem([root, "food"], "titled", { title: "pizza cheese", text: "unrelated words" }, { index: ["text"] });

  const { items } = await client.store.searchItems([root], { query: "pizza cheese", limit: 10 });
  const keys = items.map((item) => item.key);
  expect(keys.slice(0, 2)).toEqual(["pizza", "pasta"]);
  expect(keys).not.toContain("hidden");
  const scores = items.map((item) => (item as { score?: number }).score);
  for (const score of scores) expect(typeof score).toBe("number");
  expect([...scores].sort((a, b) => b! - a!)).toEqual(scores);
  expect(scores[0]).toBeGreaterThan(0.5);
  const scoreOf = (key: string) => scores[keys.indexOf(key)]!;
  expect(scoreOf("titled")).toBeLessThan(0.1);
  expect(scoreOf("weather")).toBeLessThan(0.1);

  const filtered = await client.store.searchItems([root, "food"], { query: "rainy weather", filter: { text: { $ne: "x" } }, limit: 2 });
  expect(filtered.items).toHaveLength(2);
  expect(filtered.items.every((item) => item.namespace[1] === "food")).toBe(true);
  const paged = await client.store.searchItems([root], { query: "pizza cheese", limit: 2, offset: 1 });
  expect(paged.items.map((item) => item.key)).toEqual(keys.slice(1, 3));
}
