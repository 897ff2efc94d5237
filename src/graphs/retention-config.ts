import { z } from "zod";

/**
 * langgraph.json `store` and `checkpointer` keys, as LangGraph Platform reads them: semantic
 * index and TTLs of the Store, TTLs of threads. Minutes throughout; sweeps default to hourly.
 */
const DEFAULT_SWEEP_INTERVAL_MINUTES = 60;

const Minutes = z.number().positive();

export const StoreConfigSchema = z.looseObject({
  index: z
    .strictObject({
      /** `openai:text-embedding-3-small`, or `./path.ts:export` naming an Embeddings object or an embed function. */
      embed: z.string().min(1),
      dims: z.number().int().positive(),
      fields: z.array(z.string().min(1)).min(1).optional(),
    })
    .nullish(),
  ttl: z
    .strictObject({
      default_ttl: Minutes.nullish(),
      refresh_on_read: z.boolean().optional(),
      sweep_interval_minutes: Minutes.nullish(),
    })
    .optional(),
});

export const CheckpointerConfigSchema = z.looseObject({
  ttl: z
    .strictObject({
      strategy: z.literal("delete").optional(),
      default_ttl: Minutes.nullish(),
      sweep_interval_minutes: Minutes.nullish(),
    })
    .optional(),
});

export interface StoreSettings {
  index: { embed: string; dims: number; fields: string[] } | null;
  ttl: { defaultTtlMinutes: number | null; refreshOnRead: boolean; sweepIntervalMinutes: number };
}

export interface CheckpointerSettings {
  ttl: { strategy: "delete"; defaultTtlMinutes: number | null; sweepIntervalMinutes: number };
}

export function resolveStoreSettings(store: z.infer<typeof StoreConfigSchema> | undefined): StoreSettings {
  const index = store?.index ?? null;
  return {
    index: index ? { embed: index.embed, dims: index.dims, fields: index.fields ?? ["$"] } : null,
    ttl: {
      defaultTtlMinutes: store?.ttl?.default_ttl ?? null,
      refreshOnRead: store?.ttl?.refresh_on_read ?? true,
      sweepIntervalMinutes: store?.ttl?.sweep_interval_minutes ?? DEFAULT_SWEEP_INTERVAL_MINUTES,
    },
  };
}

export function resolveCheckpointerSettings(checkpointer: z.infer<typeof CheckpointerConfigSchema> | undefined): CheckpointerSettings {
  return {
    ttl: {
      strategy: "delete",
      defaultTtlMinutes: checkpointer?.ttl?.default_ttl ?? null,
      sweepIntervalMinutes: checkpointer?.ttl?.sweep_interval_minutes ?? DEFAULT_SWEEP_INTERVAL_MINUTES,
    },
  };
}
