import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { print } from "graphql";
import { createClient } from "graphql-ws";
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURE_DEPLOYMENT, startTestServer, type TestServer } from "../helpers/test-server.js";
import { ViewerDocument } from "./generated/graphql.js";
import { graphqlWebSocketUrl } from "./helpers.js";

// A deployment whose opaque tokens (no `exp` Hangar can read) can be revoked while a socket
// stays open (test/fixtures/auth/revocable.ts reads the revoked list at each authentication).
const REVOCABLE_DEPLOYMENT = path.resolve(path.dirname(FIXTURE_DEPLOYMENT), "auth/revocable.langgraph.json");

let server: TestServer;
let folder: string;
let revokedFile: string;

beforeAll(async () => {
  folder = mkdtempSync(path.join(os.tmpdir(), "hangar-revoked-"));
  revokedFile = path.join(folder, "revoked.txt");
  writeFileSync(revokedFile, "");
  process.env.REVOKED_TOKENS_FILE = revokedFile;
  server = await startTestServer({ configPath: REVOCABLE_DEPLOYMENT });
});
afterAll(async () => {
  await server?.close();
  delete process.env.REVOKED_TOKENS_FILE;
  rmSync(folder, { recursive: true, force: true });
});

describe("graphql-ws re-authenticates each operation", () => {
  it("closes the socket (4403) at the first operation after its token was revoked", async () => {
    const socket = createClient({
      url: graphqlWebSocketUrl(server),
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      lazy: false,
      // graphql-ws prints a non-lazy socket's close; the operation's rejection below asserts it.
      onNonLazyError: () => undefined,
      connectionParams: { authorization: "Bearer carol" },
    });
    const viewer = async () => {
      for await (const result of socket.iterate<{ viewer: { identity: string } }>({ query: print(ViewerDocument) })) return result;
      throw new Error("no result");
    };
    try {
      expect((await viewer()).data?.viewer.identity).toBe("carol");
      writeFileSync(revokedFile, "carol\n");
      await expect(viewer()).rejects.toMatchObject({ code: 4403 });
    } finally {
      await socket.dispose();
    }
  });
});
