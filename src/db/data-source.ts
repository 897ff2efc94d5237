import type pg from "pg";
import { DataSource } from "typeorm";
import { AssistantEntity } from "./entities/assistant.entity.js";
import { AssistantVersionEntity } from "./entities/assistant-version.entity.js";
import { CronEntity } from "./entities/cron.entity.js";
import { ThreadEntity } from "./entities/thread.entity.js";
import { MIGRATIONS } from "./migration-list.js";

export const ENTITIES = [AssistantEntity, AssistantVersionEntity, ThreadEntity, CronEntity];

/**
 * TypeORM on OUR pool: the driver option is given a Pool "class" whose constructor returns the
 * shared pool, so TypeORM, the LangGraph checkpointer and raw SQL all use one pool (required for
 * PGlite, where a second connection corrupts the session, and simpler for PostgreSQL).
 */
export function createDataSource(pool: pg.Pool): DataSource {
  const sharedPoolDriver = {
    Pool: function SharedPool() {
      return pool;
    },
  };
  const dataSource = new DataSource({
    type: "postgres",
    driver: sharedPoolDriver,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: "hangar_migrations",
    migrationsTransactionMode: "each",
    synchronize: false,
    logging: false,
  });
  POOLS.set(dataSource, pool);
  return dataSource;
}

/** The pool each DataSource was created on, for statements TypeORM cannot run (db/prepared-statement.ts). */
const POOLS = new WeakMap<DataSource, pg.Pool>();

export function poolOfDataSource(dataSource: DataSource): pg.Pool {
  const pool = POOLS.get(dataSource);
  if (!pool) throw new Error("This DataSource was not created by createDataSource()");
  return pool;
}
