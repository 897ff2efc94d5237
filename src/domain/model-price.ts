import type { ModelPrice } from "../tracing/pricing/model-price.js";
import type { RunTimeInput } from "./trace-run.js";

/** A price row: the pricing module's ModelPrice plus its display name, provenance and bookkeeping. */
export interface ModelPriceRecord extends ModelPrice {
  modelName: string;
  /** The provider's page the price was read from. */
  sourceUrl: string | null;
  /** The day it was read there (YYYY-MM-DD). */
  asOf: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A tier as given: prices as decimal strings or numbers (validated into a PriceTier). */
export interface PriceTierInput {
  name: string;
  condition: { inputTokensAbove?: number | null; serviceTier?: string | null };
  inputPrice: string | number;
  outputPrice: string | number;
  inputDetailPrices?: Record<string, string | number>;
  outputDetailPrices?: Record<string, string | number>;
}

/** Prices are USD per 1M tokens; numbers are accepted but decimal strings are exact. */
export interface CreateModelPriceInput {
  modelName: string;
  matchPattern: string;
  provider?: string | null;
  inputPrice: string | number;
  outputPrice: string | number;
  inputDetailPrices?: Record<string, string | number>;
  outputDetailPrices?: Record<string, string | number>;
  tiers?: PriceTierInput[];
  /** Defaults to the epoch: the price applies at any time (old runs still change only when repriced). */
  effectiveFrom?: Date | string;
  sourceUrl?: string | null;
  asOf?: string | null;
}

export type UpdateModelPriceInput = Partial<CreateModelPriceInput>;

export interface RepriceRangeInput {
  from: RunTimeInput;
  to: RunTimeInput;
  /** Only runs of this model name (case-insensitive). */
  model?: string;
  /** A regular expression; only runs whose model name matches are repriced. */
  modelPattern?: string;
  /** Compute and count, then roll back: what the console shows before asking to confirm. */
  dryRun?: boolean;
}

export interface RepriceOutcome {
  /** LLM runs in the range whose costs were recomputed. */
  repricedRuns: number;
  /** Of those, the runs whose cost or price row/tier changed. */
  changedRuns: number;
  /** New total cost minus old, over the repriced runs (USD, exact decimal string). */
  costDelta: string;
  dryRun: boolean;
}
