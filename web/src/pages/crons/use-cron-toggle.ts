import { useEffect, useMemo, useState } from "react";
import { execute } from "../../api/graphql-client.js";
import { useAction } from "../../api/use-query.js";
import { SetCronEnabledDocument, type CronRowFragment } from "../../generated/graphql.js";

/**
 * Pause and resume. A switch shows the state asked for, and stays locked, until the list's own
 * data agrees: re-reading the list takes a moment (and a poll already in flight may still answer
 * with the old state), and a controlled checkbox would otherwise flick back meanwhile.
 */
export function useCronToggle(crons: CronRowFragment[] | undefined, refetch: () => void) {
  const [asked, setAsked] = useState<ReadonlyMap<string, boolean>>(new Map());
  useEffect(() => {
    if (!crons) return;
    setAsked((current) => {
      const next = new Map(current);
      for (const cron of crons) if (next.get(cron.cronId) === cron.enabled) next.delete(cron.cronId);
      return next.size === current.size ? current : next;
    });
  }, [crons]);

  const forget = (cronId: string) =>
    setAsked((current) => {
      const next = new Map(current);
      next.delete(cronId);
      return next;
    });
  const toggle = useAction(async (cron: CronRowFragment) => {
    const enabled = !cron.enabled;
    setAsked((current) => new Map(current).set(cron.cronId, enabled));
    try {
      await execute(SetCronEnabledDocument, { cronId: cron.cronId, enabled });
    } catch (error) {
      forget(cron.cronId);
      throw error;
    }
    refetch();
  });

  const shown = useMemo(
    () => crons?.map((cron) => (asked.has(cron.cronId) ? { ...cron, enabled: asked.get(cron.cronId)! } : cron)),
    [crons, asked],
  );
  return { crons: shown, lockedIds: asked, toggle: toggle.run, error: toggle.error };
}
