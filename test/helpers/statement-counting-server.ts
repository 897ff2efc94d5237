import { SqlCountingProxy, databaseTarget, viaPort } from "../../bench/bench-kit.js";
import { createTestDatabase, type TestDatabase } from "./test-database.js";
import { startTestServer, type TestServer } from "./test-server.js";

export interface StatementCountingServer {
  database: TestDatabase;
  /** Counts the statements and round trips between the server and PostgreSQL. */
  proxy: SqlCountingProxy;
  server: TestServer;
  close(): Promise<void>;
}

/**
 * An API-only server (no worker, no cron scheduler: nothing else queries meanwhile) that reaches
 * its own database through a wire proxy counting what it sends, for tests of how many round trips
 * an operation takes.
 */
export async function startStatementCountingServer(): Promise<StatementCountingServer> {
  const database = await createTestDatabase();
  const proxy = new SqlCountingProxy(databaseTarget(database.url));
  let server: TestServer | undefined;
  const close = async () => {
    await server?.close();
    await proxy.close();
    await database.retire();
  };
  try {
    const port = await proxy.listen();
    server = await startTestServer({ database: { ...database, url: viaPort(database.url, port) }, roles: { api: true, worker: false, cron: false } });
    // Start-up announces the system assistants it created to other processes (one NOTIFY up to
    // 50 ms later): sent now, it cannot land in a test's count (a CI run counted it in a
    // cron tick's statements after a quick setup).
    await server.hangar.runtime.db.flushAnnouncements();
    return { database, proxy, server, close };
  } catch (error) {
    await close();
    throw error;
  }
}
