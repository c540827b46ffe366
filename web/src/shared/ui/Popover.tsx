/**
 * A panel under the control that opened it, closed by Escape or by a press anywhere outside that
 * control's box (the control and the panel both sit in the panel's parent element). Where its
 * place would run past the window's edge it moves back inside (`fitIntoView`), before it is
 * painted, and again when the window or the panel changes size.
 */
import { useEffect, useEffectEvent, useLayoutEffect, useRef, type ReactNode } from "react";
import { fitIntoView } from "./fit";

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

  useLayoutEffect(() => {
    const element = panel.current;
    if (!element) return;
    const place = () => {
      element.style.translate = "";
      const box = element.getBoundingClientRect();
      // Its whole height, even while a height limit of ours clips it.
      const height = Math.max(box.height, element.scrollHeight);
      const fit = fitIntoView(
        { top: box.top, left: box.left, width: box.width, height },
        { width: window.innerWidth, height: window.innerHeight },
      );
      if (fit.dx !== 0 || fit.dy !== 0) element.style.translate = `${fit.dx}px ${fit.dy}px`;
      const maxHeight = fit.maxHeight === null ? "" : `${fit.maxHeight}px`;
      if (element.style.maxHeight !== maxHeight) {
        element.style.maxHeight = maxHeight;
        element.style.overflowY = maxHeight ? "auto" : "";
      }
    };
    // Content that arrives after it opens (a list read from the server) can push it off screen.
    const resized = new ResizeObserver(place);
    resized.observe(element);
    place();
    window.addEventListener("resize", place);
    return () => {
      resized.disconnect();
      window.removeEventListener("resize", place);
    };
  }, []);

  return (
    <div ref={panel} className={className} role="dialog" aria-label={label}>
      {children}
    </div>
  );
}
