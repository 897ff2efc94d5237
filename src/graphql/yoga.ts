import { createYoga, type YogaLogger, type YogaServerInstance } from "graphql-yoga";
import { mountPrefixOf } from "../http/mount-prefix.js";
import type { Logger } from "../logger.js";
import type { HangarRuntime } from "../runtime.js";
import { createGraphqlContext, type GraphqlContext, type GraphqlServerContext } from "./context.js";
import { createErrorMasker } from "./errors.js";
import { schema } from "./schema.js";
import { useBoundedInput } from "./bounded-input.js";
import { useQueryLimits } from "./query-limits.js";
import { useStorableInput } from "./storable-input.js";

export type GraphqlServer = YogaServerInstance<GraphqlServerContext, GraphqlContext>;

/**
 * GraphQL over HTTP at /graphql (plus SSE subscriptions and GraphiQL on GET), mounted by
 * http/http-app.ts after it has authenticated the caller and checked the declared body size;
 * the WebSocket transport (websocket.ts) goes through the same instance's `getEnveloped`.
 */
export function createGraphqlServer(runtime: HangarRuntime): GraphqlServer {
  return createYoga<GraphqlServerContext, GraphqlContext>({
    schema,
    // Yoga matches the request's own URL, which keeps http.mount_prefix (graphql-ws compares it too).
    graphqlEndpoint: `${mountPrefixOf(runtime.deployment)}/graphql`,
    context: ({ actor, log }) => createGraphqlContext(runtime, { actor, log }),
    // Masking stays on in every environment; only the detail attached to a masked error depends
    // on NODE_ENV=development.
    maskedErrors: { maskError: createErrorMasker(runtime.log), isDev: runtime.config.isDevelopment },
    graphiql: { title: "Hangar", subscriptionsProtocol: "WS" },
    // GraphiQL's page from the installed package (scripts, styles and editor workers inline):
    // Yoga's default loads them from a CDN, which a self-hosted network without egress never reaches.
    // Imported on the first page request, not at start-up: the module is 9 MB of source holding a
    // 10 MB string, ~29 MB of the idle server's ~93 MB live heap, which V8 lets grow to a multiple
    // of what is live before it collects (test/architecture/lazy-modules.test.ts).
    renderGraphiQL: async (options) => (await import("@graphql-yoga/render-graphiql")).renderGraphiQL(options),
    landingPage: false,
    // CORS is the HTTP layer's decision (deployment config http.cors), not Yoga's permissive default.
    cors: false,
    // The HTTP layer rejects a too-large Content-Length; this also bounds chunked bodies.
    maxRequestBodySize: runtime.config.maxBodyBytes,
    logging: yogaLogger(runtime.log.child({ component: "graphql" })),
    // Bounded input first: the document's nesting is checked before anything parses it, and the
    // storable-text walk after it recurses through variables.
    plugins: [useBoundedInput(runtime.log), ...useQueryLimits(runtime.config.graphqlLimits, runtime.db, runtime.log), useStorableInput(runtime.log)],
  });
}

/**
 * Yoga's own log lines into pino. Yoga logs at error exactly when it masks an error, which the
 * masker has already logged at the right level (warn for AppErrors), so those go to debug.
 */
function yogaLogger(log: Logger): YogaLogger {
  const write = (level: "debug" | "info" | "warn") => (...args: unknown[]) => {
    const [first, ...rest] = args;
    if (first instanceof Error) log[level]({ err: first }, first.message);
    else log[level](rest.length > 0 ? { details: rest } : {}, String(first));
  };
  return { debug: write("debug"), info: write("info"), warn: write("warn"), error: write("debug") };
}
