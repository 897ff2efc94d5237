import { describe, expect, it } from "vitest";
import { isConnectionLoss } from "../../src/db/connection-loss.js";
import { withRetry } from "../../src/db/retry.js";
import { UnavailableError } from "../../src/domain/errors.js";

/** What node-postgres throws: an Error with the SQLSTATE as `code` (or no code at all). */
function pgError(message: string, code?: string): Error {
  return Object.assign(new Error(message), code ? { code } : {});
}

/** fn failing with the given errors in turn, then answering "done"; counts its calls. */
function failingWith(...errors: Error[]) {
  let calls = 0;
  const fn = async () => {
    calls += 1;
    const error = errors[calls - 1];
    if (error) throw error;
    return "done";
  };
  return { fn, calls: () => calls };
}

describe("withRetry", () => {
  it("retries a serialization failure, a deadlock and cannot_connect_now, whatever the work", async () => {
    const work = failingWith(pgError("could not serialize", "40001"), pgError("deadlock detected", "40P01"), pgError("starting up", "57P03"));
    expect(await withRetry(work.fn, { retryOn: "rolled-back" })).toBe("done");
    expect(work.calls()).toBe(4);
  });

  it("retries a lost connection only for idempotent work", async () => {
    const lost = () => pgError("Connection terminated unexpectedly");
    const idempotent = failingWith(lost(), lost());
    expect(await withRetry(idempotent.fn, { retryOn: "idempotent" })).toBe("done");
    expect(idempotent.calls()).toBe(3);
    const once = failingWith(lost());
    await expect(withRetry(once.fn, { retryOn: "rolled-back" })).rejects.toBeInstanceOf(UnavailableError);
    expect(once.calls()).toBe(1);
  });

  it("does not retry other errors, and gives up on a lasting loss as UnavailableError", async () => {
    const unique = failingWith(pgError("duplicate key", "23505"));
    await expect(withRetry(unique.fn, { retryOn: "idempotent" })).rejects.toThrow("duplicate key");
    expect(unique.calls()).toBe(1);
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), { code: "ECONNREFUSED" });
    const lasting = failingWith(...Array.from({ length: 1000 }, () => refused));
    const started = Date.now();
    const failure = await withRetry(lasting.fn, { retryOn: "idempotent", maxElapsedMs: 300 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UnavailableError);
    expect((failure as Error).cause).toBe(refused);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(lasting.calls()).toBeGreaterThan(2);
  });
});

describe("isConnectionLoss", () => {
  it("knows pg's code-less errors, socket errors, SQLSTATE 08xxx/57P0x and wrapped ones", () => {
    for (const error of [
      pgError("Connection terminated unexpectedly"),
      pgError("Client has encountered a connection error and is not queryable"),
      pgError("timeout exceeded when trying to connect"),
      pgError("terminating connection due to administrator command", "57P01"),
      pgError("connection failure", "08006"),
      Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }),
      Object.assign(new Error("query failed"), { driverError: pgError("Connection terminated unexpectedly") }),
      new AggregateError([Object.assign(new Error("connect ECONNREFUSED ::1:5432"), { code: "ECONNREFUSED" })], "connect failed"),
    ]) {
      expect(isConnectionLoss(error), error.message).toBe(true);
    }
    for (const error of [pgError("duplicate key", "23505"), pgError("syntax error", "42601"), new Error("aborted")]) {
      expect(isConnectionLoss(error), error.message).toBe(false);
    }
  });
});
