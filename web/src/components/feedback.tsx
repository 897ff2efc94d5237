import type { ReactNode } from "react";
import { ApiError } from "../api/graphql-client.js";

/** A server or validation error, with its code when the server gave one. */
export function ErrorBanner({ error, onRetry }: { error: ApiError | Error | string | null; onRetry?: () => void }) {
  // A missing key is asked for by the key prompt; a banner behind it would only repeat it.
  if (!error || (error instanceof ApiError && error.code === "UNAUTHENTICATED")) return null;
  const message = typeof error === "string" ? error : error.message;
  const code = error instanceof ApiError && error.code && error.code !== "NETWORK" ? error.code : null;
  return (
    <div className="banner banner-error" role="alert">
      <span>
        {code && <strong className="banner-code">{code}</strong>} {message}
      </span>
      {onRetry && (
        <button type="button" className="button button-small" onClick={onRetry}>
          Retry
        </button>
      )}
    </div>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty-state">
      <p className="empty-title">{title}</p>
      {children && <div className="empty-body">{children}</div>}
    </div>
  );
}

export function Loading({ label = "Loading…" }: { label?: string }) {
  return (
    <p className="loading" role="status">
      <span className="spinner" aria-hidden="true" /> {label}
    </p>
  );
}

const STATUS_TONES: Record<string, string> = {
  success: "good",
  idle: "neutral",
  running: "active",
  busy: "active",
  pending: "waiting",
  interrupted: "attention",
  error: "bad",
  timeout: "bad",
  // A cron firing that a busy thread refused, or whose run was deleted before it finished.
  refused: "attention",
  deleted: "neutral",
};

/** A run, thread or trace status as a coloured pill (the word is always shown, not just colour). */
export function StatusBadge({ status }: { status: string }) {
  const word = status.toLowerCase();
  return <span className={`badge badge-${STATUS_TONES[word] ?? "neutral"}`}>{word}</span>;
}
