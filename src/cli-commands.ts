import { parseArgs } from "node:util";
import { loadConfig } from "./config.js";
import { limitHeapGrowth } from "./heap-growth.js";
import { createLogger } from "./logger.js";
import { HANGAR_VERSION } from "./version.js";

const HELP = `hangar ${HANGAR_VERSION}: a self-hosted server for LangGraph.js agents

Usage:
  hangar serve [--config ./langgraph.json] [--port 2024] [--no-worker] [--no-cron]
                    serve the API (REST, GraphQL), execute runs and fire crons; --no-worker
                    executes no runs, --no-cron fires no crons (every process may fire them:
                    each slot fires once per database)
  hangar dev [same options as serve]
                    serve, and restart the server whenever a file of the deployment (the folder
                    of langgraph.json, less node_modules and hidden folders) changes
  hangar worker [--config ./langgraph.json] [--no-cron]
                    execute runs and fire crons (no HTTP), beside API processes on the same database
  hangar migrate    apply database migrations and exit
  hangar prices export [FILE]
                    write the model price table as JSON to FILE (default: stdout)
  hangar prices import FILE
                    replace the model price table with FILE's (all or nothing: a file with
                    any bad row is refused whole, naming the row)
  hangar --help | --version

Environment:
  DATABASE_URL      PostgreSQL connection string (unset: embedded database in ./.hangar)
  HANGAR_DATA_DIR   embedded database directory (default .hangar)
  HOST, PORT        listen address (default 127.0.0.1:2024)
  HANGAR_API_KEYS   comma-separated API keys; unset leaves the API open
  REDIS_URL         fan run events out across processes (needed when API and worker are split)
  HANGAR_METRICS_PORT  serve /metrics, /ok and /ready on their own port (unauthenticated)
  HANGAR_WORKER_CONCURRENCY  runs executed at once per process (default 16)
  HANGAR_CRON_BATCH_SIZE     crons fired per transaction (default 1000)
  HANGAR_CRON_POLL_MS        the cron scheduler's safety-net poll (default 30000)
  LOG_LEVEL         fatal|error|warn|info|debug|trace (default info)
`;

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      config: { type: "string", short: "c" },
      port: { type: "string", short: "p" },
      help: { type: "boolean", short: "h" },
      version: { type: "boolean", short: "v" },
      "no-worker": { type: "boolean" },
      "no-cron": { type: "boolean" },
    },
  });
  if (values.version) {
    process.stdout.write(`${HANGAR_VERSION}\n`);
    return 0;
  }
  const command = positionals[0];
  if (values.help || !command) {
    process.stdout.write(HELP);
    return values.help ? 0 : 1;
  }
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) {
    process.stderr.write(`--port must be a port number, got '${values.port}'\n`);
    return 1;
  }
  const cron = !values["no-cron"];
  const roles = command === "worker" ? { api: false, worker: true, cron } : { api: true, worker: !values["no-worker"], cron };
  const config = loadConfig(process.env, { configPath: values.config, port, roles });
  const log = createLogger(config.logLevel);

  if (command === "migrate") {
    // Only the database layer: loading the whole server would double this command's start-up.
    const { migrateOnly } = await import("./db/migrate.js");
    await migrateOnly(config, log);
    return 0;
  }
  if (command === "prices") return runPricesCommand(config, positionals.slice(1));
  if (command === "dev") {
    const { runDevMode } = await import("./dev-mode.js");
    const serveArgs = ["--config", config.deploymentConfigPath, ...(port === undefined ? [] : ["--port", String(port)])];
    if (values["no-worker"]) serveArgs.push("--no-worker");
    if (values["no-cron"]) serveArgs.push("--no-cron");
    await runDevMode({ deploymentConfigPath: config.deploymentConfigPath, dataDir: config.dataDir, serveArgs, log });
    return -1; // keep running
  }
  if (command !== "serve" && command !== "worker") {
    process.stderr.write(`Unknown command '${command}'.\n\n${HELP}`);
    return 1;
  }
  // Before the server loads: its start-up allocations are under the same rule.
  limitHeapGrowth();
  const { startHangar } = await import("./main.js");
  const hangar = await startHangar(config, log);
  // First signal: graceful shutdown; a second one forces the exit.
  let signalled = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (signalled) {
      log.warn({ signal }, "second signal: exiting now");
      process.exit(1);
    }
    signalled = true;
    log.info({ signal }, "shutting down");
    const deadline = setTimeout(() => {
      log.error("shutdown deadline passed: exiting");
      process.exit(1);
    }, config.shutdownGraceMs + 5_000);
    deadline.unref();
    hangar.close().then(
      () => process.exit(0),
      (error) => {
        log.error({ err: error }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
  // Started by `hangar dev`: if that process dies without passing a signal on, stop too.
  if (process.connected) process.once("disconnect", () => onSignal("SIGTERM"));
  return -1; // keep running
}

/**
 * `hangar prices export|import`: like `migrate`, only the database layer is loaded. The database
 * is migrated first, so a fresh one can receive a table at once. Logs are written to stdout
 * too, so they are silenced when the table goes there: the output stays valid JSON.
 */
async function runPricesCommand(config: ReturnType<typeof loadConfig>, args: string[]): Promise<number> {
  const [action, file] = args;
  if ((action !== "export" && action !== "import") || (action === "import" && !file) || args.length > 2) {
    process.stderr.write(`Usage: hangar prices export [FILE] | hangar prices import FILE\n`);
    return 1;
  }
  const [{ readFile, writeFile }, { openDatabase }, { migrateDatabase }, priceFile] = await Promise.all([
    import("node:fs/promises"),
    import("./db/database.js"),
    import("./db/migrate.js"),
    import("./services/model-prices/price-file.js"),
  ]);
  const log = createLogger(action === "export" && !file ? "silent" : config.logLevel);
  // Read and parse before touching the database: a missing or malformed file changes nothing.
  const document = action === "import" ? parseJsonFile(await readFile(file!, "utf8"), file!) : undefined;
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }, log);
  try {
    await migrateDatabase(db, log);
    if (action === "import") {
      const { removed, imported } = await priceFile.importPriceFile(db, document, new Date());
      process.stderr.write(`imported ${imported} prices from ${file} (replacing ${removed})\n`);
      return 0;
    }
    const text = `${JSON.stringify(await priceFile.exportPriceFile(db), null, 2)}\n`;
    if (file) await writeFile(file, text);
    else process.stdout.write(text);
    return 0;
  } finally {
    await db.close();
  }
}

function parseJsonFile(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`${file} is not JSON: ${(error as Error).message}`);
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (error: unknown) => {
    process.stderr.write(`hangar: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
