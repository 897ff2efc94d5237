import { CRON_FIRING_STATUSES, CRON_FIRINGS_KEPT, type CronFiring } from "../../../domain/cron.js";
import { builder } from "../../builder.js";
import { resolveListPage } from "../../pagination.js";
import { enumValuesOf } from "../enums.js";
import { RunRef } from "../run/run.js";
import { CronRef } from "./cron.js";

const CronFiringStatus = builder.enumType("CronFiringStatus", {
  description: "Its run's status; REFUSED: a busy thread refused the firing (multitask strategy REJECT); DELETED: the run went before it finished.",
  values: enumValuesOf(CRON_FIRING_STATUSES),
});

const CronFiringRef = builder.objectRef<CronFiring>("CronFiring");

CronFiringRef.implement({
  description: "One firing of a cron and how its run went; kept after a stateless cron's run and thread are deleted.",
  fields: (t) => ({
    runId: t.exposeID("runId", { nullable: true, description: "The run it queued; null when refused." }),
    threadId: t.exposeID("threadId", { nullable: true }),
    status: t.expose("status", { type: CronFiringStatus }),
    firedAt: t.expose("firedAt", { type: "DateTime" }),
    startedAt: t.expose("startedAt", { type: "DateTime", nullable: true, description: "When its run started running." }),
    endedAt: t.expose("endedAt", { type: "DateTime", nullable: true }),
    error: t.expose("error", { type: "JSONObject", nullable: true, description: "The run's error, when it failed." }),
    run: t.field({
      type: RunRef,
      nullable: true,
      description: "The run while it exists (batched); null once deleted (a stateless cron's, by default).",
      resolve: (firing, _args, ctx) => (firing.runId ? ctx.loaders.run.load(firing.runId) : null),
    }),
  }),
});

builder.objectFields(CronRef, (t) => ({
  lastFiring: t.field({
    type: CronFiringRef,
    nullable: true,
    description: "The newest firing (batched); unlike lastRun it survives a stateless cron's run deletion. null before the first firing.",
    resolve: async (cron, _args, ctx) => (await ctx.loaders.cronFirings.load(cron.cronId)).firings[0] ?? null,
  }),
  firings: t.connection(
    {
      type: CronFiringRef,
      description: `Its firings, newest first (each cron keeps its newest ${CRON_FIRINGS_KEPT}; batched across crons).`,
      resolve: async (cron, args, ctx) => {
        const { firings, total } = await ctx.loaders.cronFirings.load(cron.cronId);
        return { ...resolveListPage(args, firings), totalCount: () => total };
      },
    },
    { name: "CronFiringConnection" },
    { name: "CronFiringEdge" },
  ),
}));
