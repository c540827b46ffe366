/**
 * A modal dialog on the browser's own `<dialog>`: it traps focus, closes on Escape and keeps the
 * page behind inert without code of ours. Mounted means open.
 */
import { useEffect, useRef, type ReactNode } from "react";
import "./dialog.css";

export function Dialog({ title, onClose, children }: { title: string; onClose: () => void; children: ReactNode }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    element?.showModal();
    return () => element?.close();
  }, []);
  return (
    // Escape fires `cancel`: the parent unmounts the dialog rather than the browser closing it.
    <dialog
      ref={dialog}
      className="dialog"
      aria-label={title}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <h2>{title}</h2>
      {children}
    </dialog>
  );
}

/** Asks before something that cannot be undone. */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  onConfirm,
  onClose,
}: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Dialog title={title} onClose={onClose}>
      {children}
      <div className="dialog-actions">
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <button type="button" className="danger" onClick={onConfirm} autoFocus>
          {confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}
