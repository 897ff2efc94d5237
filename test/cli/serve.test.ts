import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { createTestDatabase } from "../helpers/test-database.js";
import { CLI_CWD, cliArgs } from "../helpers/cli-process.js";


/** Runs the real CLI entry (built, as `npm start` runs it) and collects output. */
function runCli(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, cliArgs(args), {
      cwd: CLI_CWD,
      env: { ...process.env, LOG_LEVEL: "error", ...env },
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("close", (code) => resolve({ code, output }));
  });
}

describe("hangar CLI", () => {
  it("stops start-up when a graph is missing, naming the graph and the cause", async () => {
    const { code, output } = await runCli(["serve", "--config", "test/fixtures/broken/langgraph.json", "--port", "0"], {
      // Graphs load before the database is touched; this server does not exist.
      DATABASE_URL: "postgres://nobody@127.0.0.1:1/none",
    });
    expect(code).toBe(1);
    expect(output).toMatch(/ghost/);
    expect(output).toMatch(/does-not-exist/);
  });

  it("prints help and rejects unknown commands", async () => {
    const help = (await runCli(["--help"])).output;
    expect(help).toMatch(/hangar serve/);
    expect(help).toMatch(/--no-cron/);
    const unknown = await runCli(["launch"]);
    expect(unknown.code).toBe(1);
    expect(unknown.output).toMatch(/Unknown command 'launch'/);
  });

  it("serves until SIGTERM, then shuts down cleanly", async () => {
    const database = await createTestDatabase();
    const child = spawn(
      process.execPath,
      cliArgs(["serve", "--config", "test/fixtures/langgraph.json", "--port", "0"]),
      { cwd: CLI_CWD, env: { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: "info" } },
    );
    let output = "";
    const listening = new Promise<string>((resolve, reject) => {
      child.stdout.on("data", (chunk) => {
        output += chunk;
        const match = output.match(/"url":"(http:[^"]+)"/);
        if (match) resolve(match[1]);
      });
      child.on("exit", () => reject(new Error(`exited early: ${output}`)));
    });
    const url = await listening;
    expect((await fetch(`${url}/ok`)).status).toBe(200);
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(output).toMatch(/shutting down/);
    await database.retire();
  }, 60_000);
});
