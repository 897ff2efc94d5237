import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { createLogger } from "../../src/logger.js";
import { startHangar } from "../../src/main.js";

// langgraph.json keys that change what is stored or sent are honoured or stop start-up; never
// ignored. Every refusal comes before the database is opened (this one cannot be reached).
const UNREACHABLE_DATABASE = "postgres://postgres@127.0.0.1:1/never";
const ECHO_GRAPH = path.resolve("test/fixtures/graphs/echo.ts");
const REFUSED_MODULES = path.resolve("test/fixtures/encryption/refused-modules.ts");
const EXAMPLE_ENCRYPTION = path.resolve("examples/encryption/encryption.ts");
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function start(deployment: Record<string, unknown>, env: Record<string, string> = {}) {
  const dir = mkdtempSync(path.join(process.cwd(), "test/.tmp-security-keys-"));
  dirs.push(dir);
  const configPath = path.join(dir, "langgraph.json");
  writeFileSync(configPath, JSON.stringify({ graphs: { echo: `${ECHO_GRAPH}:graph` }, ...deployment }));
  const config = loadConfig({ DATABASE_URL: UNREACHABLE_DATABASE, PORT: "0", HANGAR_SCHEMAS_FROM_TYPES: "false", ...env }, { configPath });
  return startHangar(config, createLogger("silent"));
}

describe("start-up with langgraph.json security keys", () => {
  it("refuses an encryption module that does not load, or could not read back what it writes", async () => {
    await expect(start({ encryption: { path: "./encryption.ts:encryption" } })).rejects.toThrow(/Cannot load encryption\.path "\.\/encryption\.ts:encryption"/);
    await expect(start({ encryption: { path: `${REFUSED_MODULES}:withoutJsonDecrypt` } })).rejects.toThrow(
      /must have both encrypt\.json and decrypt\.json as functions/,
    );
    await expect(start({ encryption: { path: `${REFUSED_MODULES}:withContextOnly` } })).rejects.toThrow(/must have encrypt\.blob and decrypt\.blob .*and\/or encrypt\.json/);
    await expect(start({ encryption: { path: `${REFUSED_MODULES}:withoutDecrypt` } })).rejects.toThrow(/must have both encrypt\.blob and decrypt\.blob as functions/);
    await expect(start({ encryption: { path: `${REFUSED_MODULES}:withoutDecrypt`, keys: "all" } })).rejects.toThrow(/encryption: .*keys/);
  });

  it("refuses the example encryption module without its key: nothing is ever written in clear", async () => {
    delete process.env.ENCRYPTION_KEY;
    await expect(start({ encryption: { path: `${EXAMPLE_ENCRYPTION}:encryption` } })).rejects.toThrow(/ENCRYPTION_KEY must be 32 bytes/);
  });

  it("refuses webhooks keys it does not know, and header templates outside env_prefix or unset", async () => {
    await expect(start({ webhooks: { url: { allow_private: true } } })).rejects.toThrow(/webhooks\.url.*allow_private/);
    await expect(start({ webhooks: { headers: { Authorization: "Bearer ${{ env.DATABASE_URL }}" } } })).rejects.toThrow(
      /webhooks\.headers\.Authorization: .*env_prefix "LG_WEBHOOK_"/,
    );
    await expect(start({ webhooks: { headers: { "X-Token": "${{ env.LG_WEBHOOK_UNSET_IN_TESTS }}" } } })).rejects.toThrow(
      /LG_WEBHOOK_UNSET_IN_TESTS is not set/,
    );
  });

  it("refuses a webhook secret or allowed network it cannot use, without echoing the secret", () => {
    expect(() => loadConfig({ HANGAR_WEBHOOK_SECRET: "hunter2hunter2" })).toThrow(/HANGAR_WEBHOOK_SECRET: must start with "whsec_"/);
    expect(() => loadConfig({ HANGAR_WEBHOOK_SECRET: "hunter2hunter2" })).not.toThrow(/hunter2/);
    expect(() => loadConfig({ HANGAR_WEBHOOK_ALLOWED_NETWORKS: "10.0.0.0/8, nope" })).toThrow(/HANGAR_WEBHOOK_ALLOWED_NETWORKS: "nope" is not a CIDR/);
  });
});
