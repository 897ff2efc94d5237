import type { ModelPriceRecord } from "../../../domain/model-price.js";
import { modelPricesService } from "../../../services/model-prices.service.js";
import type { PriceTier } from "../../../tracing/pricing/model-price.js";
import { builder } from "../../builder.js";
import { resolveListPage } from "../../pagination.js";

export const ModelPriceRef = builder.objectRef<ModelPriceRecord>("ModelPrice");
const PriceTierRef = builder.objectRef<PriceTier>("PriceTier");
const TierConditionRef = builder.objectRef<PriceTier["condition"]>("PriceTierCondition");

export const PRICE = "USD per 1M tokens, as a decimal string (exact).";
export const DETAIL_PRICES = "Token kind (cache_read, cache_creation, reasoning, audio …) to USD per 1M tokens, decimal strings.";

TierConditionRef.implement({
  description: "When a tier applies: every part given must hold.",
  fields: (t) => ({
    inputTokensAbove: t.exposeInt("inputTokensAbove", {
      nullable: true,
      description: "The call's input tokens (cached ones included) exceed this.",
    }),
    serviceTier: t.exposeString("serviceTier", {
      nullable: true,
      description: "The provider reported (or the call requested) this service tier: flex, priority, batch …",
    }),
  }),
});

PriceTierRef.implement({
  description:
    "Prices replacing the row's own for calls meeting the condition. The most specific tier met wins (one " +
    "implying every other met one); a tier's detail prices replace the row's, kinds it omits are billed at its base rate.",
  fields: (t) => ({
    name: t.exposeString("name"),
    condition: t.expose("condition", { type: TierConditionRef }),
    inputPrice: t.exposeString("inputPrice", { description: PRICE }),
    outputPrice: t.exposeString("outputPrice", { description: PRICE }),
    inputDetailPrices: t.expose("inputDetailPrices", { type: "JSONObject", description: DETAIL_PRICES }),
    outputDetailPrices: t.expose("outputDetailPrices", { type: "JSONObject", description: DETAIL_PRICES }),
  }),
});

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
    tiers: t.expose("tiers", { type: [PriceTierRef], description: "Conditional prices (long context, service tiers)." }),
    effectiveFrom: t.expose("effectiveFrom", { type: "DateTime" }),
    sourceUrl: t.exposeString("sourceUrl", { nullable: true, description: "The provider's page the price was read from." }),
    asOf: t.exposeString("asOf", { nullable: true, description: "The day it was read there (YYYY-MM-DD)." }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
  }),
});

builder.queryFields((t) => ({
  modelPrices: t.connection(
    {
      type: ModelPriceRef,
      description: "The price table (hundreds of rows at most), by model name then effective date.",
      resolve: async (_root, args, ctx) => resolveListPage(args, await modelPricesService.list(ctx.services)),
    },
    { name: "ModelPriceConnection" },
    { name: "ModelPriceEdge" },
  ),
}));
