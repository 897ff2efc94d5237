import { InvalidInputError } from "../../domain/errors.js";
import type { ModelPriceRecord, UpdateModelPriceInput } from "../../domain/model-price.js";
import { modelPricesService } from "../../services/model-prices.service.js";
import { builder } from "../builder.js";
import { omitNull } from "../input-values.js";
import { resolveListPage } from "../pagination.js";

export const ModelPriceRef = builder.objectRef<ModelPriceRecord>("ModelPrice");

const PRICE = "USD per 1M tokens, as a decimal string (exact).";
const DETAIL_PRICES = "Token kind (cache_read, cache_creation, reasoning, audio …) to USD per 1M tokens, decimal strings.";

builder.node(ModelPriceRef, {
  description:
    "A row of the model price table: runs whose model name matches matchPattern (and provider, when set) are " +
    "priced with it from effectiveFrom on. Detail-kind tokens are priced at their own rate, the rest at the base rate.",
  id: { resolve: (price) => price.id },
  // The table is small and cached per process: no DataLoader needed.
  loadWithoutCache: async (id, ctx) =>
    (await modelPricesService.currentPrices(ctx.services)).find((price) => price.id === id.toLowerCase()) ?? null,
  fields: (t) => ({
    modelPriceId: t.exposeID("id", { description: "The raw UUID." }),
    modelName: t.exposeString("modelName", { description: "A display name." }),
    matchPattern: t.exposeString("matchPattern", {
      description: "A regular expression matched against the whole model name, case-insensitively.",
    }),
    provider: t.exposeString("provider", { nullable: true, description: "Only runs of this ls_provider; null: any." }),
    inputPrice: t.exposeString("inputPrice", { description: PRICE }),
    outputPrice: t.exposeString("outputPrice", { description: PRICE }),
    inputDetailPrices: t.expose("inputDetailPrices", { type: "JSONObject", description: DETAIL_PRICES }),
    outputDetailPrices: t.expose("outputDetailPrices", { type: "JSONObject", description: DETAIL_PRICES }),
    effectiveFrom: t.expose("effectiveFrom", { type: "DateTime" }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
  }),
});

builder.queryFields((t) => ({
  modelPrices: t.connection(
    {
      type: ModelPriceRef,
      description: "The price table (tens of rows), by model name then effective date.",
      resolve: async (_root, args, ctx) => resolveListPage(args, await modelPricesService.list(ctx.services)),
    },
    { name: "ModelPriceConnection" },
    { name: "ModelPriceEdge" },
  ),
}));

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
      effectiveFrom: t.field({ type: "DateTime", description: "Default: always (the epoch)." }),
    }),
  },
  {
    description: "Adds a price. New runs are priced with it at once; stored runs only when repriceTraceRuns covers them.",
    resolve: async (_root, { input }, ctx) => ({
      modelPrice: await modelPricesService.create(ctx.services, {
        modelName: input.modelName,
        matchPattern: requirePattern(input.matchPattern, "matchPattern"),
        provider: input.provider,
        inputPrice: input.inputPrice,
        outputPrice: input.outputPrice,
        inputDetailPrices: omitNull(input.inputDetailPrices) as DetailPrices | undefined,
        outputDetailPrices: omitNull(input.outputDetailPrices) as DetailPrices | undefined,
        effectiveFrom: omitNull(input.effectiveFrom),
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
      effectiveFrom: t.field({ type: "DateTime" }),
    }),
  },
  {
    description: "Changes the given fields. Stored runs keep their costs until repriceTraceRuns covers them.",
    resolve: async (_root, { input }, ctx) => {
      const changes: UpdateModelPriceInput = {
        modelName: omitNull(input.modelName),
        matchPattern: omitNull(requirePattern(input.matchPattern, "matchPattern")),
        provider: omitNull(input.provider),
        inputPrice: omitNull(input.inputPrice),
        outputPrice: omitNull(input.outputPrice),
        inputDetailPrices: omitNull(input.inputDetailPrices) as DetailPrices | undefined,
        outputDetailPrices: omitNull(input.outputDetailPrices) as DetailPrices | undefined,
        effectiveFrom: omitNull(input.effectiveFrom),
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
    description: "Removes a price. Runs it priced keep their costs until repriceTraceRuns covers them.",
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
  "repriceTraceRuns",
  {
    inputFields: (t) => ({
      from: t.field({ type: "DateTime", required: true, description: "Runs that started at or after this…" }),
      to: t.field({ type: "DateTime", required: true, description: "…and before this." }),
      modelPattern: t.string({ description: "A regular expression: only runs whose model name matches it." }),
    }),
  },
  {
    description:
      "Recomputes the costs of stored runs from their token counts and the current price table. Runs that " +
      "reported their own costs keep them.",
    resolve: async (_root, { input }, ctx) =>
      modelPricesService.repriceRange(ctx.services, {
        from: input.from,
        to: input.to,
        modelPattern: omitNull(requirePattern(input.modelPattern, "modelPattern")),
      }),
  },
  { outputFields: (t) => ({ repricedRuns: t.exposeInt("repricedRuns", { description: "How many runs were repriced." }) }) },
);
