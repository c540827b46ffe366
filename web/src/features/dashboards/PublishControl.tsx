/** The header's publish-to-web control: publish, copy the link, withdraw it. */
import { useState } from "react";
import { type PublishReply, absoluteUrl, publishDashboard, withdrawDashboard } from "./api";
import { Popover } from "./Popover";

export function PublishControl({ dashboardId, initial }: { dashboardId: string; initial: PublishReply | null }) {
  const [published, setPublished] = useState<PublishReply | null>(initial);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);

  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setMessage(null);
    try {
      await action();
    } catch (error) {
      setMessage(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };
  const url = published ? absoluteUrl(published.url, window.location.origin) : "";
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setMessage("Link copied.");
    } catch {
      setMessage("Copy refused by the browser: select the link and copy it.");
    }
  };

  return (
    <Popover label={published ? "Published" : "Publish to web"} className="dash-publish">
      {() => (
        <div className="dash-publish-panel">
          {published ? (
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
                <button
                  type="button"
                  className="dash-danger"
                  disabled={busy}
                  onClick={() =>
                    run(async () => {
                      await withdrawDashboard(dashboardId);
                      setPublished(null);
                      setMessage("Link withdrawn: it no longer works.");
                    })
                  }
                >
                  Withdraw
                </button>
              </div>
            </>
          ) : (
            <>
              <p>
                Publishing makes a read-only link that works without logging in. Only the columns the widgets and
                filters use are sent.
              </p>
              <button
                type="button"
                disabled={busy}
                onClick={() => run(async () => setPublished(await publishDashboard(dashboardId)))}
              >
                Publish
              </button>
            </>
          )}
          {message && <p className="dash-muted dash-small">{message}</p>}
        </div>
      )}
    </Popover>
  );
}
