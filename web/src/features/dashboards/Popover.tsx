/** A toolbar button with a panel under it, closed by Escape or a click outside; and a modal dialog. */
import { type ReactNode, useEffect, useRef, useState } from "react";

export function Popover({
  label,
  children,
  className,
  badge,
}: {
  label: string;
  children: (close: () => void) => ReactNode;
  className?: string;
  badge?: number;
}) {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && setOpen(false);
    document.addEventListener("mousedown", onDown);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("mousedown", onDown);
      document.removeEventListener("keydown", onKey);
    };
  }, [open]);
  return (
    <div className={`dash-popover ${className ?? ""}`} ref={ref}>
      <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
        {label}
        {badge ? <span className="dash-badge">{badge}</span> : null} ▾
      </button>
      {open && <div className="dash-popover-panel">{children(() => setOpen(false))}</div>}
    </div>
  );
}

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
