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
});
