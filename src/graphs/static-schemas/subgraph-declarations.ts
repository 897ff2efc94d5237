import type * as TypeScript from "typescript-json-schema/node_modules/typescript/lib/typescript.js";

/** A subgraph as its module declares it: the namespace LangGraph gives it and its expression. */
export interface SubgraphDeclaration {
  /** `child`, `child|grandchild`: node names from the exported graph down. */
  namespace: string;
  /** Source text of the graph added as that node, e.g. `parent.compile()`. */
  expression: string;
}

// Subgraphs nested deeper than this are not looked for (cycles in odd code end here too).
const MAX_DEPTH = 8;

/**
 * Finds subgraphs in a graph module's source the way it is usually written: builders chained
 * from `new StateGraph(...)` and kept in module-level constants, nodes added with
 * `.addNode("name", <graph expression>)`, the exported graph compiled from one of them. A node
 * whose expression starts from another such constant is a subgraph; its own nodes are searched
 * in turn. Only the source is read: whether a node really is a graph is left to the types.
 */
export function findSubgraphDeclarations(
  ts: typeof TypeScript,
  sourceFile: TypeScript.SourceFile,
  exportName: string,
): SubgraphDeclaration[] {
  const nodesByBuilder = new Map<string, Array<{ name: string; expression: TypeScript.Expression }>>();
  const initializers = new Map<string, TypeScript.Expression>();

  const visit = (node: TypeScript.Node): void => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
      initializers.set(node.name.text, node.initializer);
    }
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.name.text === "addNode" &&
      node.arguments.length >= 2 &&
      ts.isStringLiteralLike(node.arguments[0]!)
    ) {
      const owner = owningConstant(ts, node);
      if (owner !== null) {
        const list = nodesByBuilder.get(owner) ?? [];
        list.push({ name: node.arguments[0].text, expression: node.arguments[1]! });
        nodesByBuilder.set(owner, list);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);

  const exported = initializers.get(exportName);
  // `export const graph = builder.compile()` names its builder; a chain built in place is its own.
  const root = exported === undefined ? null : (rootIdentifier(ts, exported) ?? exportName);
  const found: SubgraphDeclaration[] = [];
  const walk = (builder: string, prefix: string, depth: number) => {
    if (depth > MAX_DEPTH) return;
    for (const { name, expression } of nodesByBuilder.get(builder) ?? []) {
      const child = rootIdentifier(ts, expression);
      if (child === null || !nodesByBuilder.has(child)) continue;
      const namespace = prefix === "" ? name : `${prefix}|${name}`;
      found.push({ namespace, expression: expression.getText(sourceFile) });
      walk(child, namespace, depth + 1);
    }
  };
  if (root !== null) walk(root, "", 0);
  return found;
}

/** The module-level constant a chained builder call belongs to: `const x = new StateGraph()...`. */
function owningConstant(ts: typeof TypeScript, call: TypeScript.Node): string | null {
  let node: TypeScript.Node = call;
  while (node.parent && (ts.isPropertyAccessExpression(node.parent) || ts.isCallExpression(node.parent))) node = node.parent;
  const declaration = node.parent;
  if (declaration && ts.isVariableDeclaration(declaration) && ts.isIdentifier(declaration.name)) return declaration.name.text;
  // `builder.addNode(...)` as a statement of its own adds to `builder`.
  return rootIdentifier(ts, call as TypeScript.Expression);
}

/** `a.b().c()` → `a`; `new X()` and anything else → null. */
function rootIdentifier(ts: typeof TypeScript, expression: TypeScript.Expression): string | null {
  let current: TypeScript.Expression = expression;
  for (;;) {
    if (ts.isIdentifier(current)) return current.text;
    if (ts.isCallExpression(current) || ts.isPropertyAccessExpression(current) || ts.isParenthesizedExpression(current)) {
      current = current.expression;
      continue;
    }
    if (ts.isAwaitExpression(current)) {
      current = current.expression;
      continue;
    }
    return null;
  }
}
