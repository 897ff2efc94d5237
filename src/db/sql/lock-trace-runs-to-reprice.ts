import type { EntityManager } from "typeorm";

export interface RepriceCandidate {
  id: string;
  startTime: string;
  modelName: string | null;
  provider: string | null;
  promptTokens: number | null;
  completionTokens: number | null;
  totalTokens: number | null;
  promptTokenDetails: Record<string, number> | null;
  completionTokenDetails: Record<string, number> | null;
}

/**
 * The next chunk of runs in [from, to) whose costs come from token counts (explicit costs are
 * never repriced), after the keyset position, row-locked for the caller's transaction. SKIP
 * LOCKED: a run locked right now is being ingested, and ingestion prices it with the current
 * table anyway; waiting could deadlock because ingestion locks in id order and this in time order.
 */
export async function lockTraceRunsToReprice(
  manager: EntityManager,
  range: { from: string; to: string },
  after: { startTime: string; id: string } | null,
  limit: number,
): Promise<RepriceCandidate[]> {
  const rows = await manager.query(
    `SELECT id, to_char(start_time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS start_time,
            model_name, provider, prompt_tokens, completion_tokens, total_tokens,
            prompt_token_details, completion_token_details
     FROM trace_runs
     WHERE start_time >= $1::timestamptz AND start_time < $2::timestamptz
       AND cost_source <> 'explicit'
       AND (prompt_tokens IS NOT NULL OR completion_tokens IS NOT NULL OR total_tokens IS NOT NULL)
       AND (start_time, id) > ($3::timestamptz, $4::uuid)
     ORDER BY start_time, id
     LIMIT $5
     FOR UPDATE SKIP LOCKED`,
    [range.from, range.to, after?.startTime ?? "-infinity", after?.id ?? "00000000-0000-0000-0000-000000000000", limit],
  );
  return rows.map((row: Record<string, never>) => ({
    id: row.id,
    startTime: row.start_time,
    modelName: row.model_name,
    provider: row.provider,
    promptTokens: row.prompt_tokens,
    completionTokens: row.completion_tokens,
    totalTokens: row.total_tokens,
    promptTokenDetails: row.prompt_token_details,
    completionTokenDetails: row.completion_token_details,
  }));
}
