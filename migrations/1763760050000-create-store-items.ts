import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * The Store (LangGraph's long-term memory) on tables Hangar owns, read and written by graphs
 * (db/hangar-store.ts, LangGraph's public BaseStore contract) and by the API alike.
 *
 * - `namespace` is the label array itself (labels may not contain dots, but arrays keep prefix
 *   and suffix matching exact without escaping).
 * - `ttl_minutes` is kept so a read can push `expires_at` forward by the item's own TTL.
 * - `store_vectors` holds one embedding per indexed field as a float array, scanned exactly;
 *   when the database has pgvector, start-up adds a `vector` column with an HNSW index beside it.
 *
 * Rows written by the PostgresStore that earlier versions handed to graphs (table `store`,
 * dot-joined `namespace_path`) are copied over; that table is left as it was.
 */
export class CreateStoreItems1763760050000 implements MigrationInterface {
  name = "CreateStoreItems1763760050000";

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE store_items (
        namespace text[] NOT NULL CHECK (cardinality(namespace) > 0),
        key text NOT NULL,
        value jsonb NOT NULL CHECK (jsonb_typeof(value) = 'object'),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        ttl_minutes double precision CHECK (ttl_minutes > 0),
        expires_at timestamptz,
        PRIMARY KEY (namespace, key)
      )`);
    await queryRunner.query(`CREATE INDEX store_items_expires_idx ON store_items (expires_at) WHERE expires_at IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX store_items_value_idx ON store_items USING gin (value jsonb_path_ops)`);
    await queryRunner.query(`
      CREATE TABLE store_vectors (
        namespace text[] NOT NULL,
        key text NOT NULL,
        field_path text NOT NULL,
        embedding real[] NOT NULL,
        PRIMARY KEY (namespace, key, field_path),
        FOREIGN KEY (namespace, key) REFERENCES store_items (namespace, key) ON DELETE CASCADE
      )`);
    await queryRunner.query(`
      DO $$
      BEGIN
        IF to_regclass('store') IS NOT NULL THEN
          INSERT INTO store_items (namespace, key, value, created_at, updated_at, expires_at)
          SELECT string_to_array(namespace_path, '.'), key, value,
                 coalesce(created_at, now()), coalesce(updated_at, now()), expires_at
          FROM store
          WHERE namespace_path <> '' AND jsonb_typeof(value) = 'object'
          ON CONFLICT DO NOTHING;
        END IF;
      END $$`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE store_vectors`);
    await queryRunner.query(`DROP TABLE store_items`);
  }
}
