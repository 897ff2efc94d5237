import fs from "node:fs";
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { startCliProcess, stopCliProcesses } from "../helpers/cli-process.js";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database.js";

// More than Node's default listen backlog (511), fewer than the server's (4096), both capped by
// the kernel's net.core.somaxconn: where that is lower, the backlog cannot be seen this way.
const CONNECTIONS = 800;
const somaxconn = Number(fs.readFileSync("/proc/sys/net/core/somaxconn", "utf8").trim());

/** Resolves once the TCP handshake of every socket completed (the kernel's part of an accept). */
function allConnected(sockets: net.Socket[]): Promise<void> {
  return Promise.all(sockets.map((socket) => new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("error", reject);
  }))).then(() => undefined);
}

describe("hangar serve's listen backlog", () => {
  let database: TestDatabase | undefined;
  let stopped: { kill(signal: NodeJS.Signals): boolean } | undefined;
  const sockets: net.Socket[] = [];

  afterEach(async () => {
    // Resumed first, or it could not hear the SIGTERM that stops it.
    stopped?.kill("SIGCONT");
    for (const socket of sockets) socket.destroy();
    await stopCliProcesses();
    await database?.retire();
  });

  it.skipIf(somaxconn <= CONNECTIONS)(
    "holds a burst of connections the server has not accepted yet, instead of dropping their handshakes",
    async () => {
      database = await createTestDatabase();
      const server = await startCliProcess(["serve", "--config", "test/fixtures/langgraph.json", "--port", "0"], { DATABASE_URL: database.url });
      const { port, hostname } = new URL(server.url!);
      // Stopped, the server accepts nothing: every connection must wait in its backlog. With
      // Node's default backlog, the handshakes past 512 were dropped and this never resolved
      // (their clients would retry only after 1 s, 3 s, 7 s...).
      stopped = server.child;
      server.child.kill("SIGSTOP");
      try {
        for (let index = 0; index < CONNECTIONS; index++) sockets.push(net.connect({ port: Number(port), host: hostname }));
        await allConnected(sockets);
      } finally {
        server.child.kill("SIGCONT");
      }
      expect(sockets.every((socket) => socket.readyState === "open")).toBe(true);
    },
    60_000,
  );
});
