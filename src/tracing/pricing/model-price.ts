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
  effectiveFrom: Date;
}
