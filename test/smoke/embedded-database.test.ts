import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, describe, expect, it, vi } from "vitest";
import { loadConfig } from "../../src/config.js";
import { createLogger } from "../../src/logger.js";
import { startHangar, type RunningHangar } from "../../src/main.js";
import { FIXTURE_DEPLOYMENT } from "../helpers/test-server.js";

// The zero-setup path: no DATABASE_URL → embedded PGlite in HANGAR_DATA_DIR.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "hangar-embedded-"));
const config = loadConfig(
  { HANGAR_DATA_DIR: dataDir, PORT: "0", LOG_LEVEL: "silent" },
  { configPath: FIXTURE_DEPLOYMENT },
);
const log = createLogger("silent");
const running: RunningHangar[] = [];

async function start(): Promise<{ hangar: RunningHangar; client: Client }> {
  const hangar = await startHangar(config, log);
  running.push(hangar);
  return { hangar, client: new Client({ apiUrl: hangar.url, callerOptions: { maxRetries: 0 } }) };
}

afterAll(async () => {
  for (const hangar of running) await hangar.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("embedded database", () => {
  let assistantId = "";
  let threadId = "";

  // The first start creates the embedded database and runs every migration (about 9 s on an idle
  // 2-core machine, several times that on a busy one).
  it("serves assistants and threads with no DATABASE_URL", { timeout: 120_000 }, async () => {
    const { hangar, client } = await start();
    expect(hangar.runtime.db.kind).toBe("embedded");
    const system = await client.assistants.search({ metadata: { created_by: "system" } });
    expect(system.map((assistant) => assistant.graph_id).sort()).toEqual(["agent", "echo", "failing", "interrupting", "slow"]);

    const created = await client.assistants.create({ graphId: "agent", context: { a: 1 }, metadata: { x: 1 } });
    const updated = await client.assistants.update(created.assistant_id, { context: { a: 2 } });
    expect(updated.version).toBe(2);
    expect(updated.metadata).toEqual({});
    assistantId = created.assistant_id;

    const thread = await client.threads.create({ metadata: { assistant_id: assistantId } });
    expect(thread).toMatchObject({ status: "idle", values: null, config: {} });
    threadId = thread.thread_id;
    const copy = await client.threads.copy(threadId);
    expect(await client.threads.count({ metadata: { assistant_id: assistantId } })).toBe(2);
    expect(copy.thread_id).not.toBe(threadId);
  });

  it("executes, streams and traces runs on the single embedded connection", async () => {
    const hangar = running[0]!;
    const client = new Client({ apiUrl: hangar.url, callerOptions: { maxRetries: 0 } });
    const thread = await client.threads.create();
    const parts = [];
    for await (const part of client.runs.stream(thread.thread_id, "agent", {
      input: { messages: [{ role: "user", content: "embedded" }] },
      streamMode: ["updates", "messages-tuple"],
    })) {
      parts.push(part.event);
    }
    expect(parts[0]).toBe("metadata");
    expect(parts).toContain("updates");
    expect(parts).toContain("messages");
    const first = await client.runs.create(thread.thread_id, "slow", { input: { messages: [] }, context: { step_ms: 50 } });
    const second = await client.runs.create(thread.thread_id, "slow", {
      input: { messages: [] },
      context: { step_ms: 1 },
      multitaskStrategy: "interrupt",
    });
    await client.runs.join(thread.thread_id, second.run_id);
    expect((await client.runs.get(thread.thread_id, first.run_id)).status).toBe("interrupted");
    const state = await client.threads.getState(thread.thread_id);
    expect((state.values as { messages: unknown[] }).messages.length).toBeGreaterThan(2);
    const traced = await fetch(`${hangar.url}/tracing/runs/${second.run_id}`);
    expect(traced.status).toBe(200);
  });

  it("fires crons on the single connection", async () => {
    const hangar = running[0]!;
    await hangar.scheduler!.ready;
    const client = new Client({ apiUrl: hangar.url, callerOptions: { maxRetries: 0 } });
    const cron = await client.crons.create("echo", {
      schedule: "0 0 1 1 *",
      input: { messages: [{ role: "user", content: "embedded cron" }] },
      onRunCompleted: "keep",
    });
    // Its slot comes now (SQL on the one connection, as time passing would); a change through the
    // API then reaches the scheduler in-process, as no NOTIFY crosses PGlite's single session.
    await hangar.runtime.db.dataSource.query("UPDATE crons SET next_run_date = now() - interval '1 second' WHERE cron_id = $1", [cron.cron_id]);
    await client.crons.update(cron.cron_id, { metadata: { poked: true } });
    await vi.waitFor(
      async () => {
        const [thread] = await client.threads.search({ metadata: { cron_id: cron.cron_id } });
        expect(thread?.status).toBe("idle");
        expect(thread?.values).toEqual({
          messages: [{ role: "user", content: "embedded cron" }, { role: "assistant", content: "echo: embedded cron" }],
        });
      },
      { timeout: 15_000, interval: 100 },
    );
    const [row] = await hangar.runtime.db.dataSource.query("SELECT next_run_date > now() AS later FROM crons WHERE cron_id = $1", [cron.cron_id]);
    expect(row.later).toBe(true);
    // The firing record follows its run through the runs triggers on PGlite too.
    await vi.waitFor(
      async () => {
        const [found] = (await client.crons.search({ limit: 1 })) as Array<{ cron_id: string; last_firing?: { status: string; ended_at: string | null } | null }>;
        expect(found).toMatchObject({ cron_id: cron.cron_id, last_firing: { status: "success", ended_at: expect.any(String) } });
      },
      { timeout: 15_000, interval: 100 },
    );
  });

  it("refuses a second process on the same data directory, naming the holder", async () => {
    // The lock is per process; simulate another live process by writing its pid (our parent).
    const lockPath = path.join(dataDir, "hangar.lock");
    const ours = fs.readFileSync(lockPath, "utf8");
    fs.writeFileSync(lockPath, String(process.ppid));
    try {
      await expect(startHangar(config, log)).rejects.toThrow(/in use by another Hangar process \(pid \d+\)/);
    } finally {
      fs.writeFileSync(lockPath, ours);
    }
  });

  it("keeps data across a restart", async () => {
    await running.pop()!.close();
    expect(fs.existsSync(path.join(dataDir, "hangar.lock"))).toBe(false);
    const { client } = await start();
    const assistant = await client.assistants.get(assistantId);
    expect(assistant.version).toBe(2);
    expect(assistant.context).toEqual({ a: 2 });
    expect((await client.threads.get(threadId)).metadata).toEqual({ assistant_id: assistantId });
  });
});
