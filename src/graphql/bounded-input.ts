import { createGraphQLError, type GraphQLParams, type Plugin } from "graphql-yoga";
import { describeTooDeepJson, findTooDeepValue, parseJsonText } from "../domain/json-depth.js";
import { MAX_JSON_DEPTH } from "../domain/input-bounds.js";
import type { Logger } from "../logger.js";

/**
 * GraphQL's part of the depth rule (domain/json-depth.ts), refused with HTTP 400 before anything
 * recursive sees the input:
 * - request bodies and GET `variables` / `extensions` are scanned as text before they are parsed,
 *   and malformed GET parameters are a 400 naming them (Yoga's own GET parser threw a bare
 *   SyntaxError, which answered 500);
 * - documents nesting selections, lists, objects or arguments deeper than MAX_JSON_DEPTH are
 *   refused before graphql-js's recursive-descent parser runs (at ~5,000 levels it overflows
 *   the stack);
 * - variables that arrive already parsed (graphql-ws messages) are walked without recursion at
 *   execute / subscribe, which every transport passes through.
 * Cost, alias and selection-depth limits on valid documents are validation rules elsewhere.
 */
export function useBoundedInput(log: Logger): Plugin {
  const refuse = (message: string, code: "BAD_REQUEST" | "INVALID_INPUT") => {
    log.warn({ code }, message);
    return createGraphQLError(message, { extensions: { code, http: { status: 400 } } });
  };
  const refusal = (variables: unknown) => {
    const found = findTooDeepValue(variables ?? {}, "variables");
    return found ? { errors: [refuse(describeTooDeepJson(found), "INVALID_INPUT")] } : null;
  };
  return {
    onRequestParse({ request, setRequestParser }) {
      if (request.method === "GET") setRequestParser((get) => parseGetParams(get, refuse));
      else if (request.method === "POST" && isJsonContentType(request.headers.get("content-type"))) {
        setRequestParser(async (post) => parseJsonBody(await post.text(), refuse));
      }
    },
    onParse({ params }) {
      const source = typeof params.source === "string" ? params.source : params.source.body;
      const position = findTooDeepDocument(source);
      if (position !== null) {
        throw refuse(`query: the document nests deeper than ${MAX_JSON_DEPTH} levels (at character ${position})`, "BAD_REQUEST");
      }
    },
    onExecute({ args, setResultAndStopExecution }) {
      const result = refusal(args.variableValues);
      if (result) setResultAndStopExecution(result);
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      const result = refusal(args.variableValues);
      if (result) setResultAndStopExecution(result);
    },
  };
}

type Refuse = (message: string, code: "BAD_REQUEST" | "INVALID_INPUT") => Error;

function isJsonContentType(contentType: string | null): boolean {
  const type = contentType?.split(",")[0]?.split(";")[0]?.trim().toLowerCase();
  return type === "application/json" || type === "application/graphql+json";
}

/** GET /graphql?query=…&variables=…: the JSON parameters parsed within the depth limit. */
function parseGetParams(request: Request, refuse: Refuse): GraphQLParams {
  const search = new URL(request.url).searchParams;
  const json = (name: "variables" | "extensions") => {
    const text = search.get(name);
    if (!text) return undefined;
    const parsed = parseJsonText(text, name);
    if (!parsed.ok) throw refuse(parsed.message, "BAD_REQUEST");
    if (typeof parsed.value !== "object" || Array.isArray(parsed.value)) throw refuse(`${name} must be a JSON object`, "BAD_REQUEST");
    return (parsed.value ?? undefined) as Record<string, unknown> | undefined;
  };
  return {
    query: search.get("query") || undefined,
    operationName: search.get("operationName") || undefined,
    variables: json("variables"),
    extensions: json("extensions"),
  };
}

/** A POST body parsed within the depth limit; like Yoga's own parser, it must be a JSON object (or a batch). */
function parseJsonBody(text: string, refuse: Refuse): GraphQLParams | GraphQLParams[] {
  const parsed = parseJsonText(text, "body");
  if (!parsed.ok) throw refuse(parsed.message, "BAD_REQUEST");
  if (typeof parsed.value !== "object" || parsed.value === null) {
    throw refuse(`POST body is expected to be an object but received ${parsed.value === null ? "null" : typeof parsed.value}`, "BAD_REQUEST");
  }
  return parsed.value as GraphQLParams | GraphQLParams[];
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const HASH = 0x23;
const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const OPENERS = new Set([0x7b, 0x5b, 0x28]); // { [ (
const CLOSERS = new Set([0x7d, 0x5d, 0x29]); // } ] )

/**
 * Where a GraphQL document first nests braces, brackets or parentheses deeper than the limit,
 * or null. Skips strings, block strings and comments; malformed text is graphql-js's to report.
 */
export function findTooDeepDocument(source: string, maxDepth = MAX_JSON_DEPTH): number | null {
  let depth = 0;
  for (let index = 0; index < source.length; index++) {
    const code = source.charCodeAt(index);
    if (code === HASH) {
      while (index < source.length && source.charCodeAt(index) !== NEWLINE && source.charCodeAt(index) !== CARRIAGE_RETURN) index++;
    } else if (code === QUOTE) {
      if (source.startsWith('"""', index)) {
        // Block string: only \""" escapes its end.
        let end = index + 3;
        for (;;) {
          end = source.indexOf('"""', end);
          if (end === -1 || source.charCodeAt(end - 1) !== BACKSLASH) break;
          end += 3;
        }
        index = end === -1 ? source.length : end + 2;
      } else {
        index++;
        while (index < source.length) {
          const inner = source.charCodeAt(index);
          if (inner === BACKSLASH) index += 2;
          else if (inner === QUOTE || inner === NEWLINE || inner === CARRIAGE_RETURN) break;
          else index++;
        }
      }
    } else if (OPENERS.has(code)) {
      if (++depth > maxDepth) return index;
    } else if (CLOSERS.has(code)) depth--;
  }
  return null;
}
