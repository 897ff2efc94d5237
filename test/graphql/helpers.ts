import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import { print, type GraphQLFormattedError } from "graphql";
import type { TestServer } from "../helpers/test-server.js";

export interface OperationResult<TData> {
  status: number;
  data?: TData | null;
  errors?: GraphQLFormattedError[];
}

type VariablesArg<TVariables> = Record<string, never> extends TVariables ? [variables?: TVariables] : [variables: TVariables];

/** Runs a typed operation (test/graphql/generated) over HTTP POST /graphql, like any client. */
export async function executeOperation<TData, TVariables>(
  server: TestServer,
  document: TypedDocumentNode<TData, TVariables>,
  ...[variables]: VariablesArg<TVariables>
): Promise<OperationResult<TData>> {
  const response = await server.request("/graphql", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/graphql-response+json" },
    body: JSON.stringify({ query: print(document), variables: variables ?? {} }),
  });
  const body = (await response.json()) as Omit<OperationResult<TData>, "status">;
  return { status: response.status, ...body };
}

/** Like executeOperation, but fails the test when the operation reports any error. */
export async function executeOk<TData, TVariables>(
  server: TestServer,
  document: TypedDocumentNode<TData, TVariables>,
  ...variables: VariablesArg<TVariables>
): Promise<TData> {
  const result = await executeOperation(server, document, ...variables);
  if (result.errors?.length || result.data == null) {
    throw new Error(`GraphQL operation failed: ${JSON.stringify(result.errors ?? result)}`);
  }
  return result.data;
}

/** The first error's extensions.code, for asserting how a failure was classified. */
export function errorCode(result: OperationResult<unknown>): unknown {
  return result.errors?.[0]?.extensions?.code;
}

export function graphqlWebSocketUrl(server: TestServer, pathname = "/graphql"): string {
  return `${server.url.replace(/^http/, "ws")}${pathname}`;
}
