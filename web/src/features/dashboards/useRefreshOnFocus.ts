/** A count that goes up each time the tab becomes visible again: the page then re-reads its boards. */
import { useEffect, useState } from "react";

export function useRefreshOnFocus(): number {
  const [revalidation, setRevalidation] = useState(0);
  useEffect(() => {
    const onVisible = () => document.visibilityState === "visible" && setRevalidation((n) => n + 1);
    document.addEventListener("visibilitychange", onVisible);
    return () => document.removeEventListener("visibilitychange", onVisible);
  }, []);
  return revalidation;
}
