/**
 * A board row's "⋯" menu: a real button (in the tab order, 44 px on a touch screen) opening the
 * row's actions in a `Popover`, closed by Escape, a press outside, or a choice. The panel is
 * fixed to the window under its button, so the board's scrolling box does not clip it on the
 * last rows, and follows the button while the board scrolls.
 */
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { Popover } from "../../shared/ui/Popover";
import { ACTION_LABELS, type RowAction } from "./board";

interface Props {
  /** The session's title, naming the button and the menu for a screen reader. */
  title: string;
  actions: readonly RowAction[];
  onAction(action: RowAction): void;
}

export function BoardRowMenu({ title, actions, onAction }: Props) {
  const [open, setOpen] = useState(false);
  const holder = useRef<HTMLSpanElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  // The panel's place, written as custom properties on the holder (no redraw while scrolling).
  useLayoutEffect(() => {
    if (!open) return;
    const place = () => {
      const box = button.current?.getBoundingClientRect();
      if (!box || !holder.current) return;
      holder.current.style.setProperty("--menu-top", `${box.bottom + 2}px`);
      holder.current.style.setProperty("--menu-right", `${document.documentElement.clientWidth - box.right}px`);
    };
    place();
    document.addEventListener("scroll", place, true);
    return () => document.removeEventListener("scroll", place, true);
  }, [open]);

  // Opened from the keyboard or by a tap, the first action takes the focus, so arrows are not needed.
  useEffect(() => {
    if (open) holder.current?.querySelector<HTMLButtonElement>(".board-row-menu button")?.focus();
  }, [open]);

  const close = () => {
    // Closed from inside (Escape, a choice): the focus goes back where it came from, not to the page.
    const inside = holder.current?.contains(document.activeElement) ?? false;
    setOpen(false);
    if (inside) button.current?.focus();
  };

  return (
    <span className="board-row-menu-holder" ref={holder}>
      <button
        ref={button}
        type="button"
        className="board-row-menu-button"
        aria-label={`Actions for ${title}`}
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => (open ? close() : setOpen(true))}
      >
        ⋯
      </button>
      {open && (
        <Popover label={`Actions for ${title}`} className="popover board-row-menu" onClose={close}>
          {actions.map((action) => (
            <button
              key={action}
              type="button"
              onClick={() => {
                close();
                onAction(action);
              }}
            >
              {ACTION_LABELS[action]}
            </button>
          ))}
        </Popover>
      )}
    </span>
  );
}
