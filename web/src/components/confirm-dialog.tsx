import type { ReactNode } from "react";
import type { ApiError } from "../api/graphql-client.js";
import { Dialog } from "./dialog.js";
import { ErrorBanner } from "./feedback.js";

interface ConfirmDialogProps {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  isPending: boolean;
  error: ApiError | null;
  onConfirm: () => void;
  onClose: () => void;
}

/** Asks before something that cannot be undone; the destructive button is not the default focus. */
export function ConfirmDialog({ title, children, confirmLabel, isPending, error, onConfirm, onClose }: ConfirmDialogProps) {
  return (
    <Dialog
      title={title}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="button" onClick={onClose} data-autofocus>
            Cancel
          </button>
          <button type="button" className="button button-danger" onClick={onConfirm} disabled={isPending}>
            {isPending ? "Working…" : confirmLabel}
          </button>
        </>
      }
    >
      {children}
      <ErrorBanner error={error} />
    </Dialog>
  );
}
