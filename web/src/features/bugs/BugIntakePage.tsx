/**
 * Bug Intake: the reports that arrived from bug-intake webhooks (GitHub issues, Sentry, the
 * generic shape) and from this form, each with its state and, once triaged, its session. New
 * reports can be held; held, listed and unrouted ones released; any dismissed. The list is read
 * again after each change and whenever a session changes (a triage starting shows at once).
 */
import { SETTING_LINKS } from "../../shared/settingLinks";
import { SettingLink } from "../../shared/ui/SettingLink";
import { EmptyState } from "../../shared/ui/EmptyState";
import { PageHeader } from "../../shared/ui/PageHeader";
import { useState, type FormEvent } from "react";
import "./bugs.css";
import type { BugReport, BugReportState } from "../../shared/api/types.generated";
import { apiFetch } from "../../shared/api/client";
import { useApi } from "../../shared/hooks/useApi";
import { Link, sessionPath } from "../../shared/router";
import { useSettings } from "../../shared/settings";
import { useStreamEvent } from "../../shared/stream/useStream";
import { Pill } from "../../shared/ui/Pill";
import { ErrorNote, Loading } from "../../shared/ui/Status";
import { useToast } from "../../shared/ui/toasts";

const STATE_LABEL: Record<BugReportState, string> = {
  new: "New",
  held: "Held",
  triaging: "Triaging",
  triaged: "Triaged",
  dismissed: "Dismissed",
  unrouted: "No project",
};

/** The steps a report in `state` offers. */
export function stepsFor(state: BugReportState): ("hold" | "release" | "dismiss")[] {
  switch (state) {
    case "new":
      return ["hold", "release", "dismiss"];
    case "held":
    case "unrouted":
      return ["release", "dismiss"];
    case "triaging":
    case "triaged":
      return ["dismiss"];
    case "dismissed":
      return [];
  }
}

export function BugIntakePage() {
  const reports = useApi<{ reports: BugReport[] }>("/bug-reports");
  const { values } = useSettings();
  const toast = useToast();
  const [busy, setBusy] = useState<string | null>(null);
  useStreamEvent("session", reports.reload);
  const step = (report: BugReport, name: "hold" | "release" | "dismiss") => {
    setBusy(report.id);
    apiFetch(`/bug-reports/${encodeURIComponent(report.id)}/${name}`, { method: "POST" })
      .then(reports.reload, (e: unknown) => toast.error(e, `The report was not changed (${name})`))
      .finally(() => setBusy(null));
  };
  return (
    <section className="page bug-intake-page touch">
      <PageHeader title="Bug Intake" />
      {values?.bugIntakeEnabled === false ? (
        <p className="bug-off">
          Bug Intake is off (<SettingLink setting={SETTING_LINKS.bugIntakeEnabled} /> in Settings): reports are listed
          and start no session.
        </p>
      ) : null}
      <ReportForm onReported={reports.reload} />
      {reports.error !== undefined ? <ErrorNote error={reports.error} onRetry={reports.reload} /> : null}
      {!reports.data && reports.error === undefined ? <Loading what="bug reports" /> : null}
      {reports.data?.reports.length === 0 ? (
        <EmptyState>No reports yet. Make a webhook with the Bug Intake purpose, or report one above.</EmptyState>
      ) : null}
      <ul className="bug-list" aria-label="Bug reports">
        {reports.data?.reports.map((r) => (
          <li key={r.id} className="bug-item" data-state={r.state}>
            <div className="bug-head">
              <Pill status={r.state}>{STATE_LABEL[r.state]}</Pill>
              <strong className="bug-title">
                {r.url ? (
                  <a className="touch-link" href={r.url}>
                    {r.title}
                  </a>
                ) : (
                  r.title
                )}
              </strong>
              {r.count > 1 ? <span className="muted"> ×{r.count}</span> : null}
            </div>
            <p className="muted">
              {r.source}
              {r.externalId ? ` ${r.externalId}` : ""}
              {r.folder ? ` · ${r.folder}` : ""}
              {r.reason ? ` · ${r.reason.replace("_", " ")}` : ""}
              {r.sessionId ? (
                <>
                  {" · "}
                  <Link to={sessionPath(r.sessionId)}>triage session</Link>
                </>
              ) : null}
            </p>
            <div className="bug-actions">
              {stepsFor(r.state).map((name) => (
                <button
                  key={name}
                  type="button"
                  disabled={busy === r.id}
                  aria-label={`${name[0]?.toUpperCase()}${name.slice(1)}: ${r.title}`}
                  onClick={() => step(r, name)}
                >
                  {name[0]?.toUpperCase()}
                  {name.slice(1)}
                </button>
              ))}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

function ReportForm({ onReported }: { onReported: () => void }) {
  const toast = useToast();
  const [title, setTitle] = useState("");
  const [body, setBody] = useState("");
  const [project, setProject] = useState("");
  const [busy, setBusy] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    const sent = { title, body, ...(project.trim() ? { project: project.trim() } : {}) };
    apiFetch("/bug-reports", { method: "POST", body: sent })
      .then(
        () => {
          setTitle("");
          setBody("");
          onReported();
        },
        (e: unknown) => toast.error(e, "The report was not taken"),
      )
      .finally(() => setBusy(false));
  };
  return (
    <form className="bug-form" onSubmit={submit} aria-label="Report a bug">
      <label>
        Title
        <input type="text" required maxLength={300} value={title} onChange={(e) => setTitle(e.target.value)} />
      </label>
      <label>
        What happens
        <textarea rows={3} value={body} onChange={(e) => setBody(e.target.value)} />
      </label>
      <label>
        Project (a folder, or a name your routes know)
        <input type="text" value={project} onChange={(e) => setProject(e.target.value)} />
      </label>
      <button type="submit" className="primary" disabled={busy || title.trim() === ""}>
        Report
      </button>
    </form>
  );
}
