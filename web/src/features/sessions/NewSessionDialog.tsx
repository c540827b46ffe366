/**
 * "New session": the engine (from `GET /engines`), the machine it runs on (from `GET /runners`),
 * the folder, the prompt, a title, and whether to isolate it in a git worktree; the server's
 * refusal shows in the dialog, and a session started opens its page. What `GET /doctor` finds
 * about the chosen engine on this machine shows beside it: a missing program or a sandbox that
 * cannot run blocks the start, an uncovered version only warns. When no real engine can run (under
 * `serve --demo`, the built-in demo engine is all there is), it offers the demo engine and says how
 * to configure a real one in `engines.toml`. A `/` at the start of the prompt lists the chosen
 * engine's skills in the chosen folder, once there is a folder to ask about. Images attached to the
 * prompt go with the first turn (a model that cannot see them is refused as `imageBridgeMode` says).
 */
import { useState, type FormEvent } from "react";
import { ApiError } from "../../shared/api/client";
import { errorMessage } from "../../shared/api/errorMessage";
import type { DoctorReport, EngineInfo, Runner } from "../../shared/api/types.generated";
import { useApi } from "../../shared/hooks/useApi";
import { readyIds, uploading, type Chip } from "../../shared/composer/attachments";
import { ComposerField } from "../../shared/composer/ComposerField";
import { engineKindWords } from "../../shared/humanize";
import { navigate, sessionPath } from "../../shared/router";
import { RUNNERS_SETTING } from "../../shared/runnersSetting";
import { ErrorNote, Loading } from "../../shared/ui/Status";
import "../../shared/ui/code.css";
import { spawnSession } from "./api";
import { Dialog } from "../../shared/ui/Dialog";
import { FormActions } from "../../shared/ui/FormActions";
import { engineCheck, engineSetup, type EngineCheck } from "./engineCheck";
import { AUTO_RUNNER, LOCAL_RUNNER, runnerNotes, runnerOptions } from "./runnerChoice";
import "./session.css";

/** The last folder used, offered again: sessions mostly run in the same few checkouts. */
const LAST_FOLDER = "switchboard.newSession.folder";

/** Where engines are documented, in Switchboard's repository. */
const ENGINES_DOC = "docs/engines.md";

/** The least `engines.toml` that runs sessions on Claude Code (or Codex). */
const ENGINES_SNIPPET = `[engines.primary]
kind = "claude"  # Claude Code on the server's PATH, or "codex"`;

export function NewSessionButton({ label = "New session" }: { label?: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="new-session-button" onClick={() => setOpen(true)}>
        {label}
      </button>
      {open && <NewSessionDialog onClose={() => setOpen(false)} />}
    </>
  );
}

function NoEngines() {
  return (
    <div className="no-engines">
      <p>
        No engine is configured, and neither <code>claude</code> nor <code>codex</code> is on the server&apos;s PATH, so
        no session can start yet.
      </p>
      <p>
        Engines are named in <code>engines.toml</code> in Switchboard&apos;s data directory (the folder{" "}
        <code>switchboard serve</code> keeps <code>switchboard.db</code> in). For example:
      </p>
      <pre className="code-block">{`${ENGINES_SNIPPET}

[engines.echo]
kind = "command"
command = ["/usr/bin/cat"]`}</pre>
      <p>
        The file is read each time it is needed: no restart, just open this dialog again. Every setting is in{" "}
        <code>{ENGINES_DOC}</code>. To try Switchboard without an engine, start it with{" "}
        <code>switchboard serve --demo</code>: its scripted demo engine needs no model.
      </p>
    </div>
  );
}

/** Only the demo engine can run: what it is, and how to configure a real engine. */
function DemoOnlyNotice({ enginesFile }: { enginesFile: string | null }) {
  return (
    <div className="engine-check" role="status" data-demo-only>
      <strong>No real engine is configured: sessions run on the demo engine</strong>
      <p>
        The demo engine follows a script: no model runs and nothing on disk changes, so any existing folder will do. To
        run Claude Code or Codex, name it in <code>engines.toml</code> in Switchboard&apos;s data directory, for
        example:
      </p>
      <pre className="code-block">{enginesFile ? `# ${enginesFile}\n${ENGINES_SNIPPET}` : ENGINES_SNIPPET}</pre>
      <p className="muted">
        Then open this dialog again (no restart). Every setting is in <code>{ENGINES_DOC}</code>.
      </p>
    </div>
  );
}

/** The server's refusal in the words the form's fields use. */
function refusal(error: unknown): string {
  if (error instanceof ApiError && error.code === "not_a_git_repository") {
    return `${error.message} Turn off "Isolate in a git worktree", or pick a folder inside a git repository.`;
  }
  if (error instanceof ApiError && error.code === "runners_disabled") {
    return `${error.message} Turn on "${RUNNERS_SETTING.label}" in Settings, or run it on this machine.`;
  }
  return errorMessage(error);
}

/** `folder`, when given, fills the folder in (an alert's "Start session" on the inbox page). */
export function NewSessionDialog({ onClose, folder }: { onClose: () => void; folder?: string }) {
  const engines = useApi<EngineInfo[]>("/engines");
  // Runs each engine's `--version`: slower than the list, so the form does not wait for it, and
  // a failure leaves the form as it would be without it.
  const doctor = useApi<DoctorReport>("/doctor");
  // Where it can run: without the list (or while it loads), this machine and Auto are offered.
  const runners = useApi<Runner[]>("/runners");
  return (
    <Dialog title="New session" onClose={onClose}>
      {engines.error !== undefined ? (
        <ErrorNote error={engines.error} onRetry={engines.reload} />
      ) : !engines.data ? (
        <Loading what="engines" />
      ) : engines.data.length === 0 ? (
        <>
          <NoEngines />
          <div className="dialog-actions">
            <button type="button" onClick={onClose}>
              Close
            </button>
          </div>
        </>
      ) : (
        <NewSessionForm
          engines={engines.data}
          doctor={doctor.data}
          runners={runners.data}
          onClose={onClose}
          folder={folder}
        />
      )}
    </Dialog>
  );
}

function EngineNotice({ check }: { check: EngineCheck | null }) {
  if (!check) return null;
  return (
    <div
      className={check.blocking ? "engine-check engine-check-blocking" : "engine-check"}
      role={check.blocking ? "alert" : "status"}
    >
      <strong>{check.title}</strong>
      <ul>
        {check.reasons.map((reason) => (
          <li key={reason}>{reason}</li>
        ))}
      </ul>
      <ul className="engine-check-facts muted">
        {check.facts.map((fact) => (
          <li key={fact}>{fact}</li>
        ))}
      </ul>
      {check.blocking && (
        <p className="muted">
          Fix it on the server&apos;s machine (<code>switchboard doctor</code> there says the same), then open this
          dialog again.
        </p>
      )}
    </div>
  );
}

function NewSessionForm({
  engines,
  doctor,
  runners,
  onClose,
  folder: given,
}: {
  engines: EngineInfo[];
  doctor: DoctorReport | undefined;
  runners: Runner[] | undefined;
  onClose: () => void;
  folder?: string;
}) {
  // Until the person picks one, the choice follows the doctor's findings as they arrive.
  const [picked, setPicked] = useState<string>();
  const setup = engineSetup(engines, doctor);
  const engine = picked ?? setup.initial;
  const [cwd, setCwd] = useState(() => given ?? localStorage.getItem(LAST_FOLDER) ?? "");
  const [prompt, setPrompt] = useState("");
  const [chips, setChips] = useState<Chip[]>([]);
  const [title, setTitle] = useState("");
  const [isolate, setIsolate] = useState(false);
  const [runner, setRunner] = useState(LOCAL_RUNNER);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  // The doctor looks at this machine: on another, its findings would be about the wrong host.
  const check = runner === LOCAL_RUNNER ? engineCheck(doctor, engine) : null;
  const blocked = check?.blocking ?? false;
  const notes = runnerNotes(runners, runner, engine);
  const folder = cwd.trim();
  const folderProblem = folder && !folder.startsWith("/") ? "The folder must be an absolute path." : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (folderProblem || blocked || uploading(chips)) return;
    const attachments = readyIds(chips);
    setBusy(true);
    setError(undefined);
    spawnSession({
      engine,
      prompt,
      cwd: folder,
      ...(title.trim() ? { title: title.trim() } : {}),
      ...(isolate ? { isolation: "worktree" as const } : {}),
      runner,
      ...(attachments.length > 0 ? { attachments } : {}),
    }).then(
      (session) => {
        localStorage.setItem(LAST_FOLDER, folder);
        onClose();
        navigate(sessionPath(session.id));
      },
      (e: unknown) => {
        setBusy(false);
        setError(refusal(e));
      },
    );
  };

  return (
    <form className="new-session-form" onSubmit={submit}>
      <label>
        Engine
        <select value={engine} onChange={(e) => setPicked(e.target.value)}>
          {engines.map((e) => (
            <option key={e.name} value={e.name}>
              {e.label ?? `${e.name} (${engineKindWords(e.kind)})`}
            </option>
          ))}
        </select>
      </label>
      <label>
        Runs on
        <select value={runner} onChange={(e) => setRunner(e.target.value)}>
          {runnerOptions(runners).map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </label>
      {notes.length > 0 && (
        <ul className="runner-notes muted">
          {notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      )}
      {setup.demoOnly && <DemoOnlyNotice enginesFile={setup.enginesFile} />}
      <EngineNotice check={check} />
      <label>
        Folder
        <input
          value={cwd}
          onChange={(e) => setCwd(e.target.value)}
          placeholder="/home/me/project"
          required
          aria-invalid={folderProblem ? true : undefined}
        />
      </label>
      {folderProblem && <div className="inline-error">{folderProblem}</div>}
      <label>
        Prompt
        <ComposerField
          value={prompt}
          onValue={setPrompt}
          rows={6}
          required
          attachments={chips}
          onAttachments={setChips}
          // Where Auto will place it is not known yet: this machine's list stands in for it.
          skills={
            folder && !folderProblem
              ? { engine, cwd: folder, runner: runner === AUTO_RUNNER ? LOCAL_RUNNER : runner }
              : null
          }
        />
      </label>
      <label>
        Title <span className="muted">(optional)</span>
        <input value={title} onChange={(e) => setTitle(e.target.value)} />
      </label>
      <label className="checkbox-label">
        <input type="checkbox" checked={isolate} onChange={(e) => setIsolate(e.target.checked)} />
        Isolate in a git worktree
      </label>
      <FormActions
        submitLabel={busy ? "Starting…" : "Start session"}
        onCancel={onClose}
        busy={busy}
        disabled={blocked || !prompt.trim() || !folder || uploading(chips)}
        error={error}
      />
    </form>
  );
}
