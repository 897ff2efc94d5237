import { useState } from "react";
import { execute } from "../../api/graphql-client.js";
import { useAction, useQuery } from "../../api/use-query.js";
import { ConfirmDialog } from "../../components/confirm-dialog.js";
import { CursorPager, useCursorPages } from "../../components/cursor-pager.js";
import { ErrorBanner, Loading } from "../../components/feedback.js";
import { PageHeader } from "../../components/page-header.js";
import { type PriceRowFragment, PriceListDocument, RepriceTraceRangeDocument } from "../../generated/graphql.js";
import { countOf, formatDateTime, formatUsd } from "../../lib/format.js";

const PAGE_SIZE = 100;

type Outcome = { repricedRuns: number; changedRuns: number; costDelta: string; dryRun: boolean };

/** The model price table, and re-pricing stored traces after a change (counted first, then confirmed). */
export function PricesPage() {
  const pages = useCursorPages(PAGE_SIZE);
  const list = useQuery(PriceListDocument, { first: PAGE_SIZE, after: pages.after });
  const prices = list.data?.modelPrices;
  const [range, setRange] = useState({ from: "", to: "", model: "" });
  const [preview, setPreview] = useState<Outcome | null>(null);
  const [done, setDone] = useState<Outcome | null>(null);

  const input = () => ({
    from: new Date(range.from).toISOString(),
    to: new Date(range.to).toISOString(),
    model: range.model.trim() || null,
  });
  const count = useAction(async () => {
    setDone(null);
    setPreview((await execute(RepriceTraceRangeDocument, { input: { ...input(), dryRun: true } })).repriceTraces);
  });
  const reprice = useAction(async () => {
    setDone((await execute(RepriceTraceRangeDocument, { input: input() })).repriceTraces);
    setPreview(null);
  });
  const isRangeValid = range.from !== "" && range.to !== "" && new Date(range.from) < new Date(range.to);

  return (
    <div className="page">
      <PageHeader
        title="Prices"
        subtitle="USD per 1M tokens. A price applies to calls after its effective date; stored traces keep their costs until repriced."
      />
      <form
        className="toolbar"
        onSubmit={(event) => {
          event.preventDefault();
          void count.run();
        }}
      >
        <span>Reprice traces from</span>
        <input type="datetime-local" aria-label="Reprice from" value={range.from} onChange={(event) => setRange({ ...range, from: event.target.value })} />
        <span>to</span>
        <input type="datetime-local" aria-label="Reprice to" value={range.to} onChange={(event) => setRange({ ...range, to: event.target.value })} />
        <input type="text" aria-label="Model" placeholder="model (all)" value={range.model} onChange={(event) => setRange({ ...range, model: event.target.value })} />
        <button type="submit" className="button" disabled={!isRangeValid || count.isPending}>
          {count.isPending ? "Counting…" : "Reprice traces…"}
        </button>
        {done && (
          <span className="toolbar-count" data-testid="reprice-result">
            Repriced: {countOf(done.changedRuns, "run")} changed of {done.repricedRuns}, {formatDelta(done.costDelta)}
          </span>
        )}
      </form>
      <ErrorBanner error={count.error} />
      <ErrorBanner error={list.error} onRetry={list.refetch} />
      {!prices && list.isLoading && <Loading />}
      {prices && <p className="toolbar-count">{countOf(prices.totalCount, "price")}</p>}
      {prices && <PricesTable prices={prices.edges.map((edge) => edge.node)} />}
      <CursorPager pages={pages} page={prices} />
      {preview && (
        <ConfirmDialog
          title="Reprice these traces?"
          confirmLabel={`Reprice ${countOf(preview.changedRuns, "run")}`}
          isPending={reprice.isPending}
          error={reprice.error}
          onConfirm={() => void reprice.run()}
          onClose={() => setPreview(null)}
        >
          <p data-testid="reprice-preview">
            {countOf(preview.changedRuns, "LLM run")} of {preview.repricedRuns} in this range {preview.changedRuns === 1 ? "changes" : "change"} cost ({formatDelta(preview.costDelta)}).
            Their old costs are not kept.
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}

function formatDelta(delta: string): string {
  return delta.startsWith("-") ? `−${formatUsd(delta.slice(1))}` : `+${formatUsd(delta)}`;
}

function PricesTable({ prices }: { prices: PriceRowFragment[] }) {
  return (
    <div className="table-scroll">
      <table className="table table-compact" data-testid="price-table">
        <thead>
          <tr>
            <th>Model</th>
            <th>Provider</th>
            <th>Input</th>
            <th>Output</th>
            <th>Cached input</th>
            <th>Tiers</th>
            <th>Effective from</th>
            <th>Source</th>
          </tr>
        </thead>
        <tbody>
          {prices.map((price) => (
            <tr key={price.id}>
              <td title={price.matchPattern}>{price.modelName}</td>
              <td>{price.provider ?? "any"}</td>
              <td>{price.inputPrice}</td>
              <td>{price.outputPrice}</td>
              <td>{(price.inputDetailPrices as Record<string, string>).cache_read ?? ""}</td>
              <td>
                {price.tiers.map((tier) => (
                  <div key={tier.name}>
                    {tier.name}: {tier.inputPrice} / {tier.outputPrice}
                  </div>
                ))}
              </td>
              <td>{new Date(price.effectiveFrom).getTime() === 0 ? "always" : formatDateTime(price.effectiveFrom)}</td>
              <td>{price.sourceUrl ? <a href={price.sourceUrl}>{price.asOf ?? "source"}</a> : ""}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
