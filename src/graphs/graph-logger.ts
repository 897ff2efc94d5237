import { AsyncLocalStorage } from "node:async_hooks";
import type { Logger } from "../logger.js";

/**
 * `getLogger()` from `@langchain/langgraph-sdk/logging` returns whatever the server registered
 * under this global symbol (the SDK's only registration mechanism; the official server sets it
 * the same way). It is a registered symbol, so every copy of the SDK, including the one a
 * deployment resolves from its own node_modules, finds the same logger.
 */
const SDK_LOGGER_SYMBOL = Symbol.for("langgraph.api.sdk-logger");

type LogFields = Record<string, unknown>;

// Run ids of the run being executed; graphs call getLogger() once at import, so the ids cannot
// be bound into the logger they get and are read from the async context at each call instead.
const runLogFields = new AsyncLocalStorage<LogFields>();

/** Runs `fn` with `fields` (run_id, thread_id, …) attached to every graph log line inside it. */
export function withGraphLogFields<T>(fields: LogFields, fn: () => T): T {
  return runLogFields.run(fields, fn);
}

// The SDK's Logger has winston's levels; pino has fewer, so the extra ones map to the nearest.
const LEVELS = {
  error: "error",
  warn: "warn",
  help: "info",
  data: "info",
  info: "info",
  debug: "debug",
  prompt: "info",
  http: "info",
  verbose: "debug",
  input: "info",
  silly: "trace",
} as const;

type SdkLogMethod = (messageOrObject: unknown, ...meta: unknown[]) => SdkLogger;
export type SdkLogger = Record<keyof typeof LEVELS, SdkLogMethod>;

/** The SDK-shaped logger for graph code, writing through Hangar's pino logger. */
export function createSdkLogger(log: Logger): SdkLogger {
  const graphLog = log.child({ component: "graph" });
  const logger = {} as SdkLogger;
  for (const [method, level] of Object.entries(LEVELS) as Array<[keyof typeof LEVELS, (typeof LEVELS)[keyof typeof LEVELS]]>) {
    logger[method] = (messageOrObject, ...meta) => {
      const fields: LogFields = { ...runLogFields.getStore() };
      let message: string | undefined;
      if (typeof messageOrObject === "string") {
        message = messageOrObject;
      } else if (messageOrObject instanceof Error) {
        fields.err = messageOrObject;
      } else if (typeof messageOrObject === "object" && messageOrObject !== null) {
        // winston's info object: `message` is the line, the rest are fields.
        const { message: objectMessage, ...rest } = messageOrObject as LogFields;
        Object.assign(fields, rest);
        if (objectMessage !== undefined) message = String(objectMessage);
      } else {
        message = String(messageOrObject);
      }
      for (const extra of meta) {
        if (extra instanceof Error) fields.err = extra;
        else if (typeof extra === "object" && extra !== null) Object.assign(fields, extra);
        else fields.meta = [...((fields.meta as unknown[] | undefined) ?? []), extra];
      }
      if (message === undefined) graphLog[level](fields);
      else graphLog[level](fields, message);
      return logger;
    };
  }
  return logger;
}

/** Makes `getLogger()` work in graph modules; must run before they are imported. */
export function registerSdkLogger(log: Logger): void {
  (globalThis as Record<symbol, unknown>)[SDK_LOGGER_SYMBOL] = createSdkLogger(log);
}
