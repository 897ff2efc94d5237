import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { createLogger } from "../../src/logger.js";
import { startHangar, type RunningHangar } from "../../src/main.js";
import { checkSemanticRanking } from "../helpers/semantic-store.js";

// The zero-setup path with the Store: embedded PGlite, its bundled pgvector, HNSW.
const STORE_DEPLOYMENT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/store.langgraph.json");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "hangar-embedded-store-"));
let hangar: RunningHangar;
let client: Client;

beforeAll(async () => {
  const config = loadConfig({ HANGAR_DATA_DIR: dataDir, PORT: "0", LOG_LEVEL: "silent" }, { configPath: STORE_DEPLOYMENT });
  hangar = await startHangar(config, createLogger("silent"));
  client = new Client({ apiUrl: hangar.url, callerOptions: { maxRetries: 0 } });
  // The first start creates the embedded database (initdb) and runs every migration: about 9 s on
  // an idle 2-core machine, over 60 s measured at a load average of 25.
}, 180_000);

afterAll(async () => {
  await hangar?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("the Store on the embedded database", () => {
  it("semantic search goes through pgvector's HNSW index and ranks like the exact scan", async () => {
    expect(hangar.runtime.db.kind).toBe("embedded");
    const { rows } = await hangar.runtime.db.pool.query(
      "SELECT indexdef FROM pg_indexes WHERE indexname = 'store_vectors_embedding_hnsw_idx'",
    );
    expect(rows[0]?.indexdef).toMatch(/USING hnsw \(embedding_vector vector_cosine_ops\)/);
    await checkSemanticRanking(client, "embedded");
    const { rows: vectors } = await hangar.runtime.db.pool.query(
      "SELECT count(*)::int AS missing FROM store_vectors WHERE embedding_vector IS NULL",
    );
    expect(vectors[0].missing).toBe(0);
  });

  it("graphs and the API share one store on the single embedded connection", async () => {
    const thread = await client.threads.create();
    await client.runs.wait(thread.thread_id, "memory", {
      input: { remember: { namespace: ["embedded", "g"], key: "k", value: { text: "from the graph" } } },
    });
    expect(await client.store.getItem(["embedded", "g"], "k")).toMatchObject({ value: { text: "from the graph" } });
    const { items } = await client.store.searchItems(["embedded", "g"], { query: "graph" });
    expect(items.map((item) => item.key)).toEqual(["k"]);
    expect((await client.store.listNamespaces({ prefix: ["embedded"], maxDepth: 2 })).namespaces).toContainEqual(["embedded", "g"]);
    await client.store.deleteItem(["embedded", "g"], "k");
    expect(await client.store.getItem(["embedded", "g"], "k")).toBeNull();
  });
});
