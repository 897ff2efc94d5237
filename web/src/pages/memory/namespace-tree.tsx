import { useState } from "react";
import { ErrorBanner, Loading } from "../../components/feedback.js";
import { namespacePath, sameNamespace } from "../../lib/store-namespace.js";
import { useNamespaceLevel, type ItemRef } from "./use-namespace-level.js";

interface TreeProps {
  version: number;
  selected: ItemRef | null;
  onSelect: (item: ItemRef) => void;
}

/** The Store's namespaces as a tree: a namespace opens to its child namespaces and its items. */
export function NamespaceTree({ version, selected, onSelect }: TreeProps) {
  const root = useNamespaceLevel([], version);
  return (
    <nav className="panel memory-tree" aria-label="Namespaces">
      <h2 className="panel-title">Namespaces</h2>
      <ErrorBanner error={root.error} />
      {root.isLoading && root.children.length === 0 && <Loading />}
      {!root.isLoading && !root.error && root.children.length === 0 && <p className="muted">The store is empty.</p>}
      <ul className="tree-list">
        {root.children.map((labels) => (
          <NamespaceNode key={namespacePath(labels)} labels={labels} version={version} selected={selected} onSelect={onSelect} />
        ))}
      </ul>
      {root.childrenCursor && (
        <button type="button" className="link-button" onClick={() => void root.moreChildren()}>
          More namespaces
        </button>
      )}
    </nav>
  );
}

function NamespaceNode({ labels, ...props }: TreeProps & { labels: string[] }) {
  // Open the branch leading to the selected item (one just created, or a search result).
  const holdsSelection = props.selected !== null && props.selected.namespace.length >= labels.length && sameNamespace(props.selected.namespace.slice(0, labels.length), labels);
  const [isOpen, setOpen] = useState(holdsSelection);
  const label = labels[labels.length - 1];
  return (
    <li className="tree-node">
      <button
        type="button"
        className="tree-toggle"
        aria-expanded={isOpen}
        title={namespacePath(labels)}
        data-namespace={namespacePath(labels)}
        onClick={() => setOpen(!isOpen)}
      >
        <span className="tree-caret" aria-hidden="true">
          {isOpen ? "▾" : "▸"}
        </span>
        {label}
      </button>
      {isOpen && <NamespaceContents labels={labels} {...props} />}
    </li>
  );
}

function NamespaceContents({ labels, version, selected, onSelect }: TreeProps & { labels: string[] }) {
  const level = useNamespaceLevel(labels, version);
  const isEmpty = !level.isLoading && !level.error && level.children.length === 0 && level.items.length === 0 && !level.itemsCursor;
  return (
    <div className="tree-children">
      <ErrorBanner error={level.error} />
      {level.isLoading && level.children.length === 0 && level.items.length === 0 && <Loading />}
      {isEmpty && <p className="muted tree-note">Nothing here any more.</p>}
      <ul className="tree-list" aria-label={`In ${namespacePath(labels)}`}>
        {level.children.map((child) => (
          <NamespaceNode key={namespacePath(child)} labels={child} version={version} selected={selected} onSelect={onSelect} />
        ))}
        {level.items.map((item) => {
          const isSelected = selected !== null && selected.key === item.key && sameNamespace(selected.namespace, item.namespace);
          return (
            <li key={item.key} className="tree-node">
              <button type="button" className="tree-item" aria-current={isSelected ? "true" : undefined} data-item-key={item.key} onClick={() => onSelect(item)}>
                <span className="tree-caret" aria-hidden="true">
                  •
                </span>
                {item.key}
              </button>
            </li>
          );
        })}
      </ul>
      {level.childrenCursor && (
        <button type="button" className="link-button" onClick={() => void level.moreChildren()}>
          More namespaces
        </button>
      )}
      {level.itemsCursor && (
        <button type="button" className="link-button" onClick={() => void level.moreItems()}>
          More items
        </button>
      )}
    </div>
  );
}
