import { useState } from "react";
import type { ApiError } from "../../api/graphql-client.js";
import { ErrorBanner } from "../../components/feedback.js";
import { TimeAgo } from "../../components/time-ago.js";
import type { AssistantVersionFieldsFragment } from "../../generated/graphql.js";
import { diffVersions } from "../../lib/json-diff.js";
import { VersionDiff } from "./version-diff.js";

interface VersionHistoryProps {
  /** Newest first, as the API lists them. */
  versions: AssistantVersionFieldsFragment[];
  activeVersion: number;
  onActivate: (version: number) => void;
  isActivating: boolean;
  error: ApiError | null;
}

/** The version list with "make active", and a diff between any two versions. */
export function VersionHistory({ versions, activeVersion, onActivate, isActivating, error }: VersionHistoryProps) {
  const newest = versions[0]?.version ?? 1;
  const [fromVersion, setFromVersion] = useState(Math.max(1, newest - 1));
  const [toVersion, setToVersion] = useState(newest);
  const from = versions.find((version) => version.version === fromVersion);
  const to = versions.find((version) => version.version === toVersion);

  return (
    <section className="panel" aria-labelledby="versions-title">
      <h2 className="panel-title" id="versions-title">
        Versions <span className="muted">({versions.length})</span>
      </h2>
      <ErrorBanner error={error} />
      <div className="table-scroll">
        <table className="table table-compact">
          <thead>
            <tr>
              <th>Version</th>
              <th>Name</th>
              <th>Created</th>
              <th>Changes from the previous version</th>
              <th aria-label="Actions" />
            </tr>
          </thead>
          <tbody>
            {versions.map((version, index) => {
              const previous = versions[index + 1];
              const changes = previous ? diffVersions(previous, version).length : null;
              const isActive = version.version === activeVersion;
              return (
                <tr key={version.version} className={isActive ? "row-active" : undefined}>
                  <td>
                    v{version.version} {isActive && <span className="badge badge-good">active</span>}
                  </td>
                  <td>{version.name}</td>
                  <td>
                    <TimeAgo iso={version.createdAt} />
                  </td>
                  <td className="muted">{changes === null ? "first version" : changes === 1 ? "1 change" : `${changes} changes`}</td>
                  <td className="row-actions">
                    <button
                      type="button"
                      className="button button-small"
                      onClick={() => {
                        setFromVersion(previous?.version ?? version.version);
                        setToVersion(version.version);
                      }}
                      disabled={!previous}
                    >
                      Diff
                    </button>
                    <button
                      type="button"
                      className="button button-small"
                      disabled={isActive || isActivating}
                      onClick={() => onActivate(version.version)}
                      aria-label={`Make version ${version.version} active`}
                    >
                      Make active
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {versions.length > 1 && (
        <div className="diff-section">
          <div className="toolbar">
            <label className="inline-field">
              Compare
              <VersionSelect versions={versions} value={fromVersion} onChange={setFromVersion} label="Older version" />
            </label>
            <label className="inline-field">
              with
              <VersionSelect versions={versions} value={toVersion} onChange={setToVersion} label="Newer version" />
            </label>
          </div>
          {from && to && <VersionDiff entries={diffVersions(from, to)} fromVersion={from.version} toVersion={to.version} />}
        </div>
      )}
    </section>
  );
}

function VersionSelect(props: { versions: AssistantVersionFieldsFragment[]; value: number; onChange: (version: number) => void; label: string }) {
  return (
    <select value={props.value} aria-label={props.label} onChange={(event) => props.onChange(Number(event.target.value))}>
      {props.versions.map((version) => (
        <option key={version.version} value={version.version}>
          v{version.version}
        </option>
      ))}
    </select>
  );
}
