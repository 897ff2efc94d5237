/**
 * One row of the model price table (SPEC §6 "Costs"; STYLE rule 29: prices are data). Prices
 * are USD per 1M tokens as decimal strings, exactly as stored in `numeric` columns, so no
 * binary floating point ever touches money.
 */
export interface ModelPrice {
  id: string;
  /** A regex matched against the whole model name, case-insensitively. */
  matchPattern: string;
  /** Restricts the row to one `ls_provider`; null applies to any provider. */
  provider: string | null;
  inputPrice: string;
  outputPrice: string;
  /**
   * Per-kind rates for input/output token details (cache_read, cache_creation, audio,
   * reasoning …). Kinds without a rate are billed at the base rate.
   */
  inputDetailPrices: Record<string, string>;
  outputDetailPrices: Record<string, string>;
  /** Prices that replace the row's own when a call meets their condition (select-tier.ts). */
  tiers: PriceTier[];
  effectiveFrom: Date;
}

/**
 * A call meets a condition when every part given holds; an empty condition is refused on write
 * (it would always replace the row's prices).
 */
export interface TierCondition {
  /** The call's input tokens (cached ones included: they are part of input_tokens) exceed this. */
  inputTokensAbove: number | null;
  /** The service tier the provider reports for the call (OpenAI flex/priority, Anthropic batch), lower case. */
  serviceTier: string | null;
}

/**
 * A complete set of rates: a tier's detail prices replace the row's (a kind it leaves out is billed
 * at the tier's base rate), because a tier's discount or surcharge applies to cached tokens too.
 */
export interface PriceTier {
  name: string;
  condition: TierCondition;
  inputPrice: string;
  outputPrice: string;
  inputDetailPrices: Record<string, string>;
  outputDetailPrices: Record<string, string>;
}
