/**
 * The Caught view: follow-ups the utility model found in finished or archived sessions
 * (`tasksV2CatchesEnabled`), each with the sentence it came from, waiting to be kept (it becomes a
 * task) or dismissed.
 */
import { SETTING_LINKS } from "../../shared/settingLinks";
import { SettingLink } from "../../shared/ui/SettingLink";
import { useState } from "react";
import type { Caught } from "../../shared/api/types.generated";
import { Link, sessionPath } from "../../shared/router";
import { ErrorNote, Loading } from "../../shared/ui/Status";
import { useToast } from "../../shared/ui/toasts";
import { dismissCaught, keepCaught } from "./api";

export function CaughtView({
  caught,
  error,
  onChanged,
}: {
  caught: Caught[] | undefined;
  error: unknown;
  onChanged: () => void;
}) {
  const toast = useToast();
  const [busy, setBusy] = useState<string | null>(null);
  if (error !== undefined) return <ErrorNote error={error} onRetry={onChanged} />;
  if (!caught) return <Loading what="caught follow-ups" />;
  if (caught.length === 0) {
    return (
      <p className="muted">
        Nothing caught. With <SettingLink setting={SETTING_LINKS.tasksV2CatchesEnabled} /> on, the follow-ups agents
        leave behind land here when their session finishes or is archived.
      </p>
    );
  }
  const act = (id: string, call: (id: string) => Promise<unknown>, context: string) => {
    setBusy(id);
    call(id)
      .then(onChanged, (e: unknown) => toast.error(e, context))
      .finally(() => setBusy(null));
  };
  return (
    <ul className="caught-list" aria-label="Caught follow-ups">
      {caught.map((c) => (
        <li key={c.id} className="caught-item">
          <p className="caught-text">{c.text}</p>
          <blockquote className="muted">{c.quote}</blockquote>
          <p className="muted">
            From <Link to={sessionPath(c.sessionId)}>{c.sessionTitle ?? `Session ${c.sessionId.slice(0, 8)}`}</Link>
          </p>
          <div className="caught-actions">
            <button
              type="button"
              aria-label={`Keep: ${c.text}`}
              disabled={busy === c.id}
              onClick={() => act(c.id, keepCaught, "The follow-up was not kept")}
            >
              Keep
            </button>
            <button
              type="button"
              aria-label={`Dismiss: ${c.text}`}
              disabled={busy === c.id}
              onClick={() => act(c.id, dismissCaught, "The follow-up was not dismissed")}
            >
              Dismiss
            </button>
          </div>
        </li>
      ))}
    </ul>
  );
}
