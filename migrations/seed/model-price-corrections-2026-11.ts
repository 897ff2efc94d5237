/**
 * Corrections to the November 2026 seed (model-prices-2026-11.ts), applied by migration
 * 1764300200000. That seed marked some rows `memory`: written from memory, not read on a pricing
 * page. Each was then looked up (28 November 2026); this file says what was found, row by row.
 * Data only: never edited once merged; a later change is a new file and a new migration.
 *
 * A correction names a seeded row by its model and effective date (so by its seed id) and either
 * replaces fields of that same row, or removes it. A wrong price for a date is replaced, never
 * superseded by a later row: calls before the fix were charged the true price as well.
 *
 * `read` is the evidence: the page (or the dated copy of it) and what it said. Where only copies
 * of a provider's page made by others could be found, the row says so (`secondary`).
 */
import { MODEL_PRICES_2026_11, type SeedRow } from "./model-prices-2026-11.js";

type Change = Partial<Pick<SeedRow, "input_price" | "output_price" | "input_detail_prices" | "output_detail_prices" | "tiers" | "source_url" | "as_of">>;

export interface PriceCorrection {
  model_name: string;
  effective_from: string;
  /** The fields that change, or "remove" for a row no page could confirm. */
  change: Change | "remove";
  read: string;
}

const EPOCH = "1970-01-01T00:00:00.000Z";
const GEMINI_URL = "https://ai.google.dev/gemini-api/docs/pricing";
const XAI_URL = "https://docs.x.ai/docs/models";

export const MODEL_PRICE_CORRECTIONS_2026_11: PriceCorrection[] = [
  // OpenAI audio models: the model pages list text and audio rates separately.
  {
    model_name: "gpt-audio",
    effective_from: EPOCH,
    change: { source_url: "https://developers.openai.com/api/docs/models/gpt-audio", as_of: "2026-11-28" },
    read: "Text input $2.5, output $10; audio input $32, output $64 per 1M tokens; no cached-input rate. As seeded.",
  },
  {
    model_name: "gpt-realtime",
    effective_from: EPOCH,
    change: { source_url: "https://developers.openai.com/api/docs/models/gpt-realtime-1.5", as_of: "2026-11-28" },
    read:
      "secondary: the gpt-realtime page itself was not found. Its successors gpt-realtime-1.5 and gpt-realtime-2 list text $4 in, " +
      "$0.4 cached, audio $32 in, $0.4 cached, $64 out (1.5: text $16 out); a copy of the pricing page dated 2025-10-17 gives " +
      "gpt-realtime $4 input, $32 audio input, $0.40 cached. As seeded (one cache_read rate: text and audio cache reads cost the same).",
  },

  // Google Flash models.
  {
    model_name: "gemini-3-flash",
    effective_from: EPOCH,
    change: { source_url: GEMINI_URL, as_of: "2026-07-04" },
    read:
      "A copy of the pricing page read 2026-07-04 quotes: input $0.50 (text / image / video), $1.00 (audio); output " +
      "(including thinking tokens) $3.00; context caching $0.05 (text / image / video). As seeded; the audio cache-read rate " +
      "is not quoted, so cached audio bills at the text cache rate.",
  },
  {
    model_name: "gemini-3.1-flash-lite",
    effective_from: EPOCH,
    change: { source_url: GEMINI_URL, as_of: "2026-03-22" },
    read:
      "secondary: model catalogues copying Google's page (modelpedia, updated 2026-03-22; cloudprice) list $0.25 in, $0.025 " +
      "cached, $1.50 out. As seeded. No audio rate was found: audio input bills at the text rate.",
  },
  {
    model_name: "gemini-3.5-flash",
    effective_from: EPOCH,
    change: { source_url: GEMINI_URL, as_of: "2026-10-07" },
    read:
      "Transcriptions of the pricing page made 2026-09-20 and 2026-10-07 quote input $1.50, output $9.00 (one input rate, no " +
      "per-modality split); the $0.15 cache-read rate is from a developer guide of May 2026, not the page. As seeded.",
  },

  // xAI. Grok 4's higher rates apply past 128k tokens (OpenRouter: 'once the total tokens in a given request is greater
  // than 128k'); the tier reads input tokens, which is where a request's size is.
  {
    model_name: "grok-4",
    effective_from: EPOCH,
    change: { source_url: XAI_URL, as_of: "2026-11-28" },
    read:
      "secondary: a reseller's copy of xAI's rates lists input 128K $3.00, >128K $6.00; output 128K $15.00, >128K $30.00; " +
      "OpenRouter's page says pricing increases past 128k tokens. The cached rate past 128k is not given anywhere: kept at $0.75.",
  },
  {
    model_name: "grok-4-fast",
    effective_from: EPOCH,
    change: { tiers: [], source_url: XAI_URL, as_of: "2025-10-21" },
    read:
      "$0.20 in, $0.05 cached, $0.50 out confirmed (xAI model data copied in an MCP server's catalogue; an archive of " +
      "docs.x.ai of 2025-10-21). No page showed a >128k rate for Grok 4 Fast: the seeded long-context tier (2x) is removed.",
  },

  // Groq: groq.com/pricing itself was not in the searchable corpus; these match copies of it.
  ...["gpt-oss-20b (Groq)", "llama-3.3-70b (Groq)", "llama-3.1-8b (Groq)", "qwen3-32b (Groq)"].map(
    (model_name): PriceCorrection => ({
      model_name,
      effective_from: EPOCH,
      change: {},
      read:
        "secondary: the aicost crate's Groq table (gpt-oss-20b $0.075/$0.30, cached $0.037; llama-3.3-70b-versatile $0.59/$0.79; " +
        "llama-3.1-8b-instant $0.05/$0.08; qwen/qwen3-32b $0.29/$0.59), and a Groq cost guide citing groq.com/pricing for " +
        "the two Llama models. As seeded.",
    }),
  ),
  {
    model_name: "kimi-k2 (Groq)",
    effective_from: EPOCH,
    change: "remove",
    read: "No page or copy listing Kimi K2 on Groq with a price was found.",
  },

  // Together and Fireworks: no copy of either price list with these models was found, and the
  // guides that quote Together's Llama 3.3 70B price disagree ($0.88, $0.99, $0.80/$2.40). A run
  // of these models now has no price rather than an invented one; operators add theirs.
  ...[
    "gpt-oss-120b (Together)",
    "llama-3.3-70b (Together)",
    "deepseek-v3 (Together)",
    "qwen3-235b (Together)",
    "kimi-k2 (Together)",
    "gpt-oss-120b (Fireworks)",
    "llama-3.3-70b (Fireworks)",
    "deepseek-v3.1 (Fireworks)",
    "kimi-k2 (Fireworks)",
  ].map((model_name): PriceCorrection => ({ model_name, effective_from: EPOCH, change: "remove", read: "Not found on the host's pricing page or any copy of it." })),
];

/** The seeded row a correction is about; throws when the name or date matches no seeded row (a typo here). */
export function seededRowOf(correction: Pick<PriceCorrection, "model_name" | "effective_from">): SeedRow {
  const row = MODEL_PRICES_2026_11.prices.find(
    (price) => price.model_name === correction.model_name && new Date(price.effective_from).getTime() === new Date(correction.effective_from).getTime(),
  );
  if (!row) throw new Error(`price correction names no seeded row: ${correction.model_name} from ${correction.effective_from}`);
  return row;
}
