import type { ModelPrice } from "../tracing/pricing/model-price.js";
import type { RunTimeInput } from "./trace-run.js";

/** A price row: the pricing module's ModelPrice plus its display name and bookkeeping. */
export interface ModelPriceRecord extends ModelPrice {
  modelName: string;
  createdAt: Date;
  updatedAt: Date;
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
  /** Defaults to the epoch: the price applies at any time (old runs still change only when repriced). */
  effectiveFrom?: Date | string;
}

export type UpdateModelPriceInput = Partial<CreateModelPriceInput>;

export interface RepriceRangeInput {
  from: RunTimeInput;
  to: RunTimeInput;
  /** A regular expression; only runs whose model name matches are repriced. */
  modelPattern?: string;
}
