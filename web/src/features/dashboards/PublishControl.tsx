/**
 * The header's publish-to-web control: publish, copy the link, withdraw it. The server keeps
 * only a hash of the token, so a link can be shown only right after it is made; a dashboard
 * published earlier shows as published, with a new link (the old one stops) or withdraw.
 */
import { errorMessage } from "../../shared/api/errorMessage";
import { useEffect, useState } from "react";
import type { PublishedLink } from "../../shared/api/types.generated";
import { absoluteUrl, publicationStatus, publishDashboard, withdrawDashboard } from "./api";
import { PopoverButton } from "./PopoverButton";

type State = { kind: "unknown" } | { kind: "off" } | { kind: "on"; link: PublishedLink | null };

export function PublishControl({ dashboardId }: { dashboardId: string }) {
  const [state, setState] = useState<State>({ kind: "unknown" });
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    publicationStatus(dashboardId).then(
      (s) => live && setState(s.published ? { kind: "on", link: null } : { kind: "off" }),
      () => live && setState({ kind: "off" }),
    );
    return () => {
      live = false;
    };
  }, [dashboardId]);

  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setMessage(null);
    try {
      await action();
    } catch (error) {
      setMessage(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };
  const publish = () =>
    run(async () => {
      setState({ kind: "on", link: await publishDashboard(dashboardId) });
    });
  const withdraw = () =>
    run(async () => {
      await withdrawDashboard(dashboardId);
      setState({ kind: "off" });
      setMessage("Link withdrawn: it no longer works.");
    });
  const url = state.kind === "on" && state.link ? absoluteUrl(state.link.url, window.location.origin) : "";
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setMessage("Link copied.");
    } catch {
      setMessage("The browser refused to copy: select the link and copy it.");
    }
  };

  return (
    <PopoverButton label={state.kind === "on" ? "Published" : "Publish to web"} className="dash-publish">
      {() => (
        <div className="dash-publish-panel">
          {state.kind === "on" && url && (
            <>
              <p>Anyone with this link can see this dashboard, read-only, without logging in.</p>
              <input
                className="dash-publish-url"
                readOnly
                value={url}
                aria-label="Public link"
                onFocus={(e) => e.target.select()}
              />
              <div className="dash-row">
                <button type="button" onClick={copy}>
                  Copy link
                </button>
                <a href={url} target="_blank" rel="noreferrer">
                  Open
                </a>
                <button type="button" className="dash-danger" disabled={busy} onClick={withdraw}>
                  Withdraw
                </button>
              </div>
            </>
          )}
          {state.kind === "on" && !url && (
            <>
              <p>
                This dashboard is published. Its link was shown when it was made; a new link replaces it (the old one
                stops working).
              </p>
              <div className="dash-row">
                <button type="button" disabled={busy} onClick={publish}>
                  New link
                </button>
                <button type="button" className="dash-danger" disabled={busy} onClick={withdraw}>
                  Withdraw
                </button>
              </div>
            </>
          )}
          {state.kind !== "on" && (
            <>
              <p>
                Publishing makes a read-only link that works without logging in. Only the columns the widgets and
                filters use are sent.
              </p>
              <button type="button" disabled={busy || state.kind === "unknown"} onClick={publish}>
                Publish
              </button>
            </>
          )}
          {message && <p className="dash-muted dash-small">{message}</p>}
        </div>
      )}
    </PopoverButton>
  );
}
