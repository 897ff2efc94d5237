import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createErrorMasker } from "../../src/graphql/errors.js";
import { createLogger } from "../../src/logger.js";
import { NotFoundError } from "../../src/domain/errors.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

const API_KEY = "http-test-key";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ apiKeys: [API_KEY] });
});

afterAll(async () => {
  await server?.close();
});

describe("GraphQL over HTTP", () => {
  it("serves GraphiQL to a browser on GET /graphql", async () => {
    const response = await server.request("/graphql", { headers: { accept: "text/html" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/html");
    const page = await response.text();
    expect(page).toContain("Hangar");
    // The page of the installed package (imported on first use, yoga.ts), not Yoga's default from a CDN.
    expect(page).not.toContain("unpkg.com");
    expect(page).toContain("renderYogaGraphiQL");
  });

  it("requires the API key like every other route", async () => {
    const response = await fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "{ __typename }" }),
    });
    expect(response.status).toBe(401);
    const allowed = await server.request("/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "{ __typename }" }),
    });
    expect(await allowed.json()).toEqual({ data: { __typename: "Query" } });
  });

  it("runs queries sent with GET, but never mutations", async () => {
    const query = encodeURIComponent('{ assistant(assistantId: "echo") { graphId } }');
    const read = await server.request(`/graphql?query=${query}`);
    expect(await read.json()).toEqual({ data: { assistant: { graphId: "echo" } } });
    const mutation = encodeURIComponent("mutation { createThread(input: {}) { thread { threadId } } }");
    const refused = await server.request(`/graphql?query=${mutation}`);
    expect(refused.status).toBe(405);
  });
});

describe("createErrorMasker", () => {
  const mask = createErrorMasker(createLogger("silent"));

  it("attaches the masked error's detail only in development", () => {
    const secret = new Error("connection string postgres://user:secret@db");
    const production = mask(secret, "Unexpected error.", false) as Error & { extensions?: Record<string, unknown> };
    expect(production.message).toBe("Unexpected error.");
    expect(JSON.stringify(production.extensions)).not.toContain("secret");
    const development = mask(secret, "Unexpected error.", true) as Error & { extensions?: Record<string, unknown> };
    expect(development.message).toBe("Unexpected error.");
    expect(JSON.stringify(development.extensions)).toContain("secret");
  });

  it("never masks an AppError, in any environment", () => {
    const mapped = mask(new NotFoundError("Thread 'x' not found"), "Unexpected error.", false) as Error & {
      extensions?: Record<string, unknown>;
    };
    expect(mapped.message).toBe("Thread 'x' not found");
    expect(mapped.extensions).toEqual({ code: "NOT_FOUND" });
  });
});
