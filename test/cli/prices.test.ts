import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI_CWD, cliArgs } from "../helpers/cli-process.js";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database.js";

// `hangar prices export|import` as an operator runs them: the built CLI on real databases.
let source: TestDatabase;
let target: TestDatabase;
let dir: string;

beforeAll(async () => {
  [source, target] = await Promise.all([createTestDatabase(), createTestDatabase()]);
  dir = await mkdtemp(path.join(os.tmpdir(), "hangar-prices-"));
});

afterAll(async () => {
  await Promise.all([source?.retire(), target?.retire()]);
  if (dir) await rm(dir, { recursive: true, force: true });
});

function prices(args: string[], database: TestDatabase): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, cliArgs(["prices", ...args]), {
      cwd: CLI_CWD,
      env: { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: "error" },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

async function exportText(database: TestDatabase): Promise<string> {
  const result = await prices(["export"], database);
  expect(result, result.stderr).toMatchObject({ code: 0 });
  return result.stdout;
}

/** A fingerprint of every column of every price row, read directly from the table. */
async function tableFingerprint(database: TestDatabase): Promise<string> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const { rows } = await client.query("SELECT count(*)::int AS n, md5(string_agg(m::text, ',' ORDER BY id)) AS hash FROM model_prices m");
    return `${rows[0].n}:${rows[0].hash}`;
  } finally {
    await client.end();
  }
}

const customRow = {
  id: "5f0c1c55-2a3b-4c5d-8e9f-0a1b2c3d4e5f",
  model_name: "house-model",
  match_pattern: "^house-model$",
  provider: "house",
  input_price: "1.50",
  output_price: "6",
  input_detail_prices: { cache_read: "0.15" },
  output_detail_prices: {},
  tiers: [
    {
      name: "long context",
      condition: { input_tokens_above: 200000, service_tier: null },
      input_price: "3",
      output_price: "9",
      input_detail_prices: {},
      output_detail_prices: {},
    },
  ],
  effective_from: "2026-07-01T00:00:00.000Z",
  source_url: "https://example.com/house-prices",
  as_of: "2026-11-26",
};

describe("hangar prices", () => {
  it("exports the seeded table, and an import into another database round-trips exactly", async () => {
    const exported = JSON.parse(await exportText(source));
    expect(exported).toMatchObject({ format: "hangar-model-prices", version: 1 });
    expect(exported.prices.length).toBeGreaterThan(100);
    expect(exported.prices).toContainEqual(
      expect.objectContaining({
        model_name: "gpt-5.4",
        source_url: "https://platform.openai.com/docs/pricing",
        tiers: expect.arrayContaining([expect.objectContaining({ name: "flex long context", condition: { input_tokens_above: 272000, service_tier: "flex" } })]),
      }),
    );

    // The source table plus a row of the operator's own, moved to the target through a file.
    const file = path.join(dir, "prices.json");
    await writeFile(file, JSON.stringify({ ...exported, prices: [...exported.prices, customRow] }));
    const imported = await prices(["import", file], target);
    expect(imported, imported.stderr).toMatchObject({ code: 0 });
    expect(imported.stderr).toMatch(/imported \d+ prices/);

    const targetText = await exportText(target);
    const targetTable = JSON.parse(targetText);
    expect(targetTable.prices).toHaveLength(exported.prices.length + 1);
    expect(targetTable.prices).toEqual(expect.arrayContaining([...exported.prices, customRow]));

    // And back: the target's export imported into the source exports byte for byte the same.
    const exportFile = path.join(dir, "target.json");
    const written = await prices(["export", exportFile], target);
    expect(written, written.stderr).toMatchObject({ code: 0 });
    expect(await readFile(exportFile, "utf8")).toBe(targetText);
    expect(await prices(["import", exportFile], source)).toMatchObject({ code: 0 });
    expect(await exportText(source)).toBe(targetText);
    // Six CLI processes, each starting Node and connecting: seconds apiece on a loaded machine.
  }, 180_000);

  const base = { format: "hangar-model-prices", version: 1 };
  const refused: Array<{ name: string; rows: unknown[]; message: RegExp }> = [
    {
      name: "two rows of the same pattern, provider and date",
      rows: [customRow, { ...customRow, id: "6f0c1c55-2a3b-4c5d-8e9f-0a1b2c3d4e5f", model_name: "house-model-twin" }],
      message: /house-model-twin.*same match_pattern, provider and effective_from/,
    },
    {
      name: "overlapping tiers in one row",
      rows: [
        customRow,
        {
          ...customRow,
          id: "7f0c1c55-2a3b-4c5d-8e9f-0a1b2c3d4e5f",
          model_name: "overlapping",
          match_pattern: "^overlapping$",
          tiers: [...customRow.tiers, { ...customRow.tiers[0], name: "flex", condition: { input_tokens_above: null, service_tier: "flex" } }],
        },
      ],
      message: /prices\[1\] \(overlapping\): tiers 'long context' and 'flex' overlap/,
    },
    { name: "a bad number", rows: [{ ...customRow, output_price: "six" }], message: /prices\[0\] \(house-model\): output_price must be a decimal/ },
    { name: "a negative price", rows: [{ ...customRow, input_price: -1 }], message: /prices\[0\] \(house-model\): input_price must be zero or more/ },
    { name: "a bad regular expression", rows: [{ ...customRow, match_pattern: "^house-(model$" }], message: /prices\[0\] \(house-model\): match_pattern is not a valid regular expression/ },
    { name: "an unknown field", rows: [{ ...customRow, discount: 0.5 }], message: /prices\[0\] \(house-model\): .*discount/ },
  ];
  for (const { name, rows, message } of refused) {
    it(`refuses a file with ${name} whole, naming the row, and leaves the table unchanged`, async () => {
      const before = await tableFingerprint(target);
      const file = path.join(dir, "bad.json");
      await writeFile(file, JSON.stringify({ ...base, prices: rows }));
      const result = await prices(["import", file], target);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(message);
      expect(await tableFingerprint(target)).toBe(before);
    });
  }

  it("refuses a file that is not JSON, and usage errors", async () => {
    const file = path.join(dir, "broken.json");
    await writeFile(file, "{ not json");
    const result = await prices(["import", file], target);
    expect(result).toMatchObject({ code: 1 });
    expect(result.stderr).toMatch(/broken\.json is not JSON/);
    expect(await prices(["import"], target)).toMatchObject({ code: 1, stderr: expect.stringMatching(/^Usage: hangar prices/) });
  });
});
