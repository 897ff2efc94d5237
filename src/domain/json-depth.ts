import { InvalidInputError } from "./errors.js";
import { MAX_JSON_DEPTH } from "./input-bounds.js";

/**
 * The one depth rule for JSON input (MAX_JSON_DEPTH levels of objects and arrays), checked at the
 * edge of every transport before anything walks the value. V8's JSON.parse is not recursive (it
 * parses 1,000,000 levels), but nearly everything after it is: the storable-text check, zod,
 * JSON.stringify, the checkpoint serde and graphql-js's input coercion each overflow the stack
 * somewhere past ~5,000 levels, which answered 500. So raw text is scanned before it is parsed
 * (findTooDeepJsonText) and values that arrive already parsed (graphql-ws messages, a body a
 * custom route's middleware read) are walked without recursion (findTooDeepValue).
 */
export interface TooDeepJson {
  /** Where the first too-deep value is, as a JSON path from the given root (`body.metadata.a[0]…`). */
  path: string;
  /** Its offset in the text, when it was found in text. */
  position?: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
/** Path segments shown before the rest is elided: the field that matters is near the root. */
const SHOWN_SEGMENTS = 8;

/**
 * The first place JSON text nests deeper than maxDepth, or null. One pass without recursion;
 * strings are skipped with indexOf: a 10 MB message list took 14 ms against JSON.parse's 59 ms
 * (measured on a loaded 2-core machine), a 100-byte run request 2 µs against 5.5 µs.
 * Malformed text is not judged here (JSON.parse reports it): the scan only counts brackets
 * outside strings.
 */
export function findTooDeepJsonText(text: string, root: string, maxDepth = MAX_JSON_DEPTH): TooDeepJson | null {
  // Nesting past maxDepth takes more than maxDepth opening brackets.
  if (text.length <= maxDepth) return null;
  let depth = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === QUOTE) index = endOfString(text, index);
    else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      if (++depth > maxDepth) return { path: pathAt(text, index, root), position: index };
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) depth--;
  }
  return null;
}

/** The first value nested deeper than maxDepth in an already-parsed value, or null; no recursion. */
export function findTooDeepValue(value: unknown, root: string, maxDepth = MAX_JSON_DEPTH): TooDeepJson | null {
  interface Frame {
    value: object;
    depth: number;
    key: string | number | null;
    parent: Frame | null;
  }
  if (typeof value !== "object" || value === null) return null;
  const stack: Frame[] = [{ value, depth: 1, key: null, parent: null }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if (frame.depth > maxDepth) {
      const segments: Array<string | number> = [];
      for (let at: Frame | null = frame; at?.key !== null && at !== null; at = at.parent) segments.unshift(at.key!);
      return { path: formatPath(root, segments) };
    }
    const entries: Array<[string | number, unknown]> = Array.isArray(frame.value)
      ? frame.value.map((item, index) => [index, item])
      : Object.entries(frame.value);
    for (let index = entries.length - 1; index >= 0; index--) {
      const [key, item] = entries[index]!;
      if (typeof item === "object" && item !== null) stack.push({ value: item, depth: frame.depth + 1, key, parent: frame });
    }
  }
  return null;
}

export function describeTooDeepJson(found: TooDeepJson, maxDepth = MAX_JSON_DEPTH): string {
  const where = found.position === undefined ? "" : ` (at character ${found.position})`;
  return `${found.path}: JSON nested deeper than ${maxDepth} levels${where}`;
}

/** The outcome of parsing untrusted JSON text: its value (and the text), or why it was refused. */
export type ParsedJson = { ok: true; value: unknown; text: string } | { ok: false; problem: "depth" | "syntax"; message: string };

/**
 * Untrusted JSON text parsed within the depth limit. `root` names the text in messages ("body",
 * "variables"). Empty text is not handled here: callers decide what an empty body means.
 */
export function parseJsonText(text: string, root: string): ParsedJson {
  const tooDeep = findTooDeepJsonText(text, root);
  if (tooDeep) return { ok: false, problem: "depth", message: describeTooDeepJson(tooDeep) };
  try {
    return { ok: true, value: JSON.parse(text) as unknown, text };
  } catch (error) {
    return { ok: false, problem: "syntax", message: `${root} is not valid JSON: ${(error as Error).message}` };
  }
}

/** Throws INVALID_INPUT when an already-parsed value nests deeper than the limit. */
export function assertJsonDepth(value: unknown, root: string): void {
  const found = findTooDeepValue(value, root);
  if (found) throw new InvalidInputError(describeTooDeepJson(found));
}

/** Index of the quote that closes the string opening at `start` (the text's end when none does). */
function endOfString(text: string, start: number): number {
  let index = start;
  for (;;) {
    index = text.indexOf('"', index + 1);
    if (index === -1) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(index - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return index;
  }
}

/**
 * The JSON path of the value that opens at `position`: a second, slower pass that only runs when
 * the text is refused, following keys and array indexes down to it.
 */
function pathAt(text: string, position: number, root: string): string {
  interface Frame {
    isArray: boolean;
    key: string | number | null;
    expectsKey: boolean;
  }
  const frames: Frame[] = [];
  for (let index = 0; index < position; index++) {
    const code = text.charCodeAt(index);
    const top = frames[frames.length - 1];
    if (code === QUOTE) {
      const end = endOfString(text, index);
      if (top && !top.isArray && top.expectsKey) {
        top.key = decodeKey(text.slice(index, end + 1));
        top.expectsKey = false;
      }
      index = end;
    } else if (code === OPEN_BRACE) frames.push({ isArray: false, key: null, expectsKey: true });
    else if (code === OPEN_BRACKET) frames.push({ isArray: true, key: 0, expectsKey: false });
    else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) frames.pop();
    else if (code === COMMA && top) {
      if (top.isArray) top.key = (top.key as number) + 1;
      else top.expectsKey = true;
    }
  }
  return formatPath(root, frames.map((frame) => frame.key ?? "?"));
}

function decodeKey(literal: string): string {
  try {
    return JSON.parse(literal) as string;
  } catch {
    return literal;
  }
}

function formatPath(root: string, segments: Array<string | number>): string {
  const shown = segments.slice(0, SHOWN_SEGMENTS).map((segment) => (typeof segment === "number" ? `[${segment}]` : `.${segment}`));
  return `${root}${shown.join("")}${segments.length > SHOWN_SEGMENTS ? "…" : ""}`;
}
