import { describe, expect, it } from "vitest";
import {
  commandTargetsProblem,
  gotoTargetsOf,
  runCommandOf,
  runCommandProblem,
  type RunCommand,
  type RunCommandDraft,
} from "../../src/domain/run-command.js";

describe("runCommandProblem: the commands LangGraph takes, in every spelling clients send", () => {
  const accepted: Array<[string, RunCommandDraft]> = [
    ["a resume", { resume: "yes" }],
    ["a resume with an object (createAgent's decisions)", { resume: { decisions: [{ type: "approve" }] } }],
    ["a resume with false", { resume: false }],
    ["an update object", { update: { count: 1 } }],
    ["an update as [channel, value] pairs", { update: [["count", 1], ["log", ["x"]]] }],
    ["a node name", { goto: "note" }],
    ["a Send as the SDK types it", { goto: { node: "note", input: { log: [] } } }],
    ["a Send as Command.toJSON() writes it", { goto: { lg_name: "Send", node: "note", args: { log: [] } } }],
    ["a Send with null input", { goto: { node: "note", input: null } }],
    ["a list of names and Sends", { goto: ["note", { node: "note", input: 1 }, { lg_name: "Send", node: "ask", args: 2 }] }],
    ["an empty update beside a resume", { resume: 1, update: {} }],
  ];
  it.each(accepted)("accepts %s", (_name, command) => {
    expect(runCommandProblem(command)).toBeNull();
  });

  const refused: Array<[string, RunCommandDraft, string]> = [
    ["nothing", {}, "command is empty: give resume (not null), update or goto"],
    ["a null resume only (LangGraph: empty Command input)", { resume: null }, "command is empty: give resume (not null), update or goto"],
    ["an empty update", { update: {} }, "command is empty: give resume (not null), update or goto"],
    ["an empty update list", { update: [] }, "command is empty: give resume (not null), update or goto"],
    ["an empty goto list", { goto: [] }, "command is empty: give resume (not null), update or goto"],
    ["an update string", { update: "x" }, "command.update must be an object of channel values or a list of [channel, value] pairs"],
    ["an update list of non-pairs", { update: [["a", 1, 2]] }, "command.update must be an object of channel values or a list of [channel, value] pairs"],
    ["a numeric goto", { goto: 3 }, "command.goto must be a node name or a Send ({node, input})"],
    ["an empty node name", { goto: "" }, "command.goto must not be an empty node name"],
    ["a Send without a node", { goto: [{ input: 1 }] }, "command.goto[0] is a Send without a node name"],
    ["a Send without input", { goto: ["note", { node: "note" }] }, "command.goto[1] is a Send without input"],
    ["a Command where a Send belongs", { goto: { lg_name: "Command", node: "x", args: 1 } }, "command.goto is a Command, not a Send ({node, input})"],
  ];
  it.each(refused)("refuses %s", (_name, command, message) => {
    expect(runCommandProblem(command)).toBe(message);
  });
});

describe("runCommandOf / gotoTargetsOf: one normalized form", () => {
  it("keeps the given fields, Sends as {node, input}, the goto's shape as given", () => {
    expect(runCommandOf({ resume: null, update: [["a", 1]], goto: { lg_name: "Send", node: "n", args: { x: 1 } } })).toEqual({
      resume: null,
      update: [["a", 1]],
      goto: { node: "n", input: { x: 1 } },
    });
    expect(runCommandOf({ goto: ["a", { node: "b", input: 2 }] })).toEqual({ goto: ["a", { node: "b", input: 2 }] });
    expect(runCommandOf({ resume: "yes", update: null, goto: undefined })).toEqual({ resume: "yes" });
  });

  it("lists the targets", () => {
    expect(gotoTargetsOf({})).toEqual([]);
    expect(gotoTargetsOf({ goto: "a" })).toEqual(["a"]);
    expect(gotoTargetsOf({ goto: [{ node: "b", args: 1 }, "c"] })).toEqual([{ node: "b", input: 1 }, "c"]);
  });
});

describe("commandTargetsProblem: goto names nodes of the graph", () => {
  const nodes = ["__start__", "ask", "note"];
  it.each<[RunCommand, string | null]>([
    [{ goto: "note" }, null],
    [{ goto: "__end__" }, null],
    [{ goto: [{ node: "ask", input: 1 }, "note"] }, null],
    [{ resume: 1 }, null],
    [{ goto: "nope" }, "command.goto names the unknown node 'nope' (the graph's nodes: ask, note)"],
    [{ goto: "__start__" }, "command.goto names the unknown node '__start__' (the graph's nodes: ask, note)"],
    [{ goto: ["note", { node: "__end__", input: 1 }] }, "command.goto names the unknown node '__end__' (the graph's nodes: ask, note)"],
  ])("%j → %s", (command, problem) => {
    expect(commandTargetsProblem(command, nodes)).toBe(problem);
  });
});
