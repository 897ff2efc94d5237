import { useEffect, useRef } from "react";
import { routePath } from "../lib/routes.js";
import { navigate } from "../router.js";
import { Dialog } from "./dialog.js";

const GO_TO: Record<string, string> = {
  a: routePath({ page: "assistants" }),
  p: routePath({ page: "playground", assistantId: null, threadId: null }),
  t: routePath({ page: "threads" }),
  r: routePath({ page: "traces" }),
  u: routePath({ page: "usage" }),
  c: routePath({ page: "crons" }),
  m: routePath({ page: "memory" }),
};

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

/**
 * Global keys: `/` focuses the page's search field (marked data-search), `?` lists the keys,
 * `g` then a letter goes to a section. Ignored while typing in a field or while a dialog is open.
 */
export function useGlobalShortcuts(onHelp: () => void): void {
  const pendingG = useRef(0);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.metaKey || event.ctrlKey || event.altKey || isTyping(event.target)) return;
      if (document.querySelector("dialog[open]")) return;
      if (event.key === "/") {
        const search = document.querySelector<HTMLElement>("[data-search]");
        if (search) {
          event.preventDefault();
          search.focus();
        }
      } else if (event.key === "?") {
        event.preventDefault();
        onHelp();
      } else if (event.key === "g") {
        pendingG.current = Date.now();
      } else if (Date.now() - pendingG.current < 1200 && GO_TO[event.key]) {
        pendingG.current = 0;
        navigate(GO_TO[event.key]);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [onHelp]);
}

const SHORTCUTS: Array<[string, string]> = [
  ["/", "Search or filter the current list"],
  ["Enter", "Send the message (Shift+Enter: new line)"],
  ["Esc", "Close a dialog"],
  ["g a", "Assistants"],
  ["g p", "Test environment (playground)"],
  ["g t", "Threads"],
  ["g r", "Traces"],
  ["g u", "Usage (tokens and cost roll-ups)"],
  ["g c", "Crons"],
  ["g m", "Memory"],
  ["?", "This list"],
];

export function ShortcutsDialog({ onClose }: { onClose: () => void }) {
  return (
    <Dialog title="Keyboard shortcuts" onClose={onClose}>
      <dl className="shortcut-list">
        {SHORTCUTS.map(([keys, action]) => (
          <div key={keys} className="shortcut">
            <dt>
              {keys.split(" ").map((key) => (
                <kbd key={key}>{key}</kbd>
              ))}
            </dt>
            <dd>{action}</dd>
          </div>
        ))}
      </dl>
    </Dialog>
  );
}
