import type { JsonObject } from "../../domain/json.js";
import { parseRunTime } from "./parse-run-time.js";

/**
 * The subset of LangSmith's run filter language that maps onto the trace store's indexed
 * filters: `and(...)` of `eq(field, value)`, `has(tags, "x")`, `gte|gt|lte|lt(start_time, "<time>")`
 * the metadata pair `and(eq(metadata_key, "k"), eq(metadata_value, "v"))` and feedback on the run:
 * `eq(feedback_key, "k")`, optionally with `eq|gte|gt|lte|lt(feedback_score, n)` in the same and().
 * Anything else is refused with a message naming it, so a filter is never silently ignored.
 */
export interface ParsedRunFilter {
  name?: string;
  runType?: string;
  modelName?: string;
  provider?: string;
  traceId?: string;
  parentRunId?: string;
  threadId?: string;
  assistantId?: string;
  hangarRunId?: string;
  sessionName?: string;
  isRoot?: boolean;
  hasError?: boolean;
  tags?: string[];
  startTimeFrom?: string;
  startTimeTo?: string;
  metadata?: JsonObject;
  /** A feedback on the run with this key and, when bounds are given, a score within them. */
  feedback?: RunFeedbackFilter;
}

/** Score bounds: min/max inclusive, above/below exclusive (gt and lt). */
export interface RunFeedbackFilter {
  key: string;
  scoreMin?: number;
  scoreMax?: number;
  scoreAbove?: number;
  scoreBelow?: number;
}

export class RunFilterError extends Error {}

type Node = { call: string; args: Arg[] };
type Arg = Node | string | number | boolean;

const EQ_FIELDS: Record<string, keyof ParsedRunFilter> = {
  name: "name",
  run_type: "runType",
  model_name: "modelName",
  provider: "provider",
  trace_id: "traceId",
  parent_run_id: "parentRunId",
  thread_id: "threadId",
  assistant_id: "assistantId",
  hangar_run_id: "hangarRunId",
  session_name: "sessionName",
  is_root: "isRoot",
  error: "hasError",
};

// Which feedback score bounds each comparison sets (eq: both, inclusive).
const SCORE_BOUNDS: Record<string, (keyof RunFeedbackFilter)[]> = {
  eq: ["scoreMin", "scoreMax"],
  gte: ["scoreMin"],
  gt: ["scoreAbove"],
  lte: ["scoreMax"],
  lt: ["scoreBelow"],
};

export function parseRunFilter(text: string): ParsedRunFilter {
  const parser = new FilterParser(text);
  const node = parser.parseCall();
  parser.expectEnd();
  const filter: ParsedRunFilter = {};
  apply(node, filter);
  if (filter.feedback && filter.feedback.key === undefined) throw new RunFilterError("feedback_score needs an eq(feedback_key, ...) in the same and()");
  return filter;
}

function apply(node: Node, filter: ParsedRunFilter): void {
  if (node.call === "and") {
    const metadataKeys = node.args.filter((arg) => isEq(arg, "metadata_key"));
    const metadataValues = node.args.filter((arg) => isEq(arg, "metadata_value"));
    if (metadataKeys.length !== metadataValues.length) {
      throw new RunFilterError("metadata_key and metadata_value must come in pairs inside one and()");
    }
    metadataKeys.forEach((key, index) => {
      const value = (metadataValues[index] as Node).args[1];
      filter.metadata = { ...filter.metadata, [String((key as Node).args[1])]: value };
    });
    for (const arg of node.args) {
      if (typeof arg !== "object") throw new RunFilterError(`and() takes comparisons, got ${JSON.stringify(arg)}`);
      if (!isEq(arg, "metadata_key") && !isEq(arg, "metadata_value")) apply(arg, filter);
    }
    return;
  }
  const [field, value] = node.args;
  if (node.args.length !== 2 || typeof field !== "string" || typeof value === "object") {
    throw new RunFilterError(`${node.call}() takes a field and a value`);
  }
  if (node.call === "eq" && Object.hasOwn(EQ_FIELDS, field)) {
    const isFlag = field === "is_root" || field === "error";
    if (typeof value !== (isFlag ? "boolean" : "string")) {
      throw new RunFilterError(`eq(${field}, ...) takes ${isFlag ? "true or false" : "a string"}`);
    }
    (filter as Record<string, unknown>)[EQ_FIELDS[field]] = value;
  } else if (node.call === "eq" && field === "feedback_key") {
    if (typeof value !== "string") throw new RunFilterError("eq(feedback_key, ...) takes a string");
    filter.feedback = { ...filter.feedback, key: value };
  } else if (field === "feedback_score" && Object.hasOwn(SCORE_BOUNDS, node.call)) {
    if (typeof value !== "number") throw new RunFilterError(`${node.call}(feedback_score, ...) takes a number`);
    const bounds = SCORE_BOUNDS[node.call].map((bound) => [bound, value]);
    filter.feedback = { ...filter.feedback, ...Object.fromEntries(bounds) } as RunFeedbackFilter;
  } else if (node.call === "has" && field === "tags" && typeof value === "string") {
    filter.tags = [...(filter.tags ?? []), value];
  } else if (["gte", "gt", "lte", "lt"].includes(node.call) && field === "start_time") {
    const time = parseRunTime(value);
    if (!time) throw new RunFilterError(`${node.call}(start_time, ...) needs an ISO 8601 time`);
    // Times are microsecond-precise, so "after t" is "at or after t + 1 µs" (and alike for lte).
    if (node.call === "gte") filter.startTimeFrom = time;
    if (node.call === "gt") filter.startTimeFrom = addMicrosecond(time);
    if (node.call === "lt") filter.startTimeTo = time;
    if (node.call === "lte") filter.startTimeTo = addMicrosecond(time);
  } else {
    throw new RunFilterError(`${node.call}(${field}, ...) is not supported by Hangar's trace store`);
  }
}

function isEq(arg: Arg, field: string): boolean {
  return typeof arg === "object" && arg.call === "eq" && arg.args[0] === field;
}

function addMicrosecond(time: string): string {
  const micros = Number(time.slice(20, 26)) + 1;
  if (micros < 1_000_000) return `${time.slice(0, 20)}${String(micros).padStart(6, "0")}Z`;
  return parseRunTime(Date.parse(time.slice(0, 19) + "Z") + 1000) as string;
}

class FilterParser {
  private position = 0;
  constructor(private readonly text: string) {}

  parseCall(): Node {
    const name = this.readIdentifier();
    this.expect("(");
    const args: Arg[] = [];
    if (!this.consume(")")) {
      do args.push(this.parseArg());
      while (this.consume(","));
      this.expect(")");
    }
    return { call: name, args };
  }

  expectEnd(): void {
    this.skipSpace();
    if (this.position < this.text.length) this.fail("unexpected text");
  }

  private parseArg(): Arg {
    this.skipSpace();
    const char = this.text[this.position];
    if (char === '"' || char === "'") return this.readString(char);
    const number = /^-?\d+(\.\d+)?/.exec(this.text.slice(this.position));
    if (number) {
      this.position += number[0].length;
      return Number(number[0]);
    }
    const identifier = this.readIdentifier();
    this.skipSpace();
    if (this.text[this.position] === "(") {
      this.position -= identifier.length;
      return this.parseCall();
    }
    if (identifier === "true" || identifier === "false") return identifier === "true";
    return identifier;
  }

  private readString(quote: string): string {
    let value = "";
    for (this.position++; this.position < this.text.length; this.position++) {
      const char = this.text[this.position];
      if (char === "\\") value += this.text[++this.position] ?? "";
      else if (char === quote) {
        this.position++;
        return value;
      } else value += char;
    }
    return this.fail("unterminated string");
  }

  private readIdentifier(): string {
    this.skipSpace();
    const match = /^[A-Za-z_][A-Za-z0-9_.]*/.exec(this.text.slice(this.position));
    if (!match) return this.fail("expected a name");
    this.position += match[0].length;
    return match[0];
  }

  private consume(char: string): boolean {
    this.skipSpace();
    if (this.text[this.position] !== char) return false;
    this.position++;
    return true;
  }

  private expect(char: string): void {
    if (!this.consume(char)) this.fail(`expected '${char}'`);
  }

  private skipSpace(): void {
    while (/\s/.test(this.text[this.position] ?? "")) this.position++;
  }

  private fail(problem: string): never {
    throw new RunFilterError(`${problem} at character ${this.position + 1}`);
  }
}
