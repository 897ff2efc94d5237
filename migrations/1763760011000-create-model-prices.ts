import { createHash } from "node:crypto";
import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * The model price table, seeded with list prices in USD per 1M tokens. Prices are data: edits go
 * through the model-prices service; this seed is never changed once merged (a later price change
 * is a new migration that inserts a row with a later effective_from).
 *
 * Accounting rule the prices assume: cached / audio input tokens are PART of input_tokens and
 * are billed at their detail price instead of the base price (never both). Detail kinds without
 * a price here are billed at the base price (e.g. OpenAI reasoning tokens are output tokens).
 */
export class CreateModelPrices1763760011000 implements MigrationInterface {
  name = "CreateModelPrices1763760011000";

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE model_prices (
        id uuid PRIMARY KEY,
        model_name text NOT NULL,
        -- A JavaScript regular expression matched against the run's model name; anchored so
        -- that gpt-4o does not also price gpt-4o-mini.
        match_pattern text NOT NULL,
        -- Null matches runs of any provider.
        provider text,
        input_price numeric NOT NULL CHECK (input_price >= 0),
        output_price numeric NOT NULL CHECK (output_price >= 0),
        input_detail_prices jsonb NOT NULL DEFAULT '{}',
        output_detail_prices jsonb NOT NULL DEFAULT '{}',
        effective_from timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE INDEX model_prices_effective_from_idx ON model_prices (effective_from)`);
    // Seed ids are derived from the model name and date, so every installation has the same ids.
    await queryRunner.query(
      `INSERT INTO model_prices (id, model_name, match_pattern, provider, input_price, output_price,
                                 input_detail_prices, output_detail_prices, effective_from)
       SELECT p.id, p.model_name,
              p.match_pattern, p.provider, p.input_price, p.output_price, p.input_detail_prices,
              p.output_detail_prices, p.effective_from
       FROM jsonb_to_recordset($1::jsonb) AS p(id uuid, model_name text, match_pattern text, provider text,
         input_price numeric, output_price numeric, input_detail_prices jsonb, output_detail_prices jsonb,
         effective_from timestamptz)`,
      [JSON.stringify(SEED_PRICES.map(toSeedRow))],
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE model_prices`);
  }
}

interface SeedPrice {
  model: string;
  pattern: string;
  /**
   * Null for the OpenAI, Anthropic and Google rows: the same model is also served through Azure,
   * Bedrock and Vertex (ls_provider azure, amazon_bedrock, google_vertexai ...) at the list price,
   * and a row with a provider only prices runs of that provider. A provider-specific row added
   * later wins over these for its provider.
   */
  provider: string | null;
  input: string;
  output: string;
  inputDetails?: Record<string, string>;
  outputDetails?: Record<string, string>;
  /** Defaults to the epoch: a list price applies to every run until a later row replaces it. */
  from?: string;
}

// Optional suffixes the providers put after a model's base name.
const OPENAI_DATE = String.raw`(-\d{4}-\d{2}-\d{2})?`;
const ANTHROPIC_SUFFIX = String.raw`(-\d{8}|-latest)?(-v\d+(:\d+)?)?`; // dated ids; Bedrock's -v1:0
const GEMINI_SUFFIX = String.raw`(-\d{3}|-latest|-exp(-\d{4})?|-preview(-[0-9a-z-]+)?)?`;

function openai(model: string, input: string, output: string, cacheRead?: string, from?: string): SeedPrice {
  const pattern = `^${escape(model)}${OPENAI_DATE}$`;
  return { model, pattern, provider: null, input, output, inputDetails: cacheRead ? { cache_read: cacheRead } : {}, from };
}

// Anthropic bills cache writes at 1.25x and cache reads at 0.1x the base input price.
function anthropic(model: string, input: string, output: string, cacheRead: string, cacheCreation: string): SeedPrice {
  const pattern = String.raw`^(anthropic\.)?${escape(model)}${ANTHROPIC_SUFFIX}$`;
  const inputDetails = { cache_read: cacheRead, cache_creation: cacheCreation };
  return { model, pattern, provider: null, input, output, inputDetails };
}

function gemini(model: string, input: string, output: string, inputDetails: Record<string, string> = {}): SeedPrice {
  const pattern = `^(models/)?${escape(model)}${GEMINI_SUFFIX}$`;
  return { model, pattern, provider: null, input, output, inputDetails };
}

function escape(model: string): string {
  return model.replace(/[.]/g, "\\.");
}

const SEED_PRICES: SeedPrice[] = [
  // OpenAI
  openai("gpt-4o", "2.50", "10.00", "1.25"),
  { model: "gpt-4o-2024-05-13", pattern: "^gpt-4o-2024-05-13$", provider: null, input: "5.00", output: "15.00" },
  { model: "chatgpt-4o-latest", pattern: "^chatgpt-4o-latest$", provider: null, input: "5.00", output: "15.00" },
  openai("gpt-4o-mini", "0.15", "0.60", "0.075"),
  {
    ...openai("gpt-4o-audio-preview", "2.50", "10.00"),
    inputDetails: { audio: "40.00" },
    outputDetails: { audio: "80.00" },
  },
  {
    ...openai("gpt-4o-mini-audio-preview", "0.15", "0.60"),
    inputDetails: { audio: "10.00" },
    outputDetails: { audio: "20.00" },
  },
  openai("gpt-4.1", "2.00", "8.00", "0.50"),
  openai("gpt-4.1-mini", "0.40", "1.60", "0.10"),
  openai("gpt-4.1-nano", "0.10", "0.40", "0.025"),
  { ...openai("gpt-4-turbo", "10.00", "30.00"), pattern: String.raw`^gpt-4-turbo(-\d{4}-\d{2}-\d{2}|-preview)?$` },
  { ...openai("gpt-4", "30.00", "60.00"), pattern: "^gpt-4(-0613|-0314)?$" },
  { ...openai("gpt-3.5-turbo", "0.50", "1.50"), pattern: String.raw`^gpt-3\.5-turbo(-0125|-1106)?$` },
  openai("o1", "15.00", "60.00", "7.50"),
  openai("o1-mini", "1.10", "4.40", "0.55"),
  openai("o1-pro", "150.00", "600.00"),
  // o3 launched at 10/40 and was cut by 80% on 2025-06-10: two rows, the later one wins from then on.
  openai("o3", "10.00", "40.00", "2.50"),
  openai("o3", "2.00", "8.00", "0.50", "2025-06-10T00:00:00Z"),
  openai("o3-mini", "1.10", "4.40", "0.55"),
  openai("o3-pro", "20.00", "80.00"),
  openai("o4-mini", "1.10", "4.40", "0.275"),
  { ...openai("gpt-5", "1.25", "10.00", "0.125"), pattern: String.raw`^gpt-5(-\d{4}-\d{2}-\d{2}|-chat-latest)?$` },
  openai("gpt-5-mini", "0.25", "2.00", "0.025"),
  openai("gpt-5-nano", "0.05", "0.40", "0.005"),
  openai("gpt-5-pro", "15.00", "120.00"),
  {
    ...openai("gpt-5.1", "1.25", "10.00", "0.125"),
    pattern: String.raw`^gpt-5\.1(-\d{4}-\d{2}-\d{2}|-chat-latest)?$`,
  },
  // Anthropic
  anthropic("claude-3-haiku", "0.25", "1.25", "0.03", "0.30"),
  anthropic("claude-3-5-haiku", "0.80", "4.00", "0.08", "1.00"),
  anthropic("claude-3-sonnet", "3.00", "15.00", "0.30", "3.75"),
  anthropic("claude-3-5-sonnet", "3.00", "15.00", "0.30", "3.75"),
  anthropic("claude-3-7-sonnet", "3.00", "15.00", "0.30", "3.75"),
  anthropic("claude-3-opus", "15.00", "75.00", "1.50", "18.75"),
  // "-0" is the alias form (claude-sonnet-4-0); it cannot match claude-sonnet-4-5.
  anthropic("claude-sonnet-4", "3.00", "15.00", "0.30", "3.75"),
  anthropic("claude-sonnet-4-5", "3.00", "15.00", "0.30", "3.75"),
  anthropic("claude-opus-4", "15.00", "75.00", "1.50", "18.75"),
  anthropic("claude-opus-4-1", "15.00", "75.00", "1.50", "18.75"),
  anthropic("claude-opus-4-5", "5.00", "25.00", "0.50", "6.25"),
  anthropic("claude-haiku-4-5", "1.00", "5.00", "0.10", "1.25"),
  // Google (prices for prompts up to 128k/200k tokens; long-context tiers are not modelled)
  gemini("gemini-1.5-flash", "0.075", "0.30", { cache_read: "0.01875" }),
  gemini("gemini-1.5-flash-8b", "0.0375", "0.15", { cache_read: "0.01" }),
  gemini("gemini-1.5-pro", "1.25", "5.00", { cache_read: "0.3125" }),
  gemini("gemini-2.0-flash", "0.10", "0.40", { cache_read: "0.025", audio: "0.70" }),
  gemini("gemini-2.0-flash-lite", "0.075", "0.30"),
  gemini("gemini-2.5-flash", "0.30", "2.50", { cache_read: "0.03", audio: "1.00" }),
  gemini("gemini-2.5-flash-lite", "0.10", "0.40", { cache_read: "0.01", audio: "0.30" }),
  gemini("gemini-2.5-pro", "1.25", "10.00", { cache_read: "0.125" }),
  // The example deployment's built-in offline model: a token price so its traces show costs.
  { model: "offline-echo", pattern: "^offline-echo$", provider: "hangar", input: "0.10", output: "0.40" },
];

function toSeedRow(price: SeedPrice) {
  const effectiveFrom = price.from ?? "1970-01-01T00:00:00Z";
  const hash = createHash("md5").update(`hangar-model-price:${price.model}:${effectiveFrom}`).digest("hex");
  return {
    id: `${hash.slice(0, 8)}-${hash.slice(8, 12)}-${hash.slice(12, 16)}-${hash.slice(16, 20)}-${hash.slice(20, 32)}`,
    model_name: price.model,
    match_pattern: price.pattern,
    provider: price.provider,
    input_price: price.input,
    output_price: price.output,
    input_detail_prices: price.inputDetails ?? {},
    output_detail_prices: price.outputDetails ?? {},
    effective_from: effectiveFrom,
  };
}
