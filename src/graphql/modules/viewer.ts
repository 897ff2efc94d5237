import type { Actor } from "../../services/service-context.js";
import { builder } from "../builder.js";

/**
 * Who the API sees: the user the deployment's custom `authenticate` returned, or an API-key
 * holder, or an anonymous caller (a deployment without keys or custom auth). The console shows it
 * and clients use it to check a token before they act.
 */
const ViewerRef = builder.objectRef<Actor>("Viewer").implement({
  fields: (t) => ({
    kind: t.string({
      description: "`user` (custom auth), `api-key` (a HANGAR_API_KEYS key) or `anonymous` (an open deployment).",
      resolve: (actor) => actor.kind,
    }),
    identity: t.string({ nullable: true, resolve: (actor) => actor.user?.identity ?? null }),
    displayName: t.string({ nullable: true, resolve: (actor) => actor.user?.display_name ?? null }),
    permissions: t.stringList({ resolve: (actor) => actor.user?.permissions ?? [] }),
    isAuthenticated: t.boolean({ resolve: (actor) => actor.kind !== "anonymous" && actor.user?.is_authenticated !== false }),
  }),
});

builder.queryField("viewer", (t) =>
  t.field({
    type: ViewerRef,
    description: "The caller, as authentication decided.",
    resolve: (_root, _args, ctx) => ctx.services.actor,
  }),
);
