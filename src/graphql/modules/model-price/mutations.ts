import { InvalidInputError } from "../../../domain/errors.js";
import type { PriceTierInput, UpdateModelPriceInput } from "../../../domain/model-price.js";
import { modelPricesService } from "../../../services/model-prices.service.js";
import { builder } from "../../builder.js";
import { omitNull } from "../../input-values.js";
import { DETAIL_PRICES, ModelPriceRef, PRICE } from "./model-price.js";

const PriceTierInputRef = builder.inputType("PriceTierInput", {
  description: "A tier: a condition (at least one part) and the prices that replace the row's when a call meets it.",
  fields: (t) => ({
    name: t.string({ required: true }),
    inputTokensAbove: t.int({ description: "Applies when the call's input tokens (cached included) exceed this." }),
    serviceTier: t.string({ description: "Applies when the call's service tier is this (flex, priority, batch …)." }),
    inputPrice: t.string({ required: true, description: PRICE }),
    outputPrice: t.string({ required: true, description: PRICE }),
    inputDetailPrices: t.field({ type: "JSONObject", description: DETAIL_PRICES }),
    outputDetailPrices: t.field({ type: "JSONObject", description: DETAIL_PRICES }),
  }),
});

type TierInputValue = (typeof PriceTierInputRef)["$inferInput"];

function tiersOf(tiers: readonly TierInputValue[] | null | undefined): PriceTierInput[] | undefined {
  return tiers?.map((tier) => ({
    name: tier.name,
    condition: { inputTokensAbove: tier.inputTokensAbove ?? null, serviceTier: tier.serviceTier ?? null },
    inputPrice: tier.inputPrice,
    outputPrice: tier.outputPrice,
    inputDetailPrices: omitNull(tier.inputDetailPrices) as DetailPrices | undefined,
    outputDetailPrices: omitNull(tier.outputDetailPrices) as DetailPrices | undefined,
  }));
}

/** Regular expressions are checked here too, so the error names the GraphQL field. */
function requirePattern<Value extends string | null | undefined>(pattern: Value, field: string): Value {
  if (pattern == null) return pattern;
  try {
    new RegExp(pattern);
  } catch (error) {
    throw new InvalidInputError(`${field} is not a valid regular expression: ${(error as Error).message}`);
  }
  return pattern;
}

type DetailPrices = Record<string, string | number>;

builder.relayMutationField(
  "createModelPrice",
  {
    inputFields: (t) => ({
      modelName: t.string({ required: true }),
      matchPattern: t.string({ required: true, description: "A regular expression over model names." }),
      provider: t.string(),
      inputPrice: t.string({ required: true, description: PRICE }),
      outputPrice: t.string({ required: true, description: PRICE }),
      inputDetailPrices: t.field({ type: "JSONObject", description: DETAIL_PRICES }),
      outputDetailPrices: t.field({ type: "JSONObject", description: DETAIL_PRICES }),
      tiers: t.field({ type: [PriceTierInputRef], description: "Conditional prices; no two may overlap ambiguously." }),
      effectiveFrom: t.field({ type: "DateTime", description: "Default: always (the epoch)." }),
      sourceUrl: t.string({ description: "The provider's page the price was read from." }),
      asOf: t.string({ description: "The day it was read there (YYYY-MM-DD)." }),
    }),
  },
  {
    description: "Adds a price. New runs are priced with it at once; stored runs only when repriceTraces covers them.",
    resolve: async (_root, { input }, ctx) => ({
      modelPrice: await modelPricesService.create(ctx.services, {
        modelName: input.modelName,
        matchPattern: requirePattern(input.matchPattern, "matchPattern"),
        provider: input.provider,
        inputPrice: input.inputPrice,
        outputPrice: input.outputPrice,
        inputDetailPrices: omitNull(input.inputDetailPrices) as DetailPrices | undefined,
        outputDetailPrices: omitNull(input.outputDetailPrices) as DetailPrices | undefined,
        tiers: tiersOf(input.tiers),
        effectiveFrom: omitNull(input.effectiveFrom),
        sourceUrl: input.sourceUrl,
        asOf: input.asOf,
      }),
    }),
  },
  { outputFields: (t) => ({ modelPrice: t.expose("modelPrice", { type: ModelPriceRef }) }) },
);

builder.relayMutationField(
  "updateModelPrice",
  {
    inputFields: (t) => ({
      modelPriceId: t.id({ required: true }),
      modelName: t.string(),
      matchPattern: t.string(),
      provider: t.string({ description: "An empty string clears it (any provider)." }),
      inputPrice: t.string({ description: PRICE }),
      outputPrice: t.string({ description: PRICE }),
      inputDetailPrices: t.field({ type: "JSONObject", description: `Replaces them. ${DETAIL_PRICES}` }),
      outputDetailPrices: t.field({ type: "JSONObject", description: `Replaces them. ${DETAIL_PRICES}` }),
      tiers: t.field({ type: [PriceTierInputRef], description: "Replaces them; an empty list removes them." }),
      effectiveFrom: t.field({ type: "DateTime" }),
      sourceUrl: t.string(),
      asOf: t.string({ description: "YYYY-MM-DD." }),
    }),
  },
  {
    description: "Changes the given fields. Stored runs keep their costs until repriceTraces covers them.",
    resolve: async (_root, { input }, ctx) => {
      const changes: UpdateModelPriceInput = {
        modelName: omitNull(input.modelName),
        matchPattern: omitNull(requirePattern(input.matchPattern, "matchPattern")),
        provider: omitNull(input.provider),
        inputPrice: omitNull(input.inputPrice),
        outputPrice: omitNull(input.outputPrice),
        inputDetailPrices: omitNull(input.inputDetailPrices) as DetailPrices | undefined,
        outputDetailPrices: omitNull(input.outputDetailPrices) as DetailPrices | undefined,
        tiers: tiersOf(input.tiers),
        effectiveFrom: omitNull(input.effectiveFrom),
        sourceUrl: omitNull(input.sourceUrl),
        asOf: omitNull(input.asOf),
      };
      return { modelPrice: await modelPricesService.update(ctx.services, input.modelPriceId, changes) };
    },
  },
  { outputFields: (t) => ({ modelPrice: t.expose("modelPrice", { type: ModelPriceRef }) }) },
);

builder.relayMutationField(
  "deleteModelPrice",
  {
    inputFields: (t) => ({ modelPriceId: t.id({ required: true }) }),
  },
  {
    description: "Removes a price. Runs it priced keep their costs until repriceTraces covers them.",
    resolve: async (_root, { input }, ctx) => {
      await modelPricesService.delete(ctx.services, input.modelPriceId);
      return { modelPriceId: input.modelPriceId.toLowerCase() };
    },
  },
  {
    outputFields: (t) => ({
      deletedModelPriceId: t.exposeID("modelPriceId"),
      deletedId: t.globalID({
        description: "The deleted price's global id, for client caches.",
        resolve: (payload) => ({ type: ModelPriceRef, id: payload.modelPriceId }),
      }),
    }),
  },
);

builder.relayMutationField(
  "repriceTraces",
  {
    inputFields: (t) => ({
      from: t.field({ type: "DateTime", required: true, description: "Runs that started at or after this…" }),
      to: t.field({ type: "DateTime", required: true, description: "…and before this." }),
      model: t.string({ description: "Only runs of this model name (case-insensitive)." }),
      dryRun: t.boolean({ description: "Count what would change and write nothing (the console's confirmation)." }),
    }),
  },
  {
    description:
      "Recomputes, in one transaction, the costs of stored LLM runs that started in [from, to) from their token " +
      "counts, service tier and the current price table (a price change otherwise applies only to runs ingested " +
      "after it). Runs that reported their own costs keep them. Operators only.",
    resolve: async (_root, { input }, ctx) =>
      modelPricesService.repriceRange(ctx.services, {
        from: input.from,
        to: input.to,
        model: omitNull(input.model),
        dryRun: input.dryRun ?? false,
      }),
  },
  {
    outputFields: (t) => ({
      repricedRuns: t.exposeInt("repricedRuns", { description: "LLM runs in the range whose costs were recomputed." }),
      changedRuns: t.exposeInt("changedRuns", { description: "Of those, runs whose cost, price row or tier changed." }),
      costDelta: t.exposeString("costDelta", { description: "New total cost minus old over those runs, USD (exact decimal)." }),
      dryRun: t.exposeBoolean("dryRun", { description: "true: counted, nothing was written." }),
    }),
  },
);
