import { initContextCache } from "@pothos/core";
import type { Logger } from "../logger.js";
import { createServiceContext, type HangarRuntime } from "../runtime.js";
import type { Actor, ServiceContext } from "../services/service-context.js";
import { createLoaders, type Loaders } from "./loaders.js";

/**
 * What a transport hands to Yoga for each request: the HTTP middleware passes it to
 * `graphql.fetch`, the WebSocket upgrade to `getEnveloped`, so both authenticate the same way.
 */
export interface GraphqlServerContext {
  actor: Actor;
  log: Logger;
}

/** The context every resolver receives; a new one per request (or per subscription). */
export interface GraphqlContext {
  services: ServiceContext;
  loaders: Loaders;
}

export function createGraphqlContext(runtime: HangarRuntime, server: GraphqlServerContext): GraphqlContext {
  const services = createServiceContext(runtime, server.actor, server.log);
  return {
    // Pothos keys its per-request caches (relay node cache) on this, so they survive Yoga
    // copying the context object while it extends it.
    ...initContextCache(),
    services,
    loaders: createLoaders(services),
  };
}
