import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../../src/domain/errors.js";
import {
  cronPayloadOf,
  cronPayloadProblem,
  MAX_AFTER_SECONDS,
  runRequestOf,
  runRequestProblem,
  type RunRequestDraft,
} from "../../src/domain/run-request.js";

const base: RunRequestDraft = { threadId: null, assistantId: "echo" };

describe("runRequestProblem: the rules every transport's run request goes through", () => {
  const cases: Array<[string, Partial<RunRequestDraft>, RegExp | null]> = [
    ["nothing but an assistant", {}, null],
    ["input alone", { input: { messages: [] } }, null],
    ["command alone", { command: { resume: 1 } }, null],
    ["input null with a command (null is not given)", { input: null, command: { resume: 1 } }, null],
    ["input and command (the command wins)", { input: {}, command: { resume: 1 } }, null],
    ["input and an empty command", { input: "x", command: {} }, /^command is empty: give resume \(not null\), update or goto$/],
    ["after_seconds 0", { afterSeconds: 0 }, null],
    ["after_seconds a year", { afterSeconds: MAX_AFTER_SECONDS }, null],
    ["after_seconds fractional", { afterSeconds: 0.5 }, null],
    ["after_seconds negative", { afterSeconds: -1 }, /^after_seconds must be between 0 and 31536000 \(a year\), got -1$/],
    ["after_seconds past a year", { afterSeconds: MAX_AFTER_SECONDS + 1 }, /after_seconds must be between 0 and 31536000/],
    ["after_seconds NaN", { afterSeconds: Number.NaN }, /after_seconds must be between/],
    ["https webhook", { webhook: "https://example.com/hook" }, null],
    ["http webhook", { webhook: "http://127.0.0.1:9/hook" }, null],
    ["webhook on this server", { webhook: "/my/route" }, null],
    ["protocol-relative webhook", { webhook: "//evil.example/hook" }, /^webhook must be an http\(s\) URL/],
    ["ftp webhook", { webhook: "ftp://example.com/hook" }, /^webhook must be an http\(s\) URL/],
    ["not a URL", { webhook: "not a url" }, /^webhook must be an http\(s\) URL/],
    ["the first rule broken is named", { command: { goto: 1 }, afterSeconds: -1 }, /^command\.goto must be a node name/],
  ];
  it.each(cases)("%s", (_name, fields, problem) => {
    const draft = { ...base, ...fields };
    const found = runRequestProblem(draft);
    if (problem === null) {
      expect(found).toBeNull();
      expect(() => runRequestOf(draft)).not.toThrow();
    } else {
      expect(found).toMatch(problem);
      expect(() => runRequestOf(draft)).toThrow(InvalidInputError);
      expect(() => runRequestOf(draft)).toThrow(found!);
    }
  });
});

describe("runRequestOf: defaults for what was not given", () => {
  it("fills every field of a bare request", () => {
    expect(runRequestOf({ threadId: "t", assistantId: "echo" })).toEqual({
      threadId: "t",
      assistantId: "echo",
      input: null,
      command: null,
      context: {},
      config: {},
      metadata: {},
      streamModes: ["values"],
      streamSubgraphs: false,
      streamResumable: false,
      interruptBefore: null,
      interruptAfter: null,
      checkpointId: null,
      checkpointNs: null,
      webhook: null,
      onCompletion: null,
      durability: null,
      multitaskStrategy: "reject",
      ifNotExists: "reject",
      afterSeconds: 0,
    });
  });

  it("treats null as not given and keeps what was given", () => {
    const request = runRequestOf({
      ...base,
      input: null,
      context: null,
      streamModes: ["updates", "values", "updates"],
      multitaskStrategy: "enqueue",
      ifNotExists: "create",
      afterSeconds: 5,
      interruptBefore: "*",
      onCompletion: "keep",
      durability: "exit",
    });
    expect(request).toMatchObject({
      input: null,
      context: {},
      streamModes: ["updates", "values"],
      multitaskStrategy: "enqueue",
      ifNotExists: "create",
      afterSeconds: 5,
      interruptBefore: "*",
      onCompletion: "keep",
      durability: "exit",
    });
  });

  it("keeps a command, normalized, and no input beside it: the command wins", () => {
    const request = runRequestOf({ ...base, input: {}, command: { resume: { decisions: [] }, goto: { node: "n", args: 1 } } });
    expect(request.input).toBeNull();
    expect(request.command).toEqual({ resume: { decisions: [] }, goto: { node: "n", input: 1 } });
    expect(runRequestOf({ ...base, input: { a: 1 } })).toMatchObject({ input: { a: 1 }, command: null });
  });

  it("keeps an empty stream mode list as given (REST's stream_mode: [])", () => {
    expect(runRequestOf({ ...base, streamModes: [] }).streamModes).toEqual([]);
  });
});

describe("cron payloads", () => {
  it("take a run's defaults, except multitask enqueue", () => {
    expect(cronPayloadOf({})).toEqual({
      input: null,
      context: {},
      config: {},
      streamModes: ["values"],
      streamSubgraphs: false,
      streamResumable: false,
      interruptBefore: null,
      interruptAfter: null,
      webhook: null,
      multitaskStrategy: "enqueue",
      durability: null,
    });
    expect(cronPayloadOf({ multitaskStrategy: "interrupt", streamModes: ["updates"] })).toMatchObject({
      multitaskStrategy: "interrupt",
      streamModes: ["updates"],
    });
  });

  it.each([
    [{}, null],
    [{ webhook: null }, null],
    [{ webhook: "https://example.com" }, null],
    [{ webhook: "mailto:x@y.z" }, /^webhook must be an http\(s\) URL/],
  ] as const)("%j: %s", (payload, problem) => {
    const found = cronPayloadProblem(payload);
    if (problem === null) expect(found).toBeNull();
    else expect(found).toMatch(problem);
  });
});
