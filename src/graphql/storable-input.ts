import { visit, type ASTNode, type DocumentNode } from "graphql";
import { createGraphQLError, type Plugin } from "graphql-yoga";
import { describeUnstorableText, findUnstorableText, type UnstorableText } from "../domain/storable-text.js";
import type { Logger } from "../logger.js";

/**
 * GraphQL's part of the storable-text rule (domain/storable-text.ts): an operation whose variables
 * or inline string arguments hold a NUL or an unpaired surrogate is refused before it executes,
 * with INVALID_INPUT naming the field, over HTTP and WebSocket alike (both go through execute /
 * subscribe). It is a request error in GraphQL-over-HTTP terms: status 400 for
 * application/graphql-response+json, 200 for legacy application/json (Yoga's `spec` flag).
 */
export function useStorableInput(log: Logger): Plugin {
  const refusal = (args: { document: DocumentNode; variableValues?: unknown }) => {
    const found = findUnstorableText(args.variableValues ?? {}, "variables") ?? findUnstorableLiteral(args.document);
    if (!found) return null;
    const message = describeUnstorableText(found);
    log.warn({ code: "INVALID_INPUT", path: found.path }, message);
    return { errors: [createGraphQLError(message, { extensions: { code: "INVALID_INPUT", http: { spec: true, status: 400 } } })] };
  };
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const result = refusal(args);
      if (result) setResultAndStopExecution(result);
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      const result = refusal(args);
      if (result) setResultAndStopExecution(result);
    },
  };
}

/**
 * A string literal in the document (`createThread(input: {metadata: {note: "\u0000"}})`), named by
 * the fields, arguments and object fields around it. GraphQL's lexer already refuses an unpaired
 * surrogate escape, so in practice this finds NULs.
 */
function findUnstorableLiteral(document: DocumentNode): UnstorableText | null {
  let found: UnstorableText | null = null;
  visit(document, {
    StringValue(node, _key, parent, _path, ancestors) {
      if (found) return;
      found = findUnstorableText(node.value, `argument ${namesOf([...ancestors, parent as ASTNode])}`);
    },
  });
  return found;
}

function namesOf(ancestors: ReadonlyArray<ASTNode | ReadonlyArray<ASTNode>>): string {
  const names: string[] = [];
  for (const ancestor of ancestors) {
    if (Array.isArray(ancestor)) continue;
    const node = ancestor as ASTNode;
    if (node.kind === "Field") names.push(node.alias?.value ?? node.name.value);
    else if (node.kind === "Argument" || node.kind === "ObjectField") names.push(node.name.value);
  }
  return names.join(".");
}
