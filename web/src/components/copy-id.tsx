import { useState } from "react";
import { shortId } from "../lib/format.js";

/** A short id with the full one in its title; click copies the full id. */
export function CopyId({ id }: { id: string }) {
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
      <code>{shortId(id)}</code>
      <span className="copy-id-note" aria-live="polite">
        {copied ? "copied" : ""}
      </span>
    </button>
  );
}
