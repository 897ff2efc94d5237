import { useState } from "react";
import { shortId, tailId } from "../lib/format.js";

/** A short id with the full one in its title; click copies the full id. */
export function CopyId({ id, showTail = false }: { id: string; showTail?: boolean }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(id);
      setCopied(true);
      window.setTimeout(() => setCopied(false), 1200);
    } catch {
      // Clipboard unavailable (insecure origin): the id stays selectable in the title.
    }
  };
  return (
    <button type="button" className="copy-id" title={`${id} (click to copy)`} onClick={copy}>
      <code>{showTail ? tailId(id) : shortId(id)}</code>
      <span className="copy-id-note" aria-live="polite">
        {copied ? "copied" : ""}
      </span>
    </button>
  );
}
