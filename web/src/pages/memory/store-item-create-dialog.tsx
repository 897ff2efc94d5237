import { useMemo, useState, type FormEvent } from "react";
import { execute } from "../../api/graphql-client.js";
import { useAction } from "../../api/use-query.js";
import { Dialog } from "../../components/dialog.js";
import { ErrorBanner } from "../../components/feedback.js";
import { JsonEditor } from "../../components/json-editor.js";
import { PutStoreItemDocument } from "../../generated/graphql.js";
import { parseJsonObject } from "../../lib/json-input.js";
import { parseNamespace, parseTtlMinutes } from "../../lib/store-namespace.js";
import type { ItemRef } from "./use-namespace-level.js";

interface CreateProps {
  initialNamespace: string;
  onClose: () => void;
  onCreated: (item: ItemRef) => void;
}

/** A new item (or a replacement: putting an existing key overwrites it, as store.put does). */
export function StoreItemCreateDialog({ initialNamespace, onClose, onCreated }: CreateProps) {
  const [namespaceText, setNamespaceText] = useState(initialNamespace);
  const [key, setKey] = useState("");
  const [valueText, setValueText] = useState("{\n  \n}");
  const [ttlText, setTtlText] = useState("");
  const namespace = parseNamespace(namespaceText);
  const value = useMemo(() => parseJsonObject(valueText), [valueText]);
  const ttl = parseTtlMinutes(ttlText);
  const [isTouched, setTouched] = useState(false);

  const create = useAction(async () => {
    if (!namespace.ok || !value.ok || !ttl.ok) return null;
    const result = await execute(PutStoreItemDocument, {
      input: { namespace: namespace.labels, key: key.trim(), value: value.value, ...(ttl.minutes === null ? {} : { ttl: ttl.minutes }) },
    });
    return { namespace: result.putStoreItem.storeItem.namespace, key: result.putStoreItem.storeItem.key };
  });
  const isValid = namespace.ok && key.trim() !== "" && value.ok && ttl.ok;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!isValid) return;
    const created = await create.run();
    if (created) onCreated(created);
  };

  const namespaceError = !namespace.ok && (isTouched || namespaceText !== "") ? namespace.message : null;
  const keyError = isTouched && key.trim() === "" ? "A key is needed." : null;
  return (
    <Dialog title="New memory item" onClose={onClose} size="wide">
      <form className="form" onSubmit={submit} noValidate>
        <div className="form-row">
          <div className="field">
            <label htmlFor="memory-namespace">Namespace</label>
            <input
              id="memory-namespace"
              className="code-input"
              value={namespaceText}
              placeholder="users.alice.memories"
              autoComplete="off"
              spellCheck={false}
              aria-invalid={namespaceError !== null}
              onChange={(event) => setNamespaceText(event.target.value)}
            />
            {namespaceError ? <p className="field-error">{namespaceError}</p> : <p className="field-hint">Labels separated by dots or slashes.</p>}
          </div>
          <div className="field">
            <label htmlFor="memory-key">Key</label>
            <input
              id="memory-key"
              className="code-input"
              value={key}
              autoComplete="off"
              spellCheck={false}
              aria-invalid={keyError !== null}
              onChange={(event) => setKey(event.target.value)}
            />
            {keyError ? <p className="field-error">{keyError}</p> : <p className="field-hint">An existing key is replaced.</p>}
          </div>
        </div>
        <JsonEditor label="Value" value={valueText} onChange={setValueText} parsed={value} rows={10} hint="A JSON object." />
        <div className="field">
          <label htmlFor="memory-ttl">TTL in minutes (optional)</label>
          <input id="memory-ttl" inputMode="decimal" value={ttlText} aria-invalid={!ttl.ok} onChange={(event) => setTtlText(event.target.value)} />
          {ttl.ok ? <p className="field-hint">Empty: the deployment's default (store.ttl), if it has one.</p> : <p className="field-error">{ttl.message}</p>}
        </div>
        <ErrorBanner error={create.error} />
        <div className="form-actions">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button button-primary" disabled={create.isPending || (isTouched && !isValid)}>
            {create.isPending ? "Creating…" : "Create item"}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
