
import { describe, expect, it } from "vitest";
import { DisableAssistantMetadataPendingList1764460000000 } from "../../migrations/1764460000000-disable-assistant-metadata-pending-list.js";
import { queryRunnerOn, useDatabaseClient } from "../helpers/database-client.js";

// The GIN index behind assistant metadata searches keeps no pending list (fastupdate off): a
// search reads only the index tree, never an unsorted list of recent writes.
const opened = useDatabaseClient();

const migration = new DisableAssistantMetadataPendingList1764460000000();
/** The migration's own statements, run on the test database's connection. */
const queryRunner = queryRunnerOn(() => opened.client);

async function insertAssistants(marker: string, count: number): Promise<void> {
  await opened.client.query(
    `INSERT INTO assistants (assistant_id, graph_id, name, metadata, version, created_at, updated_at)
     SELECT gen_random_uuid(), 'echo', 'a', jsonb_build_object('marker', $1::text, 'i', n), 1, now(), now()
     FROM generate_series(1, $2::int) AS n`,
    [marker, count],
  );
}

/** Pages the index had in its pending list (merging them: the next call answers 0). */
async function pendingPages(): Promise<number> {
  const { rows } = await opened.client.query<{ pages: number }>(`SELECT gin_clean_pending_list('assistants_metadata_idx'::regclass)::int AS pages`);
  return rows[0]!.pages;
}

/** How many assistants a metadata search finds through the GIN index (heap and btree scans off). */
async function foundThroughIndex(metadata: object): Promise<number> {
  await opened.client.query("BEGIN");
  try {
    await opened.client.query("SET LOCAL enable_seqscan = off");
    await opened.client.query("SET LOCAL enable_indexscan = off");
    const { rows } = await opened.client.query<{ count: number }>(`SELECT count(*)::int AS count FROM assistants WHERE metadata @> $1::jsonb`, [
      JSON.stringify(metadata),
    ]);
    return rows[0]!.count;
  } finally {
    await opened.client.query("COMMIT");
  }
}

describe("assistants_metadata_idx", () => {
  it("adds an assistant's metadata keys to the index tree at once: nothing waits in a pending list", async () => {
    await insertAssistants("direct", 200);
    expect(await pendingPages()).toBe(0);
    expect(await foundThroughIndex({ marker: "direct" })).toBe(200);
    expect(await foundThroughIndex({ marker: "direct", i: 7 })).toBe(1);
  });

  it("the migration merges what an earlier index kept pending, and turns the list off", async () => {
    await migration.down(queryRunner);
    await insertAssistants("pending", 200);
    await migration.up(queryRunner);
    expect(await pendingPages()).toBe(0);
    expect(await foundThroughIndex({ marker: "pending" })).toBe(200);
    await insertAssistants("after", 50);
    expect(await pendingPages()).toBe(0);
    expect(await foundThroughIndex({ marker: "after", i: 50 })).toBe(1);
  });

  it("down() brings the pending list back (writes wait in it until merged)", async () => {
    await migration.down(queryRunner);
    try {
      await insertAssistants("down", 200);
      expect(await pendingPages()).toBeGreaterThan(0);
    } finally {
      await migration.up(queryRunner);
    }
  });
});
