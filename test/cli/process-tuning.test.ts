import { execFileSync } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { v6 as uuid6, v7 as uuid7 } from "uuid";
import { RunTree } from "langsmith";
import { poolRandomValues, snapshotEnvironment } from "../../src/process-tuning.js";

describe("pooled crypto.getRandomValues", () => {
  let restore: (() => void) | undefined;
  afterEach(() => {
    restore?.();
    restore = undefined;
  });

  it("hands out fresh random bytes for small requests, across pool refills", () => {
    restore = poolRandomValues();
    const seen = new Set<string>();
    const counts = new Array<number>(256).fill(0);
    // 4,000 × 16 bytes is 64 KiB: the pool (16 KiB) refills several times.
    for (let i = 0; i < 4_000; i++) {
      const bytes = new Uint8Array(16);
      expect(crypto.getRandomValues(bytes)).toBe(bytes);
      seen.add(Buffer.from(bytes).toString("hex"));
      for (const byte of bytes) counts[byte]! += 1;
    }
    expect(seen.size).toBe(4_000);
    // 64,000 bytes over 256 values: 250 expected each; a stuck or zeroed pool would be far off.
    expect(Math.min(...counts)).toBeGreaterThan(150);
    expect(Math.max(...counts)).toBeLessThan(350);
  });

  it("does not call the original per small request: 1,000 uuids' worth of bytes cost none of its calls", () => {
    // A counting stand-in as the "original": poolRandomValues wraps whatever is installed.
    let originalCalls = 0;
    const native = globalThis.crypto.getRandomValues.bind(globalThis.crypto);
    Object.defineProperty(globalThis.crypto, "getRandomValues", {
      configurable: true,
      writable: true,
      value: <T extends ArrayBufferView | null>(array: T): T => {
        originalCalls += 1;
        return native(array as never) as T;
      },
    });
    try {
      const undo = poolRandomValues();
      for (let i = 0; i < 1_000; i++) crypto.getRandomValues(new Uint8Array(16));
      expect(originalCalls).toBe(0);
      crypto.getRandomValues(new Uint8Array(1024));
      expect(originalCalls).toBe(1);
      undo();
      // Undoing puts the stand-in back, since it was an own property.
      crypto.getRandomValues(new Uint8Array(16));
      expect(originalCalls).toBe(2);
    } finally {
      delete (globalThis.crypto as { getRandomValues?: unknown }).getRandomValues;
    }
  });

  it("leaves other requests to the original: typed arrays, large buffers and its errors", () => {
    restore = poolRandomValues();
    const words = crypto.getRandomValues(new Uint32Array(8));
    expect(words).toBeInstanceOf(Uint32Array);
    expect(words.some((word) => word !== 0)).toBe(true);
    const large = crypto.getRandomValues(new Uint8Array(4096));
    expect(large.some((byte) => byte !== 0)).toBe(true);
    expect(() => crypto.getRandomValues(new Uint8Array(65_537))).toThrow(/65,?536|quota/i);
    expect(() => crypto.getRandomValues(new Float64Array(2) as unknown as Uint8Array<ArrayBuffer>)).toThrow();
  });

  it("serves the uuids LangChain and langsmith make, and can be undone", () => {
    restore = poolRandomValues();
    expect(Object.hasOwn(globalThis.crypto, "getRandomValues")).toBe(true);
    const ids = new Set([...Array.from({ length: 500 }, () => uuid7()), ...Array.from({ length: 500 }, () => uuid6())]);
    expect(ids.size).toBe(1_000);
    const run = new RunTree({ name: "probe", tracingEnabled: false });
    expect(run.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
    restore();
    restore = undefined;
    expect(Object.hasOwn(globalThis.crypto, "getRandomValues")).toBe(false);
    expect(crypto.getRandomValues(new Uint8Array(4)).length).toBe(4);
  });
});

describe("process.env snapshot", () => {
  const realEnv = process.env;
  afterEach(() => {
    process.env = realEnv;
  });

  it("keeps every variable, takes later assignments and passes them to child processes", () => {
    snapshotEnvironment();
    expect(process.env).not.toBe(realEnv);
    expect(Object.getPrototypeOf(process.env)).toBe(Object.prototype);
    expect(process.env.PATH).toBe(realEnv.PATH);
    process.env.HANGAR_TUNING_PROBE = "from-the-snapshot";
    const seenByChild = execFileSync(process.execPath, ["-e", "process.stdout.write(process.env.HANGAR_TUNING_PROBE ?? 'unset')"]);
    expect(seenByChild.toString()).toBe("from-the-snapshot");
    expect(realEnv.HANGAR_TUNING_PROBE).toBeUndefined();
  });
});
