/**
 * A panel under the control that opened it, closed by Escape or by a press anywhere outside that
 * control's box (the control and the panel both sit in the panel's parent element).
 */
import { useEffect, useEffectEvent, useRef, type ReactNode } from "react";

export function Popover({
  label,
  className = "popover",
  onClose,
  children,
}: {
  label: string;
  className?: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const panel = useRef<HTMLDivElement>(null);
  const close = useEffectEvent(onClose);

  useEffect(() => {
    const onPointer = (event: PointerEvent) => {
      if (panel.current && !panel.current.parentElement?.contains(event.target as Node)) close();
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") close();
    };
    document.addEventListener("pointerdown", onPointer);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("pointerdown", onPointer);
      document.removeEventListener("keydown", onKey);
    };
  }, []);

  return (
    <div ref={panel} className={className} role="dialog" aria-label={label}>
      {children}
    </div>
  );
}
