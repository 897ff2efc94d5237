import type { DiffEntry } from "../lib/json-diff.js";

const SIGNS = { added: "+", removed: "−", changed: "~" } as const;

/** Changed paths between two JSON values, each with its old and new value. */
export function DiffList({ entries, label, testId }: { entries: DiffEntry[]; label: string; testId?: string }) {
  return (
    <ul className="diff-list" data-testid={testId} aria-label={label}>
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
