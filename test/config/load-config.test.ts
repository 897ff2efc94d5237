import { describe, expect, it } from "vitest";
import { DEFAULT_EMBEDDED_SHARED_BUFFERS, loadConfig } from "../../src/config.js";

describe("loadConfig", () => {
  it("defaults: the embedded buffer pool is small and truncate is off", () => {
    const config = loadConfig({});
    expect(config.embeddedSharedBuffers).toBe(DEFAULT_EMBEDDED_SHARED_BUFFERS);
    expect(config.enableTruncate).toBe(false);
  });

  it("takes a buffer pool size in PostgreSQL's syntax and turns truncate on", () => {
    const config = loadConfig({ HANGAR_EMBEDDED_SHARED_BUFFERS: "256MB", HANGAR_ENABLE_TRUNCATE: "true" });
    expect(config.embeddedSharedBuffers).toBe("256MB");
    expect(config.enableTruncate).toBe(true);
  });

  it.each(["256", "lots", "0MB", "256 MB", "1TB"])("refuses HANGAR_EMBEDDED_SHARED_BUFFERS=%s naming the variable", (value) => {
    expect(() => loadConfig({ HANGAR_EMBEDDED_SHARED_BUFFERS: value })).toThrow(/HANGAR_EMBEDDED_SHARED_BUFFERS: a size such as "16MB"/);
  });

  it("has slow-client deadlines by default and refuses a header deadline past the request's", () => {
    expect(loadConfig({})).toMatchObject({ headersTimeoutMs: 10_000, requestTimeoutMs: 60_000 });
    expect(loadConfig({ HANGAR_HEADERS_TIMEOUT_MS: "2000", HANGAR_REQUEST_TIMEOUT_MS: "5000" })).toMatchObject({ headersTimeoutMs: 2_000, requestTimeoutMs: 5_000 });
    expect(() => loadConfig({ HANGAR_HEADERS_TIMEOUT_MS: "90000" })).toThrow(/HANGAR_HEADERS_TIMEOUT_MS must not exceed HANGAR_REQUEST_TIMEOUT_MS/);
    expect(() => loadConfig({ HANGAR_REQUEST_TIMEOUT_MS: "0" })).toThrow(/HANGAR_REQUEST_TIMEOUT_MS/);
  });
});
