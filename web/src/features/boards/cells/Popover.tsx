/** A small panel under a cell that closes on Escape or a click elsewhere. */
import { useEffect, useRef, type ReactNode } from "react";

export function Popover({ label, onClose, children }: { label: string; onClose: () => void; children: ReactNode }) {
  const panel = useRef<HTMLDivElement>(null);
  const close = useRef(onClose);
  close.current = onClose;

  useEffect(() => {
    const onPointer = (event: PointerEvent) => {
      if (panel.current && !panel.current.parentElement?.contains(event.target as Node)) close.current();
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") close.current();
    };
    document.addEventListener("pointerdown", onPointer);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("pointerdown", onPointer);
      document.removeEventListener("keydown", onKey);
    };
  }, []);

  return (
    <div ref={panel} className="popover" role="dialog" aria-label={label}>
      {children}
    </div>
  );
}
