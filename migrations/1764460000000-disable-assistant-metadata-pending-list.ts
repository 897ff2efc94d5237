import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * The GIN index on assistants.metadata stops collecting new entries in a pending list
 * (fastupdate off): an insert or update adds its keys to the index tree at once.
 *
 * Why: with the pending list, every metadata search (`metadata @> ...`) reads the whole list,
 * unsorted, until a vacuum merges it, and the planner prices that in, so on a table of a few
 * thousand assistants it often scanned the heap instead. Measured on 3,605 assistants written by
 * the compare bench's create+patch+search mix, a search matching one assistant executed in
 * 0.29 ms (index scan reading the list) or 0.45 ms (seq scan) with the list, and in 0.064-0.074 ms
 * without (an index scan of 3 pages). An insert cost the same within noise: 0.067-0.146 ms with
 * the list, 0.087-0.099 ms without (one client, 3,000 inserts, three alternated runs each). And
 * the request whose insert overflows the list (gin_pending_list_limit, 4 MB) no longer pays for
 * merging it.
 * Entries already in the list are merged here, so searches gain at once.
 */
export class DisableAssistantMetadataPendingList1764460000000 implements MigrationInterface {
  name = "DisableAssistantMetadataPendingList1764460000000";

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER INDEX assistants_metadata_idx SET (fastupdate = off)`);
    await queryRunner.query(`SELECT gin_clean_pending_list('assistants_metadata_idx'::regclass)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER INDEX assistants_metadata_idx RESET (fastupdate)`);
  }
}
