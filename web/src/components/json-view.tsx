import { Fragment, useMemo, type ReactNode } from "react";
import { prettyJson } from "../lib/json-input.js";

// Strings (a key when a colon follows), numbers, and the literals: everything else is punctuation.
const TOKEN = /("(?:\\.|[^"\\])*")(\s*:)?|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|\b(true|false|null)\b/g;

/** Pretty-printed JSON with light syntax colouring, in a scrollable block. */
export function JsonView({ value, label, compact = false }: { value: unknown; label?: string; compact?: boolean }) {
  const text = useMemo(() => prettyJson(value), [value]);
  const pieces = useMemo(() => highlight(text), [text]);
  return (
    <pre className={`json-view${compact ? " json-view-compact" : ""}`} aria-label={label} tabIndex={0}>
      {pieces}
    </pre>
  );
}

function highlight(text: string) {
  const pieces: ReactNode[] = [];
  let last = 0;
  let index = 0;
  for (const match of text.matchAll(TOKEN)) {
    const start = match.index ?? 0;
    if (start > last) pieces.push(<Fragment key={index++}>{text.slice(last, start)}</Fragment>);
    const [whole, string, colon, number, literal] = match;
    if (string !== undefined) {
      pieces.push(
        <span key={index++} className={colon ? "json-key" : "json-string"}>
          {string}
        </span>,
      );
      if (colon) pieces.push(<Fragment key={index++}>{colon}</Fragment>);
    } else if (number !== undefined) {
      pieces.push(<span key={index++} className="json-number">{number}</span>);
    } else if (literal !== undefined) {
      pieces.push(<span key={index++} className="json-literal">{literal}</span>);
    }
    last = start + whole.length;
  }
  if (last < text.length) pieces.push(<Fragment key={index++}>{text.slice(last)}</Fragment>);
  return pieces;
}
