/**
 * The Recipes tab: each saved start of a session with its engine, folder and prompt; Run (asking
 * for the prompt's placeholders first), Schedule, Edit and Delete; and its runs, newest first,
 * read again while one is still running.
 */
import { useEffect, useRef, useState, type FormEvent } from "react";
import type { EngineInfo, Recipe, RecipeRunList, Runner } from "../../shared/api/types.generated";
import { useApi } from "../../shared/hooks/useApi";
import { usePolling } from "../../shared/hooks/usePolling";
import { Link, sessionPath } from "../../shared/router";
import { exactTime, relativeTime } from "../../shared/time";
import { useNow } from "../../shared/useNow";
import { ConfirmDialog, Dialog } from "../../shared/ui/Dialog";
import { ErrorNote, Loading } from "../../shared/ui/Status";
import { createRecipe, deleteRecipe, recipeRunsPath, runRecipe, updateRecipe } from "./api";
import { FieldNote, FormActions, invalidProps, PlaceholderValues, StateTag } from "./parts";
import {
  deletedAlong,
  missingSentence,
  missingValues,
  PERMISSION_LABEL,
  PERMISSION_LEVELS,
  placeholders,
  recipeDraft,
  recipeFields,
  RUN_STATE_LABEL,
  runHow,
  type RecipeDraft,
} from "./recipes";
import {
  fieldProblems,
  formErrors,
  generalMessage,
  messageFor,
  NO_ERRORS,
  withoutFields,
  type FormErrors,
} from "../../shared/api/formErrors";
import { ScheduleDialog } from "./SchedulesTab";
import { Pill } from "../../shared/ui/Pill";
import { Hint } from "../../shared/ui/Hint";

/** How often an open run history is read again while a run in it is still going. */
const RUNNING_POLL_MS = 4000;

interface Props {
  recipes: Recipe[];
  /** How many schedules each recipe has, for the delete question. */
  scheduleCounts: ReadonlyMap<string, number>;
  /** A recipe to ask placeholder values for and run, from the palette (`#run=<id>`). */
  runRequested: string | null;
  /** A recipe whose run history to open, from an inbox row about a run (`#runs=<id>`). */
  runsRequested: string | null;
  /** The New recipe form, from the palette (`#new-recipe`). */
  newRequested: boolean;
  /** Tidies the address once a request in it (`#run=`, `#new-recipe`) is acted on. */
  onRunRequestSeen: () => void;
  onChanged: () => void;
}

export function RecipesTab({
  recipes,
  scheduleCounts,
  runRequested,
  runsRequested,
  newRequested,
  onRunRequestSeen,
  onChanged,
}: Props) {
  const [editing, setEditing] = useState<Recipe | "new" | null>(null);
  const [running, setRunning] = useState<Recipe | null>(null);
  const [scheduling, setScheduling] = useState<Recipe | null>(null);
  const [deleting, setDeleting] = useState<Recipe | null>(null);
  const [started, setStarted] = useState<ReadonlyMap<string, string>>(new Map());
  const [deleteError, setDeleteError] = useState<unknown>(undefined);

  // The palette asks for a recipe by its address: its Run dialog opens once, and the address is tidied.
  const requested = runRequested === null ? undefined : recipes.find((r) => r.id === runRequested);
  useEffect(() => {
    if (requested) onRunRequestSeen();
  }, [requested, onRunRequestSeen]);
  const [requestedOnce, setRequestedOnce] = useState<string | null>(null);
  if (requested && requestedOnce !== requested.id) {
    setRequestedOnce(requested.id);
    setRunning(requested);
  } else if (!requested && requestedOnce !== null) {
    setRequestedOnce(null);
  }

  // Likewise the New recipe form: it opens once per request.
  const [newSeen, setNewSeen] = useState(false);
  if (newRequested !== newSeen) {
    setNewSeen(newRequested);
    if (newRequested) setEditing("new");
  }
  useEffect(() => {
    if (newRequested) onRunRequestSeen();
  }, [newRequested, onRunRequestSeen]);

  const onStarted = (recipe: Recipe, sessionId: string) => {
    setRunning(null);
    setStarted((all) => new Map(all).set(recipe.id, sessionId));
  };

  return (
    <div className="automation-tab">
      <div className="automation-toolbar">
        <p className="muted automation-intro">
          A recipe is a saved start of a session: an engine, a folder and a prompt whose <code>{"{{name}}"}</code>{" "}
          placeholders are filled at each run.
        </p>
        <button type="button" className="primary" onClick={() => setEditing("new")}>
          New recipe
        </button>
      </div>
      {deleteError !== undefined && <ErrorNote error={deleteError} />}
      {recipes.length === 0 ? (
        <div className="automation-empty empty-state">
          <p>No recipes yet.</p>
          <p className="muted">
            Save a session you start often — an engine, a folder and a prompt — with <strong>New recipe</strong>. Then
            run it from here or from the palette<span className="shortcut-hint"> (Ctrl K)</span>, or put it on a
            schedule.
          </p>
        </div>
      ) : (
        <ul className="automation-list" aria-label="Recipes">
          {recipes.map((recipe) => (
            <RecipeCard
              key={recipe.id}
              recipe={recipe}
              startedSession={started.get(recipe.id)}
              runsRequested={runsRequested === recipe.id}
              onRun={() => setRunning(recipe)}
              onEdit={() => setEditing(recipe)}
              onSchedule={() => setScheduling(recipe)}
              onDelete={() => setDeleting(recipe)}
            />
          ))}
        </ul>
      )}
      {editing !== null && (
        <RecipeDialog
          recipe={editing === "new" ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            onChanged();
          }}
        />
      )}
      {running && <RunDialog recipe={running} onClose={() => setRunning(null)} onStarted={onStarted} />}
      {scheduling && (
        <ScheduleDialog
          recipes={recipes}
          recipeId={scheduling.id}
          onClose={() => setScheduling(null)}
          onSaved={() => {
            setScheduling(null);
            onChanged();
          }}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title="Delete this recipe"
          confirmLabel="Delete"
          onClose={() => setDeleting(null)}
          onConfirm={() => {
            const recipe = deleting;
            setDeleting(null);
            setDeleteError(undefined);
            deleteRecipe(recipe.id).then(onChanged, (e: unknown) => setDeleteError(e));
          }}
        >
          <p>
            Delete <strong>{deleting.name}</strong>? {deletedAlong(scheduleCounts.get(deleting.id) ?? 0)} Sessions it
            started stay.
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}

function RecipeCard({
  recipe,
  startedSession,
  runsRequested,
  onRun,
  onEdit,
  onSchedule,
  onDelete,
}: {
  recipe: Recipe;
  startedSession: string | undefined;
  /** The address asks for this recipe's run history (`#runs=<id>`): it opens, in view. */
  runsRequested: boolean;
  onRun: () => void;
  onEdit: () => void;
  onSchedule: () => void;
  onDelete: () => void;
}) {
  const [showRuns, setShowRuns] = useState(runsRequested);
  const card = useRef<HTMLLIElement>(null);
  const [requestSeen, setRequestSeen] = useState(false);
  if (runsRequested !== requestSeen) {
    setRequestSeen(runsRequested);
    if (runsRequested) setShowRuns(true);
  }
  useEffect(() => {
    if (runsRequested) card.current?.scrollIntoView({ block: "start" });
  }, [runsRequested]);
  // A run just started shows in the history at once.
  const [shownFor, setShownFor] = useState<string | undefined>(undefined);
  if (startedSession !== shownFor) {
    setShownFor(startedSession);
    if (startedSession) setShowRuns(true);
  }
  return (
    <li className="automation-card" data-recipe-id={recipe.id} ref={card}>
      <div className="automation-head">
        <h3 className="automation-name">{recipe.name}</h3>
        <Pill>{recipe.engine}</Pill>
        {recipe.isolation === "worktree" && <Pill>worktree</Pill>}
        {recipe.runner && <Pill>on {recipe.runner}</Pill>}
        {recipe.permissionLevel && (
          <Pill title="Permission level">
            {PERMISSION_LABEL[recipe.permissionLevel as keyof typeof PERMISSION_LABEL] ?? recipe.permissionLevel}
          </Pill>
        )}
        {recipe.spendCapUsd !== null && <Pill title="Spend cap per run">at most ${recipe.spendCapUsd.toFixed(2)}</Pill>}
      </div>
      <p className="automation-path muted" title={recipe.cwd}>
        <code>{recipe.cwd}</code>
      </p>
      <p className="automation-prompt">{recipe.prompt}</p>
      {recipe.placeholders.length > 0 && (
        <p className="automation-placeholders muted">
          Asks for{" "}
          {recipe.placeholders.map((name, i) => (
            <span key={name}>
              {i > 0 && ", "}
              <code>{`{{${name}}}`}</code>
            </span>
          ))}
        </p>
      )}
      <div className="automation-actions">
        <button type="button" className="primary" onClick={onRun}>
          Run
        </button>
        <button type="button" onClick={onSchedule}>
          Schedule…
        </button>
        <button type="button" onClick={onEdit}>
          Edit
        </button>
        <button type="button" onClick={onDelete}>
          Delete
        </button>
        <button type="button" className="link-button" aria-expanded={showRuns} onClick={() => setShowRuns(!showRuns)}>
          {showRuns ? "Hide runs" : "Runs"}
        </button>
      </div>
      {startedSession && (
        <p className="automation-started" role="status">
          Run started. <Link to={sessionPath(startedSession)}>Open its session</Link>
        </p>
      )}
      {showRuns && <RunHistory recipe={recipe} refreshKey={startedSession} />}
    </li>
  );
}

function RunHistory({ recipe, refreshKey }: { recipe: Recipe; refreshKey: string | undefined }) {
  const runs = useApi<RecipeRunList>(recipeRunsPath(recipe.id));
  const now = useNow();
  const list = runs.data?.runs;
  const going = list?.some((run) => run.state === "started") ?? false;
  const { reload } = runs;
  useEffect(() => {
    if (refreshKey) reload();
  }, [refreshKey, reload]);
  usePolling(reload, RUNNING_POLL_MS, going);
  if (runs.error !== undefined) return <ErrorNote error={runs.error} onRetry={runs.reload} />;
  if (!list) return <Loading what="runs" />;
  if (list.length === 0)
    return <p className="muted automation-history-empty">Not run yet: Run starts its first session.</p>;
  return (
    <div className="table-scroll">
      <table className="plain-table automation-history" aria-label={`Runs of ${recipe.name}`}>
        <thead>
          <tr>
            <th scope="col">State</th>
            <th scope="col">Started</th>
            <th scope="col">Session</th>
            <th scope="col">How</th>
            <th scope="col">Reason</th>
          </tr>
        </thead>
        <tbody>
          {list.map((run) => (
            <tr key={run.id} data-run-id={run.id}>
              <td>
                <StateTag state={run.state} label={RUN_STATE_LABEL[run.state]} />
              </td>
              <td>
                <time dateTime={run.startedAt} title={exactTime(run.startedAt)}>
                  {relativeTime(run.startedAt, now)}
                </time>
              </td>
              <td>
                {run.sessionId ? <Link to={sessionPath(run.sessionId)}>Open</Link> : <span className="muted">—</span>}
              </td>
              <td className="muted">{runHow(run)}</td>
              <td className="automation-reason">{run.reason ?? ""}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const RECIPE_FORM = "recipe-form";
const RECIPE_FIELDS = ["name", "engine", "prompt", "cwd", "runner", "permissionLevel", "spendCapUsd"];

/** New recipe, or Edit (which replaces every field). */
function RecipeDialog({
  recipe,
  onClose,
  onSaved,
}: {
  recipe: Recipe | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const engines = useApi<EngineInfo[]>("/engines");
  return (
    <Dialog title={recipe ? `Edit ${recipe.name}` : "New recipe"} onClose={onClose}>
      {engines.error !== undefined ? (
        <ErrorNote error={engines.error} onRetry={engines.reload} />
      ) : !engines.data ? (
        <Loading what="engines" />
      ) : (
        <RecipeForm recipe={recipe} engines={engines.data} onClose={onClose} onSaved={onSaved} />
      )}
    </Dialog>
  );
}

function RecipeForm({
  recipe,
  engines,
  onClose,
  onSaved,
}: {
  recipe: Recipe | null;
  engines: EngineInfo[];
  onClose: () => void;
  onSaved: () => void;
}) {
  const runners = useApi<Runner[]>("/runners");
  const firstEngine = (engines.find((e) => e.name === "primary") ?? engines[0])?.name ?? "";
  const [draft, setDraft] = useState<RecipeDraft>(() => recipeDraft(recipe, firstEngine));
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const [busy, setBusy] = useState(false);
  // An edited field stops being refused; the others keep saying what is wrong with them.
  const set = <K extends keyof RecipeDraft>(key: K, value: RecipeDraft[K]) => {
    setDraft((d) => ({ ...d, [key]: value }));
    setErrors((e) => withoutFields(e, [key === "spendCap" ? "spendCapUsd" : key]));
  };
  const names = placeholders(draft.prompt);
  // A recipe may name an engine engines.toml no longer has: it stays choosable, and says so.
  const engineNames = engines.map((e) => e.name);
  const remote = (runners.data ?? []).filter((r) => r.kind !== "local" && r.state !== "invalid");

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = recipeFields(draft);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setBusy(true);
    setErrors(NO_ERRORS);
    (recipe ? updateRecipe(recipe.id, checked.value) : createRecipe(checked.value)).then(onSaved, (e: unknown) => {
      setBusy(false);
      setErrors(formErrors(e));
    });
  };

  const note = (field: string) => messageFor(errors, field);
  const general = generalMessage(errors, RECIPE_FIELDS);
  return (
    <form className="automation-form" onSubmit={submit} noValidate>
      <label>
        Name
        <input
          value={draft.name}
          onChange={(e) => set("name", e.target.value)}
          placeholder="Nightly triage"
          autoFocus
          {...invalidProps(RECIPE_FORM, "name", note("name"))}
        />
      </label>
      <FieldNote form={RECIPE_FORM} field="name" message={note("name")} />
      <label>
        Engine
        <select
          value={draft.engine}
          onChange={(e) => set("engine", e.target.value)}
          {...invalidProps(RECIPE_FORM, "engine", note("engine"))}
        >
          {engines.length === 0 && !draft.engine && <option value="">No engine is configured</option>}
          {engines.map((e) => (
            <option key={e.name} value={e.name}>
              {e.name} ({e.kind})
            </option>
          ))}
          {draft.engine && !engineNames.includes(draft.engine) && (
            <option value={draft.engine}>{draft.engine} (not configured)</option>
          )}
        </select>
      </label>
      <FieldNote form={RECIPE_FORM} field="engine" message={note("engine")} />
      <label>
        Folder
        <input
          value={draft.cwd}
          onChange={(e) => set("cwd", e.target.value)}
          placeholder="/home/me/project"
          spellCheck={false}
          {...invalidProps(RECIPE_FORM, "cwd", note("cwd"))}
        />
      </label>
      <FieldNote form={RECIPE_FORM} field="cwd" message={note("cwd")} />
      <label>
        Prompt
        <textarea
          value={draft.prompt}
          onChange={(e) => set("prompt", e.target.value)}
          rows={6}
          placeholder="Triage the open issues labelled {{label}}"
          {...invalidProps(RECIPE_FORM, "prompt", note("prompt"))}
        />
      </label>
      <FieldNote form={RECIPE_FORM} field="prompt" message={note("prompt")} />
      {names.length === 0 ? (
        <Hint as="p" className="muted automation-hint">
          Write <code>{"{{name}}"}</code> where a run should fill something in; each run asks for it.
        </Hint>
      ) : (
        <p className="muted automation-hint">Each run asks for {names.map((n) => `{{${n}}}`).join(", ")}.</p>
      )}
      <label className="checkbox-label">
        <input type="checkbox" checked={draft.worktree} onChange={(e) => set("worktree", e.target.checked)} />
        Isolate each run in a git worktree
      </label>
      {(remote.length > 0 || draft.runner) && (
        <>
          <label>
            Runs on
            <select value={draft.runner} onChange={(e) => set("runner", e.target.value)}>
              <option value="">This machine</option>
              {remote.map((r) => (
                <option key={r.name} value={r.name}>
                  {r.state === "connected" ? r.name : `${r.name} (${r.state})`}
                </option>
              ))}
              {draft.runner && !remote.some((r) => r.name === draft.runner) && (
                <option value={draft.runner}>{draft.runner}</option>
              )}
            </select>
          </label>
          <FieldNote form={RECIPE_FORM} field="runner" message={note("runner")} />
        </>
      )}
      <details className="automation-more" open={draft.permissionLevel !== "" || draft.spendCap !== "" || undefined}>
        <summary>Permission level and spend cap</summary>
        <p className="muted">
          Each run&apos;s session keeps this level for its whole life, whatever the account&apos;s level says then or
          later. A run an agent had a hand in (an agent&apos;s token, a schedule an agent made, a rule) gets at most the
          account&apos;s level. The spend cap stops the run&apos;s session once its cost reaches it.
        </p>
        <label>
          Permission level
          <select
            value={draft.permissionLevel}
            onChange={(e) => set("permissionLevel", e.target.value)}
            {...invalidProps(RECIPE_FORM, "permissionLevel", note("permissionLevel"))}
          >
            <option value="">The account&apos;s level</option>
            {PERMISSION_LEVELS.map((level) => (
              <option key={level} value={level}>
                {PERMISSION_LABEL[level]}
              </option>
            ))}
          </select>
        </label>
        <FieldNote form={RECIPE_FORM} field="permissionLevel" message={note("permissionLevel")} />
        <label>
          Spend cap per run (USD)
          <input
            inputMode="decimal"
            value={draft.spendCap}
            onChange={(e) => set("spendCap", e.target.value)}
            placeholder="No cap"
            {...invalidProps(RECIPE_FORM, "spendCapUsd", note("spendCapUsd"))}
          />
        </label>
        <FieldNote form={RECIPE_FORM} field="spendCapUsd" message={note("spendCapUsd")} />
      </details>
      <FormActions error={general} busy={busy} submitLabel={recipe ? "Save" : "Save recipe"} onCancel={onClose} />
    </form>
  );
}

const RUN_FORM = "run-form";

/** Run now: a value for each placeholder first, when the prompt has any. */
function RunDialog({
  recipe,
  onClose,
  onStarted,
}: {
  recipe: Recipe;
  onClose: () => void;
  onStarted: (recipe: Recipe, sessionId: string) => void;
}) {
  const names = recipe.placeholders;
  const [values, setValues] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const [busy, setBusy] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const missing = missingValues(names, values);
    if (missing.length > 0) {
      setErrors(fieldProblems([["values", missingSentence(missing)]]));
      return;
    }
    setBusy(true);
    setErrors(NO_ERRORS);
    runRecipe(recipe.id, values).then(
      (started) => onStarted(recipe, started.sessionId),
      (e: unknown) => {
        setBusy(false);
        setErrors(formErrors(e));
      },
    );
  };
  const general = generalMessage(errors, ["values"]);
  return (
    <Dialog title={`Run ${recipe.name}`} onClose={onClose}>
      <form className="automation-form" onSubmit={submit} noValidate>
        {names.length === 0 ? (
          <p>
            Start a session of <strong>{recipe.engine}</strong> in <code>{recipe.cwd}</code> now?
          </p>
        ) : (
          <PlaceholderValues
            legend="Values for the prompt"
            names={names}
            values={values}
            onChange={setValues}
            form={RUN_FORM}
            message={messageFor(errors, "values")}
            invalid={(name) => missingValues([name], values).length > 0}
            autoFocus
          />
        )}
        <FormActions
          error={general}
          busy={busy}
          submitLabel="Run now"
          onCancel={onClose}
          autoFocusSubmit={names.length === 0}
        />
      </form>
    </Dialog>
  );
}
