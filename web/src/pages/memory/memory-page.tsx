import { useState } from "react";
import { PageHeader } from "../../components/page-header.js";
import { namespacePath } from "../../lib/store-namespace.js";
import { MemorySearch } from "./memory-search.js";
import { NamespaceTree } from "./namespace-tree.js";
import { StoreItemCreateDialog } from "./store-item-create-dialog.js";
import { StoreItemPanel } from "./store-item-panel.js";
import type { ItemRef } from "./use-namespace-level.js";

/**
 * The Store, the long-term memory graphs share: namespaces as a tree, one item at a time beside
 * it (viewed, edited as JSON, deleted), new items, and semantic search when the deployment has
 * an index. Every change bumps `version`, which re-reads the tree and the search.
 */
export function MemoryPage() {
  const [selected, setSelected] = useState<ItemRef | null>(null);
  const [version, setVersion] = useState(0);
  const [isCreating, setCreating] = useState(false);
  const changed = () => setVersion((value) => value + 1);

  return (
    <div className="page">
      <PageHeader
        title="Memory"
        subtitle="The store: long-term memory your graphs keep across threads, by namespace and key."
        actions={
          <button type="button" className="button button-primary" onClick={() => setCreating(true)}>
            New item
          </button>
        }
      />
      <MemorySearch version={version} onSelect={setSelected} />
      <div className="memory-layout">
        <NamespaceTree version={version} selected={selected} onSelect={setSelected} />
        {selected ? (
          <StoreItemPanel
            key={`${namespacePath(selected.namespace)}\u0000${selected.key}`}
            item={selected}
            onSaved={changed}
            onDeleted={() => {
              setSelected(null);
              changed();
            }}
          />
        ) : (
          <section className="panel memory-item memory-placeholder" aria-label="Item">
            <p className="muted">Open a namespace and choose an item to see its value, or search by meaning above.</p>
          </section>
        )}
      </div>
      {isCreating && (
        <StoreItemCreateDialog
          initialNamespace={selected ? namespacePath(selected.namespace) : ""}
          onClose={() => setCreating(false)}
          onCreated={(item) => {
            setCreating(false);
            setSelected(item);
            changed();
          }}
        />
      )}
    </div>
  );
}
