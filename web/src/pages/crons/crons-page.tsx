import { useMemo, useState } from "react";
import { execute } from "../../api/graphql-client.js";
import { useAction, useQuery } from "../../api/use-query.js";
import { ConfirmDialog } from "../../components/confirm-dialog.js";
import { CursorPager, useCursorPages } from "../../components/cursor-pager.js";
import { EmptyState, ErrorBanner, Loading } from "../../components/feedback.js";
import { PageHeader } from "../../components/page-header.js";
import { CronListDocument, DeleteCronDocument, type CronRowFragment } from "../../generated/graphql.js";
import { formatZonedDateTime } from "../../lib/cron-times.js";
import { CronCreateDialog } from "./cron-create-dialog.js";
import { CronsTable } from "./crons-table.js";
import { useCronToggle } from "./use-cron-toggle.js";
import { countOf } from "../../lib/format.js";

const PAGE_SIZE = 50;
// Next runs and last runs change when crons fire, at most once a minute each: re-read every 10 s.
const POLL_MS = 10_000;

/** Every cron, newest first, paged with cursors. */
export function CronsPage() {
  const [enabled, setEnabled] = useState<"" | "true" | "false">("");
  const pages = useCursorPages(PAGE_SIZE);
  const [isCreating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<CronRowFragment | null>(null);
  const list = useQuery(CronListDocument, { first: PAGE_SIZE, after: pages.after, enabled: enabled === "" ? null : enabled === "true" }, { pollMs: POLL_MS });
  const crons = list.data?.crons;

  const rows = useMemo(() => crons?.edges.map((edge) => edge.node), [crons]);
  const toggle = useCronToggle(rows, list.refetch);
  const remove = useAction(async (cronId: string) => {
    await execute(DeleteCronDocument, { input: { cronId } });
    setDeleting(null);
    list.refetch();
  });

  const filterBy = (value: typeof enabled) => {
    setEnabled(value);
    pages.reset();
  };
  return (
    <div className="page">
      <PageHeader
        title="Crons"
        subtitle="Runs an assistant on a schedule, on one thread or on a new thread each time."
        actions={
          <button type="button" className="button button-primary" onClick={() => setCreating(true)}>
            New cron
          </button>
        }
      />
      <div className="toolbar">
        <label className="inline-field">
          Show
          <select value={enabled} onChange={(event) => filterBy(event.target.value as typeof enabled)}>
            <option value="">all crons</option>
            <option value="true">enabled only</option>
            <option value="false">paused only</option>
          </select>
        </label>
        {crons && <span className="toolbar-count">{countOf(crons.totalCount, "cron")}</span>}
      </div>
      <ErrorBanner error={list.error} onRetry={list.refetch} />
      <ErrorBanner error={toggle.error} />
      {!crons && list.isLoading && <Loading />}
      {crons && crons.edges.length === 0 && pages.pageIndex === 0 && (
        <EmptyState title={enabled ? "No cron matches" : "No crons yet"}>
          {!enabled && "Create one to run an assistant every morning, every hour, or on any cron schedule."}
        </EmptyState>
      )}
      {toggle.crons && toggle.crons.length > 0 && (
        <CronsTable
          crons={toggle.crons}
          lockedIds={toggle.lockedIds}
          onToggle={(cron) => void toggle.toggle(cron)}
          onDelete={(cron) => {
            remove.clearError();
            setDeleting(cron);
          }}
        />
      )}
      <CursorPager pages={pages} page={crons} />
      {isCreating && (
        <CronCreateDialog
          onClose={() => setCreating(false)}
          onCreated={() => {
            setCreating(false);
            pages.reset();
            list.refetch();
          }}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title="Delete this cron?"
          confirmLabel="Delete cron"
          isPending={remove.isPending}
          error={remove.error}
          onConfirm={() => void remove.run(deleting.cronId)}
          onClose={() => setDeleting(null)}
        >
          <p>
            <code>{deleting.schedule}</code> ({deleting.timezone}) for {deleting.assistant?.name ?? "a deleted assistant"} fires no more
            {deleting.nextRunAt ? `; it was next due ${formatZonedDateTime(deleting.nextRunAt, deleting.timezone)}` : ""}. The runs it
            already queued stay.
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}
