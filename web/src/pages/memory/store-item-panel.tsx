import { useEffect, useMemo, useRef, useState, type FormEvent } from "react";
import { execute } from "../../api/graphql-client.js";
import { useAction, useQuery } from "../../api/use-query.js";
import { ConfirmDialog } from "../../components/confirm-dialog.js";
import { ErrorBanner, Loading } from "../../components/feedback.js";
import { JsonEditor } from "../../components/json-editor.js";
import { JsonView } from "../../components/json-view.js";
import { TimeUntil } from "../../components/time-ago.js";
import { DeleteStoreItemDocument, PutStoreItemDocument, StoreItemDocument, type StoreItemDetailFragment } from "../../generated/graphql.js";
import { formatDateTime } from "../../lib/format.js";
import { parseJsonObject, prettyJson } from "../../lib/json-input.js";
import { minutesUntil, namespacePath, parseTtlMinutes } from "../../lib/store-namespace.js";
import type { ItemRef } from "./use-namespace-level.js";

interface PanelProps {
  item: ItemRef;
  onSaved: () => void;
  onDeleted: () => void;
}

/** One item: its value and times, edited as JSON in place, deleted after asking. */
export function StoreItemPanel({ item, onSaved, onDeleted }: PanelProps) {
  const detail = useQuery(StoreItemDocument, { namespace: item.namespace, key: item.key });
  const [isEditing, setEditing] = useState(false);
  const [isDeleting, setDeleting] = useState(false);
  const current = detail.data?.storeItem;
  // On a narrow screen the panel sits under the tree and the search: bring the chosen item into view.
  const panel = useRef<HTMLElement>(null);
  const isLoaded = current != null;
  useEffect(() => {
    panel.current?.scrollIntoView({ block: "nearest" });
  }, [isLoaded]);
  const remove = useAction(async () => {
    await execute(DeleteStoreItemDocument, { input: { namespace: item.namespace, key: item.key } });
    setDeleting(false);
    onDeleted();
  });

  const title = (
    <h2 className="panel-title memory-item-title">
      <span className="muted">{namespacePath(item.namespace)} /</span> <code>{item.key}</code>
    </h2>
  );
  if (!current) {
    return (
      <section ref={panel} className="panel memory-item" aria-label="Item">
        {title}
        <ErrorBanner error={detail.error} onRetry={detail.refetch} />
        {detail.isLoading && <Loading />}
        {detail.data && !current && <p className="muted">This item no longer exists (deleted, or its TTL ran out).</p>}
      </section>
    );
  }
  return (
    <section ref={panel} className="panel memory-item" aria-label="Item">
      <div className="memory-item-header">
        {title}
        {!isEditing && (
          <div className="page-actions">
            <button type="button" className="button" onClick={() => setEditing(true)}>
              Edit
            </button>
            <button
              type="button"
              className="button button-danger-quiet"
              onClick={() => {
                remove.clearError();
                setDeleting(true);
              }}
            >
              Delete
            </button>
          </div>
        )}
      </div>
      <dl className="facts">
        <dt>Created</dt>
        <dd>
          <time dateTime={current.createdAt}>{formatDateTime(current.createdAt)}</time>
        </dd>
        <dt>Updated</dt>
        <dd>
          <time dateTime={current.updatedAt}>{formatDateTime(current.updatedAt)}</time>
        </dd>
        <dt>Expires</dt>
        <dd data-testid="item-expiry">
          {current.expiresAt ? (
            <>
              <TimeUntil iso={current.expiresAt} /> <span className="muted">({formatDateTime(current.expiresAt)})</span>
            </>
          ) : (
            "never (no TTL)"
          )}
        </dd>
      </dl>
      {isEditing ? (
        <StoreItemEditor
          item={current}
          onCancel={() => setEditing(false)}
          onSaved={() => {
            setEditing(false);
            detail.refetch();
            onSaved();
          }}
        />
      ) : (
        <JsonView value={current.value} label="Value" />
      )}
      {isDeleting && (
        <ConfirmDialog
          title="Delete this item?"
          confirmLabel="Delete item"
          isPending={remove.isPending}
          error={remove.error}
          onConfirm={() => void remove.run()}
          onClose={() => setDeleting(false)}
        >
          <p>
            <code>{item.key}</code> in <code>{namespacePath(item.namespace)}</code> is removed from the store; graphs no longer find it.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}

/**
 * The value as JSON text (it must stay an object) and the TTL. An item without expiry is saved
 * with neverExpires, so an edit never gives it the deployment's default TTL by surprise.
 */
function StoreItemEditor({ item, onCancel, onSaved }: { item: StoreItemDetailFragment; onCancel: () => void; onSaved: () => void }) {
  const [text, setText] = useState(() => prettyJson(item.value));
  const [ttlText, setTtlText] = useState(() => (item.expiresAt ? String(minutesUntil(item.expiresAt)) : ""));
  const parsed = useMemo(() => parseJsonObject(text), [text]);
  const ttl = parseTtlMinutes(ttlText);
  const save = useAction(async () => {
    if (!parsed.ok || !ttl.ok) return null;
    await execute(PutStoreItemDocument, {
      input: { namespace: item.namespace, key: item.key, value: parsed.value, ...(ttl.minutes === null ? { neverExpires: true } : { ttl: ttl.minutes }) },
    });
    return true;
  });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (parsed.ok && ttl.ok && (await save.run())) onSaved();
  };
  return (
    <form className="form" onSubmit={submit} noValidate aria-label="Edit item">
      <JsonEditor label="Value" value={text} onChange={setText} parsed={parsed} rows={12} hint="A JSON object." />
      <div className="field">
        <label htmlFor="memory-edit-ttl">TTL in minutes</label>
        <input id="memory-edit-ttl" inputMode="decimal" value={ttlText} aria-invalid={!ttl.ok} onChange={(event) => setTtlText(event.target.value)} />
        {ttl.ok ? <p className="field-hint">Counted from the save; empty: never expires.</p> : <p className="field-error">{ttl.message}</p>}
      </div>
      <ErrorBanner error={save.error} />
      <div className="form-actions">
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="button button-primary" disabled={!parsed.ok || !ttl.ok || save.isPending}>
          {save.isPending ? "Saving…" : "Save"}
        </button>
      </div>
    </form>
  );
}
