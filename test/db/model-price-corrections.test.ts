
import { describe, expect, it } from "vitest";
import { CorrectModelPrices2026111764300200000 } from "../../migrations/1764300200000-correct-model-prices-2026-11.js";
import { MODEL_PRICE_CORRECTIONS_2026_11, seededRowOf } from "../../migrations/seed/model-price-corrections-2026-11.js";
import { queryRunnerOn, useDatabaseClient } from "../helpers/database-client.js";

// The corrections to the November 2026 seed rewrite or delete the seeded rows themselves (same id,
// same date) on a migrated database, and leave rows an operator edited alone.
const opened = useDatabaseClient();

interface PriceRow {
  id: string;
  model_name: string;
  match_pattern: string;
  provider: string | null;
  input_price: string;
  output_price: string;
  tiers: unknown[];
  effective_from: Date;
  source_url: string | null;
  as_of: string | null;
}

async function rowsOf(modelName: string): Promise<PriceRow[]> {
  const result = await opened.client.query<PriceRow>(
    `SELECT id, model_name, match_pattern, provider, input_price::text, output_price::text, tiers, effective_from,
            source_url, to_char(as_of, 'YYYY-MM-DD') AS as_of
     FROM model_prices WHERE model_name = $1 ORDER BY effective_from`,
    [modelName],
  );
  return result.rows;
}

/** The migration's own statements, run on the test database's connection. */
const queryRunner = queryRunnerOn(() => opened.client);

describe("the corrections to the November 2026 price seed", () => {
  it("removes the rows no pricing page confirmed and rewrites the others in place, adding no later row", async () => {
    for (const model of ["kimi-k2 (Groq)", "llama-3.3-70b (Together)", "kimi-k2 (Fireworks)", "deepseek-v3.1 (Fireworks)"]) {
      expect(await rowsOf(model), model).toEqual([]);
    }
    // Grok 4 Fast's unconfirmed long-context tier is gone from the one row it had.
    const [grokFast, ...laterGrokFast] = await rowsOf("grok-4-fast");
    expect(laterGrokFast).toEqual([]);
    expect(grokFast).toMatchObject({ input_price: "0.2", output_price: "0.5", tiers: [], effective_from: new Date(0), as_of: "2025-10-21" });
    expect(await rowsOf("gpt-audio")).toEqual([
      expect.objectContaining({ source_url: "https://developers.openai.com/api/docs/models/gpt-audio", as_of: "2026-11-28", input_price: "2.5" }),
    ]);
    // Grok 4 keeps its tier (checked), with the page it was checked against.
    const [grok4] = await rowsOf("grok-4");
    expect(grok4.tiers).toHaveLength(1);
    expect(grok4).toMatchObject({ source_url: "https://docs.x.ai/docs/models", as_of: "2026-11-28" });
    // Every other correction left exactly its one seeded row.
    for (const correction of MODEL_PRICE_CORRECTIONS_2026_11.filter((candidate) => candidate.change !== "remove")) {
      const rows = await rowsOf(correction.model_name);
      expect(rows.map((row) => [row.match_pattern, row.effective_from.getTime()]), correction.model_name).toEqual([
        [seededRowOf(correction).match_pattern, 0],
      ]);
    }
  });

  it("down restores the seed's rows; up again leaves an operator's edited rows as they are", async () => {
    const migration = new CorrectModelPrices2026111764300200000();
    await migration.down(queryRunner);
    expect((await rowsOf("grok-4-fast"))[0].tiers).toHaveLength(1);
    expect(await rowsOf("llama-3.3-70b (Together)")).toEqual([expect.objectContaining({ input_price: "0.88", provider: "together" })]);

    // The operator takes over Grok 4 Fast and Together's Llama: their rows are theirs now.
    await opened.client.query(
      `UPDATE model_prices SET updated_at = created_at + interval '1 second'
       WHERE model_name IN ('grok-4-fast', 'llama-3.3-70b (Together)')`,
    );
    await migration.up(queryRunner);
    expect((await rowsOf("grok-4-fast"))[0].tiers).toHaveLength(1);
    expect(await rowsOf("llama-3.3-70b (Together)")).toHaveLength(1);
    expect(await rowsOf("kimi-k2 (Together)")).toEqual([]);
    expect(await rowsOf("gpt-audio")).toEqual([expect.objectContaining({ as_of: "2026-11-28" })]);
  });

  it("names a seeded row in every correction", () => {
    for (const correction of MODEL_PRICE_CORRECTIONS_2026_11) expect(() => seededRowOf(correction)).not.toThrow();
    expect(() => seededRowOf({ model_name: "gpt-audio", effective_from: "2020-01-01T00:00:00Z" })).toThrow(/names no seeded row/);
  });
});
