import { AsyncLocalStorage } from "node:async_hooks";
import { describe, expect, it } from "vitest";
import { BatchedStatement } from "../../src/db/batched-statement.js";

describe("BatchedStatement", () => {
  it("answers calls made in one turn with one statement, in their order", async () => {
    const statements: string[][] = [];
    const batched = new BatchedStatement(async (inputs: string[]) => {
      statements.push(inputs);
      return inputs.map((input) => input.toUpperCase());
    });
    expect(await Promise.all(["a", "b", "c"].map((input) => batched.call(input)))).toEqual(["A", "B", "C"]);
    expect(statements).toEqual([["a", "b", "c"]]);
  });

  it("with distinctBy, sends calls with one key in statements of their own, first made first", async () => {
    const statements: string[][] = [];
    const batched = new BatchedStatement(
      async (inputs: string[]) => {
        statements.push(inputs);
        return inputs.map((_, index) => index);
      },
      { distinctBy: (input) => input.split(":")[0]! },
    );
    await Promise.all(["x:1", "y:1", "x:2", "x:3", "y:2"].map((input) => batched.call(input)));
    expect(statements).toEqual([["x:1", "y:1"], ["x:2", "y:2"], ["x:3"]]);
  });

  it("when a later statement of a round fails, does not run the calls an earlier one answered again; only the failing call fails", async () => {
    const statements: string[][] = [];
    const batched = new BatchedStatement(
      async (inputs: string[]) => {
        statements.push(inputs);
        if (inputs.includes("x:bad")) throw new Error("refused");
        return inputs.map((input) => `ok ${input}`);
      },
      { distinctBy: (input) => input.split(":")[0]! },
    );
    const outcomes = await Promise.allSettled(["x:1", "y:1", "x:bad", "y:2"].map((input) => batched.call(input)));
    expect(outcomes.map((outcome) => (outcome.status === "fulfilled" ? outcome.value : (outcome.reason as Error).message))).toEqual([
      "ok x:1",
      "ok y:1",
      "refused",
      "ok y:2",
    ]);
    // The round's second statement failed; then each call it held went alone.
    expect(statements).toEqual([["x:1", "y:1"], ["x:bad", "y:2"], ["x:bad"], ["y:2"]]);
  });
});

describe("BatchedStatement's rounds", () => {
  it("run in the context the statement was made in, not in a caller's (AsyncLocalStorage: a GraphQL operation's pool share, a run's log context)", async () => {
    const callerContext = new AsyncLocalStorage<string>();
    const seen: Array<string | undefined> = [];
    const batched = new BatchedStatement(async (inputs: string[]) => {
      seen.push(callerContext.getStore());
      return inputs;
    });
    await Promise.all([callerContext.run("operation A", () => batched.call("a")), callerContext.run("operation B", () => batched.call("b"))]);
    await callerContext.run("operation C", () => batched.call("c"));
    expect(seen).toEqual([undefined, undefined]);
  });
});
