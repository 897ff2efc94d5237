import type { DiffEntry } from "../../lib/json-diff.js";

const SIGNS = { added: "+", removed: "−", changed: "~" } as const;

/** Changed paths between two versions, each with its old and new value. */
export function VersionDiff({ entries, fromVersion, toVersion }: { entries: DiffEntry[]; fromVersion: number; toVersion: number }) {
  if (fromVersion === toVersion) return <p className="muted">Pick two different versions to compare.</p>;
  if (entries.length === 0) {
    return (
      <p className="muted" data-testid="version-diff">
        v{fromVersion} and v{toVersion} are identical.
      </p>
    );
  }
  return (
    <ul className="diff-list" data-testid="version-diff" aria-label={`Changes from v${fromVersion} to v${toVersion}`}>
      {entries.map((entry) => (
        <li key={`${entry.kind}:${entry.path}`} className={`diff-entry diff-${entry.kind}`}>
          <span className="diff-sign" aria-label={entry.kind}>
            {SIGNS[entry.kind]}
          </span>
          <code className="diff-path">{entry.path}</code>
          <div className="diff-values">
            {entry.kind !== "added" && <DiffValue value={entry.before} side="before" />}
            {entry.kind === "changed" && <span className="diff-arrow" aria-hidden="true">→</span>}
            {entry.kind !== "removed" && <DiffValue value={entry.after} side="after" />}
          </div>
        </li>
      ))}
    </ul>
  );
}

function DiffValue({ value, side }: { value: unknown; side: "before" | "after" }) {
  const text = typeof value === "string" && value.includes("\n") ? value : JSON.stringify(value, null, value && typeof value === "object" ? 2 : undefined);
  return (
    <pre className={`diff-value diff-value-${side}`} aria-label={side === "before" ? "old value" : "new value"}>
      {text}
    </pre>
  );
}
