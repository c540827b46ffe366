/** The chime log (`notificationHistoryEnabled`): which row chimed, shown or not, and why. */
import { SETTING_LINKS } from "../../shared/settingLinks";
import { SettingLink } from "../../shared/ui/SettingLink";
import { useInboxStatus } from "../../shared/inbox/InboxStatus";
import { EmptyState } from "../../shared/ui/EmptyState";
import { Pill } from "../../shared/ui/Pill";
import { When } from "../../shared/ui/When";
import { useNow } from "../../shared/useNow";

export function ChimeHistory() {
  const { history, historyEnabled, clearHistory, permission, requestPermission } = useInboxStatus();
  const now = useNow();
  return (
    <details className="chime-history">
      <summary>Notification history ({history.length})</summary>
      {permission === "default" && (
        <p>
          System notifications need the browser&apos;s permission.{" "}
          <button type="button" onClick={requestPermission}>
            Allow notifications
          </button>
        </p>
      )}
      {permission === "denied" && <p className="muted">The browser blocks notifications for this site.</p>}
      {!historyEnabled && (
        <p className="muted">
          Turned off (<SettingLink setting={SETTING_LINKS.notificationHistoryEnabled} /> in Settings): nothing new is
          logged.
        </p>
      )}
      {history.length === 0 ? (
        <EmptyState>No chimes yet.</EmptyState>
      ) : (
        <>
          <ul aria-label="Notification history">
            {history.map((c) => (
              <li key={`${c.at}-${c.rowId}`}>
                <When at={c.at} now={now} /> <Pill status={c.category} /> {c.title} —{" "}
                <span className={c.shown ? undefined : "muted"}>{c.reason}</span>
              </li>
            ))}
          </ul>
          <button type="button" onClick={clearHistory}>
            Clear history
          </button>
        </>
      )}
    </details>
  );
}
