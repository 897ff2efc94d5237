import { useEffect, useId, useRef, type ReactNode } from "react";

interface DialogProps {
  title: string;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  size?: "narrow" | "wide";
  /** false: no close button and Esc does nothing (the dialog must be answered). */
  isDismissible?: boolean;
}

/**
 * A modal on the native <dialog>: the browser makes the page behind it inert, keeps focus
 * inside, and turns Esc into a cancel event, which closes it. Mount it to open it. Focus starts
 * on the element marked data-autofocus, else on the first field (showModal alone would pick the
 * close button, and React's autoFocus runs before showModal and is undone by it).
 */
export function Dialog({ title, onClose, children, footer, size = "narrow", isDismissible = true }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (!dialog.open) dialog.showModal();
    const first = dialog.querySelector<HTMLElement>("[data-autofocus], .dialog-body :is(input, select, textarea)");
    first?.focus();
    return () => dialog.close();
  }, []);
  return (
    <dialog
      ref={ref}
      className={`dialog dialog-${size}`}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        if (isDismissible) onClose();
      }}
    >
      <header className="dialog-header">
        <h2 id={titleId}>{title}</h2>
        {isDismissible && (
          <button type="button" className="icon-button" aria-label="Close" title="Close (Esc)" onClick={onClose}>
            ×
          </button>
        )}
      </header>
      <div className="dialog-body">{children}</div>
      {footer && <footer className="dialog-footer">{footer}</footer>}
    </dialog>
  );
}
