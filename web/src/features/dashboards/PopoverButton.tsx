/** A toolbar button with a panel under it; the panel closes like every popover, or through `close`. */
import { type ReactNode, useCallback, useState } from "react";
import { Popover } from "../../shared/ui/Popover";

export function PopoverButton({
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
  const close = useCallback(() => setOpen(false), []);
  return (
    <div className={`dash-popover ${className ?? ""}`}>
      <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
        {label}
        {badge ? <span className="dash-badge">{badge}</span> : null} ▾
      </button>
      {open && (
        <Popover label={label} className="dash-popover-panel" onClose={close}>
          {children(close)}
        </Popover>
      )}
    </div>
  );
}
