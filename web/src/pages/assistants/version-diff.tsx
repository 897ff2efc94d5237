import { DiffList } from "../../components/diff-list.js";
import type { DiffEntry } from "../../lib/json-diff.js";

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
  return <DiffList entries={entries} label={`Changes from v${fromVersion} to v${toVersion}`} testId="version-diff" />;
}
