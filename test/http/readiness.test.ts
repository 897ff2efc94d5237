import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { CuttableProxy } from "../helpers/cuttable-proxy.js";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";
import { CONDITION_TIMEOUT_MS } from "../helpers/condition-timeout.js";

/**
 * Liveness and readiness with real dependencies behind TCP proxies that the test cuts: /ok never
 * touches a dependency, /ok?check_db=1 and /ready answer 503 naming what is down, and 200 again
 * once it is back, without a restart.
 */
const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
let database: TestDatabase;
let postgresProxy: CuttableProxy;
let redisProxy: CuttableProxy;
let server: TestServer;

beforeAll(async () => {
  database = await createTestDatabase();
  const target = new URL(database.url);
  postgresProxy = new CuttableProxy({ host: target.hostname, port: Number(target.port || 5432) });
  await postgresProxy.listen();
  const redis = new URL(REDIS_URL);
  redisProxy = new CuttableProxy({ host: redis.hostname, port: Number(redis.port || 6379) });
  await redisProxy.listen();
  server = await startTestServer({
    apiKeys: ["ready-key"],
    database: { ...database, url: postgresProxy.proxiedUrl(database.url) },
    env: { REDIS_URL: redisProxy.proxiedUrl(REDIS_URL) },
  });
});
afterAll(async () => {
  await postgresProxy?.restore();
  await redisProxy?.restore();
  await server?.close();
  await postgresProxy?.close();
  await redisProxy?.close();
  await database?.retire();
});

const waitUntil = (check: () => Promise<void>, timeout = CONDITION_TIMEOUT_MS) => vi.waitFor(check, { timeout, interval: 100 });

interface ReadinessBody {
  ok: boolean;
  checks: Record<string, { ok: boolean; error?: string; latency_ms?: number; last_claim_loop_at?: string | null }>;
}

async function get(pathname: string): Promise<{ status: number; body: ReadinessBody }> {
  // No API key: orchestrators' probes carry none.
  const response = await fetch(`${server.url}${pathname}`);
  return { status: response.status, body: (await response.json()) as ReadinessBody };
}

describe("health checks", () => {
  it("reports every dependency when all are up", async () => {
    await waitUntil(async () => expect((await get("/ready")).status).toBe(200));
    const { body } = await get("/ready");
    expect(body.ok).toBe(true);
    expect(Object.keys(body.checks).sort()).toEqual(["postgres", "redis", "worker"]);
    expect(body.checks.worker!.last_claim_loop_at).toEqual(expect.any(String));
    const withDb = await get("/ok?check_db=1");
    expect(withDb).toMatchObject({ status: 200, body: { ok: true, checks: { postgres: { ok: true } } } });
    expect(Object.keys(withDb.body.checks)).toEqual(["postgres"]);
  });

  for (const mode of ["reset", "refuse"] as const) {
    it(`PostgreSQL cut (${mode}): /ready and /ok?check_db=1 answer 503, /ok stays 200; 200 again once restored`, async () => {
      await postgresProxy.cut(mode);
      try {
        const ready = await get("/ready");
        expect(ready.status).toBe(503);
        expect(ready.body.ok).toBe(false);
        expect(ready.body.checks.postgres).toMatchObject({ ok: false, error: expect.any(String) });
        expect(ready.body.checks.redis!.ok).toBe(true);
        expect((await get("/ok?check_db=1")).status).toBe(503);
        expect(await get("/ok")).toEqual({ status: 200, body: { ok: true } });
      } finally {
        await postgresProxy.restore();
      }
      await waitUntil(async () => expect((await get("/ready")).status).toBe(200));
      expect((await get("/ok?check_db=1")).status).toBe(200);
    });
  }

  it("Redis cut: /ready answers 503 naming redis; 200 again once restored", async () => {
    await redisProxy.cut("refuse");
    try {
      const ready = await get("/ready");
      expect(ready.status).toBe(503);
      expect(ready.body.checks.redis).toMatchObject({ ok: false, error: expect.any(String) });
      expect(ready.body.checks.postgres!.ok).toBe(true);
      // check_db asks only the database.
      expect((await get("/ok?check_db=1")).status).toBe(200);
    } finally {
      await redisProxy.restore();
    }
    await waitUntil(async () => expect((await get("/ready")).status).toBe(200));
  });
});
