/** A modal dialog, closed by Escape, a press on the backdrop or its close button. */
import { type ReactNode, useEffect } from "react";

export function Modal({ title, onClose, children }: { title: string; onClose: () => void; children: ReactNode }) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && onClose();
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [onClose]);
  return (
    <div className="dash-modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className="dash-modal" role="dialog" aria-modal="true" aria-label={title}>
        <div className="dash-panel-head">
          <strong>{title}</strong>
          <button type="button" className="dash-icon-button" aria-label="Close" onClick={onClose}>
            ✕
          </button>
        </div>
        {children}
      </div>
    </div>
  );
}
