/**
 * The maker's announcements for the running version (`developerMessagesEnabled`), above the page
 * until the user dismisses them; the server remembers the dismissal per account and version, so
 * they are shown once. Off, the server gives none and nothing is drawn.
 */
import { useEffect, useState } from "react";
import { apiFetch } from "./api/client";
import type { Announcement } from "./api/types.generated";
import { useSettings } from "./settings";
import "./announcements.css";

export function Announcements() {
  const { values } = useSettings();
  const on = values?.developerMessagesEnabled === true;
  const [shown, setShown] = useState<Announcement[]>([]);

  useEffect(() => {
    if (!on) return;
    let live = true;
    // An announcement is no alert: one that cannot be read is simply not shown.
    apiFetch<Announcement[]>("/announcements").then(
      (all) => live && setShown(all),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [on]);

  if (!on || shown.length === 0) return null;
  const dismiss = () => {
    setShown([]);
    apiFetch("/announcements/dismiss", { method: "POST" }).catch(() => undefined);
  };
  return (
    <aside className="announcements" aria-label="From the makers">
      {shown.map((a) => (
        <p key={a.title}>
          <strong>{a.title}</strong> {a.body}
        </p>
      ))}
      <button type="button" onClick={dismiss}>
        Dismiss
      </button>
    </aside>
  );
}
