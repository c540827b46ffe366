/**
 * The Rules tab: each automation rule as one line saying when it fires and what it does, its
 * state (one an agent made waits for Approve), Pause, Resume, Delete, and what it did each time it
 * fired. New rule offers the common cases as a form (an item enters a status → run a recipe and
 * set the item's status as the run ends; a webhook delivery → run a recipe; a session ends → a row
 * in the inbox) and any other rule as JSON.
 */
import { useState, type FormEvent } from "react";
import type {
  Board,
  Recipe,
  Rule,
  RuleDryRun,
  RuleFiringList,
  RuleSessionOutcome,
  Webhook,
} from "../../shared/api/types.generated";
import { useApi } from "../../shared/hooks/useApi";
import { usePolling } from "../../shared/hooks/usePolling";
import { Link, sessionPath } from "../../shared/router";
import { exactTime, relativeTime } from "../../shared/time";
import { Dialog } from "../../shared/ui/Dialog";
import { ErrorNote, Loading } from "../../shared/ui/Status";
import { useNow } from "../../shared/useNow";
import { changeRule, createRule, deleteRule, ruleFiringsPath, testRule } from "./api";
import { recipeRunsPagePath } from "./page";
import { FieldNote, FormActions, invalidProps, PlaceholderValues, StateActions, StateTag } from "./parts";
import { formErrors, generalMessage, messageFor, NO_ERRORS, type FormErrors } from "../../shared/api/formErrors";
import { errorMessage } from "../../shared/api/errorMessage";
import { waitingFirst } from "./recipes";
import {
  describeRule,
  EVENT_SOURCE,
  eventFills,
  FIRING_OUTCOME_LABEL,
  OUTCOME_LABEL,
  RULE_STATE_LABEL,
  ruleDraft,
  ruleFormErrors,
  ruleFromDraft,
  ruleTemplates,
  statusLabels,
  TEMPLATE_FIELDS,
  TEMPLATE_LABEL,
  type RuleDraft,
  type RuleNames,
  type RuleTemplate,
} from "./rules";
import { Pill } from "../../shared/ui/Pill";
import { Hint } from "../../shared/ui/Hint";

/** How often an open history is read again. */
const FIRINGS_POLL_MS = 4000;

interface Props {
  rules: Rule[];
  recipes: Recipe[];
  boards: Board[] | undefined;
  webhooks: Webhook[] | undefined;
  names: RuleNames;
  /** `projectBoardsEnabled`: off, no board is offered to pick. */
  boardsOn: boolean;
  onChanged: () => void;
}

export function RulesTab({ rules, recipes, boards, webhooks, names, boardsOn, onChanged }: Props) {
  const [creating, setCreating] = useState(false);
  const now = useNow();
  return (
    <div className="automation-tab">
      <div className="automation-toolbar">
        <p className="muted automation-intro">
          A rule does something when something happens: an item changes status, a webhook is delivered, a session ends.
          One an agent makes waits for your approval.
        </p>
        <button type="button" className="primary" onClick={() => setCreating(true)}>
          New rule
        </button>
      </div>
      {rules.length === 0 ? (
        <div className="automation-empty empty-state">
          <p>No rules yet.</p>
          <p className="muted">
            {boardsOn ? (
              <>
                Make one with <strong>New rule</strong>: for example, when an item on a board enters “Ready”, run a
                recipe on it and set it to “Done” when the run finishes.
              </>
            ) : (
              <>
                Make one with <strong>New rule</strong>: for example, when a webhook is delivered, run a recipe with its
                body.
              </>
            )}
          </p>
        </div>
      ) : (
        <ul className="automation-list" aria-label="Rules">
          {waitingFirst(rules, (rule) => rule.name).map((rule) => (
            <RuleCard key={rule.id} rule={rule} names={names} now={now} onChanged={onChanged} />
          ))}
        </ul>
      )}
      {creating && (
        <RuleDialog
          recipes={recipes}
          boards={boards}
          webhooks={webhooks}
          templates={ruleTemplates(boardsOn)}
          onClose={() => setCreating(false)}
          onSaved={() => {
            setCreating(false);
            onChanged();
          }}
        />
      )}
    </div>
  );
}

function RuleCard({
  rule,
  names,
  now,
  onChanged,
}: {
  rule: Rule;
  names: RuleNames;
  now: number;
  onChanged: () => void;
}) {
  const [showFirings, setShowFirings] = useState(false);
  const [testing, setTesting] = useState(false);
  const [tested, setTested] = useState<RuleDryRun | null>(null);
  const [testError, setTestError] = useState<string | null>(null);
  const test = () => {
    setTesting(true);
    setTestError(null);
    testRule(rule.id).then(
      (result) => {
        setTesting(false);
        setTested(result);
      },
      (e: unknown) => {
        setTesting(false);
        setTestError(errorMessage(e));
      },
    );
  };
  return (
    <li className={`automation-card automation-card-${rule.state}`} data-rule-id={rule.id}>
      <div className="automation-head">
        <h3 className="automation-name">{rule.name}</h3>
        <StateTag state={rule.state} label={RULE_STATE_LABEL[rule.state]} />
        {rule.createdByAgent && <Pill>made by an agent</Pill>}
        {rule.lastFiredAt && (
          <span className="muted automation-when">
            fired{" "}
            <time dateTime={rule.lastFiredAt} title={exactTime(rule.lastFiredAt)}>
              {relativeTime(rule.lastFiredAt, now)}
            </time>
          </span>
        )}
      </div>
      <p className="automation-rule">{describeRule(rule, names)}</p>
      <StateActions
        what="rule"
        state={rule.state}
        change={(change) => changeRule(rule.id, change)}
        remove={() => deleteRule(rule.id)}
        question={
          <>
            <strong>{rule.name}</strong>? Sessions it started stay.
          </>
        }
        onChanged={onChanged}
      >
        <button type="button" disabled={testing} aria-busy={testing || undefined} onClick={test}>
          Test
        </button>
        <button
          type="button"
          className="link-button"
          aria-expanded={showFirings}
          onClick={() => setShowFirings(!showFirings)}
        >
          {showFirings ? "Hide history" : "History"}
        </button>
      </StateActions>
      {testError && (
        <p className="inline-error" role="alert">
          {testError}
        </p>
      )}
      {tested && <DryRun result={tested} onClose={() => setTested(null)} />}
      {showFirings && <FiringHistory rule={rule} now={now} />}
    </li>
  );
}

/** A Test's answer: what the rule would do if its event came now, and what would fail; nothing was done. */
function DryRun({ result, onClose }: { result: RuleDryRun; onClose: () => void }) {
  return (
    <section className="automation-dry-run" role="status" aria-label="Test">
      <p>
        <strong>Test, nothing was done.</strong> {result.when}, it would:
      </p>
      <ol>
        {result.would.map((action, i) => (
          <li key={i}>{action}</li>
        ))}
      </ol>
      {result.problems.length === 0 ? (
        <p className="muted">Nothing would stop it today.</p>
      ) : (
        <ul className="automation-dry-run-problems">
          {result.problems.map((problem) => (
            <li key={problem} className="inline-error">
              {problem}
            </li>
          ))}
        </ul>
      )}
      <button type="button" className="link-button" onClick={onClose}>
        Close
      </button>
    </section>
  );
}

function FiringHistory({ rule, now }: { rule: Rule; now: number }) {
  const firings = useApi<RuleFiringList>(ruleFiringsPath(rule.id));
  const list = firings.data?.firings;
  // A firing whose session never started has no session to open: the recipe's runs say why.
  const startedRecipe = rule.then.find((action) => action.kind === "start_recipe")?.recipeId;
  // Open, it follows what the rule does next.
  usePolling(firings.reload, FIRINGS_POLL_MS);
  if (firings.error !== undefined) return <ErrorNote error={firings.error} onRetry={firings.reload} />;
  if (!list) return <Loading what="the rule's history" />;
  if (list.length === 0) {
    return <p className="muted automation-history-empty">It has not fired yet.</p>;
  }
  return (
    <div className="table-scroll">
      <table className="plain-table automation-history" aria-label={`History of ${rule.name}`}>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">What happened</th>
            <th scope="col">Outcome</th>
            <th scope="col">Session</th>
            <th scope="col">Reason</th>
          </tr>
        </thead>
        <tbody>
          {list.map((firing) => (
            <tr key={firing.id}>
              <td>
                <time dateTime={firing.at} title={exactTime(firing.at)}>
                  {relativeTime(firing.at, now)}
                </time>
              </td>
              <td>{firing.event}</td>
              <td>
                <StateTag state={firing.outcome} label={FIRING_OUTCOME_LABEL[firing.outcome]} />
              </td>
              <td>
                {firing.sessionId ? (
                  <Link to={sessionPath(firing.sessionId)}>Open</Link>
                ) : firing.outcome === "failed" && startedRecipe ? (
                  <Link to={recipeRunsPagePath(startedRecipe)}>Its runs</Link>
                ) : (
                  <span className="muted">—</span>
                )}
              </td>
              <td className="automation-reason">{firing.reason ?? ""}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const RULE_FORM = "rule-form";
const OUTCOMES: readonly RuleSessionOutcome[] = ["finished", "failed", "needs_user"];

function RuleDialog({
  recipes,
  boards,
  webhooks,
  templates,
  onClose,
  onSaved,
}: {
  recipes: Recipe[];
  boards: Board[] | undefined;
  webhooks: Webhook[] | undefined;
  templates: readonly RuleTemplate[];
  onClose: () => void;
  onSaved: () => void;
}) {
  const [typed, setDraft] = useState<RuleDraft>(() => ruleDraft(templates[0]));
  // Boards and webhooks may arrive after the dialog opens: until one is picked, the first is.
  const draft: RuleDraft = {
    ...typed,
    boardId: typed.boardId || (boards?.[0]?.id ?? ""),
    recipeId: typed.recipeId || (recipes[0]?.id ?? ""),
    webhookId: typed.webhookId || (webhooks?.[0]?.id ?? ""),
  };
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const [busy, setBusy] = useState(false);
  const set = <K extends keyof RuleDraft>(key: K, value: RuleDraft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const recipe = recipes.find((r) => r.id === draft.recipeId);
  const placeholders = recipe?.placeholders ?? [];
  const board = boards?.find((b) => b.id === draft.boardId);
  const statusColumns = board?.columns.filter((c) => c.type === "status") ?? [];
  const labels = statusLabels(board, draft.statusColumn || undefined);
  const otherColumns = board?.columns.filter((c) => c.type === "text") ?? [];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = ruleFromDraft(draft, placeholders);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setBusy(true);
    setErrors(NO_ERRORS);
    createRule(checked.value).then(onSaved, (e: unknown) => {
      setBusy(false);
      setErrors(ruleFormErrors(formErrors(e), draft.template));
    });
  };

  const note = (field: string) => messageFor(errors, field);
  const general = generalMessage(errors, TEMPLATE_FIELDS[draft.template]);
  const needsRecipe = draft.template === "item_status" || draft.template === "webhook";

  const recipePicker = (
    <>
      <label>
        Run the recipe
        <select
          value={draft.recipeId}
          onChange={(e) => set("recipeId", e.target.value)}
          {...invalidProps(RULE_FORM, "recipeId", note("recipeId"))}
        >
          {recipes.length === 0 && <option value="">No recipes yet: make one on the Recipes tab</option>}
          {recipes.map((r) => (
            <option key={r.id} value={r.id}>
              {r.name}
            </option>
          ))}
        </select>
      </label>
      <FieldNote form={RULE_FORM} field="recipeId" message={note("recipeId")} />
      {placeholders.length > 0 && (
        <PlaceholderValues
          legend="Values for the recipe's prompt"
          names={placeholders}
          values={draft.values}
          onChange={(values) => set("values", values)}
          form={RULE_FORM}
          message={note("values")}
          placeholder={(name) =>
            eventFills(draft.template, name) ? `From ${EVENT_SOURCE[draft.template]}` : undefined
          }
        >
          <Hint as="p" className="muted automation-hint">
            A value may name the event&apos;s fields, such as <code>{"{{item.name}}"}</code> or{" "}
            <code>{"{{body.ref}}"}</code>.
          </Hint>
        </PlaceholderValues>
      )}
    </>
  );

  return (
    <Dialog title="New rule" onClose={onClose}>
      <form className="automation-form" onSubmit={submit} noValidate>
        <label>
          Name
          <input
            value={draft.name}
            onChange={(e) => set("name", e.target.value)}
            placeholder="Fix bugs marked Ready"
            autoFocus
            {...invalidProps(RULE_FORM, "name", note("name"))}
          />
        </label>
        <FieldNote form={RULE_FORM} field="name" message={note("name")} />
        <label>
          It fires when
          <select value={draft.template} onChange={(e) => set("template", e.target.value as RuleTemplate)}>
            {templates.map((t) => (
              <option key={t} value={t}>
                {TEMPLATE_LABEL[t]}
              </option>
            ))}
          </select>
        </label>

        {draft.template === "item_status" && (
          <>
            {boards && boards.length === 0 && (
              <p className="muted">No boards yet: make one on the Boards page, with a status column.</p>
            )}
            <label>
              Board
              <select
                value={draft.boardId}
                onChange={(e) => setDraft((d) => ({ ...d, boardId: e.target.value, statusColumn: "", status: "" }))}
                {...invalidProps(RULE_FORM, "boardId", note("boardId"))}
              >
                {!boards && <option value="">Loading boards…</option>}
                {boards?.map((b) => (
                  <option key={b.id} value={b.id}>
                    {b.name}
                  </option>
                ))}
              </select>
            </label>
            <FieldNote form={RULE_FORM} field="boardId" message={note("boardId")} />
            {statusColumns.length > 1 && (
              <label>
                Status column
                <select
                  value={draft.statusColumn}
                  onChange={(e) => setDraft((d) => ({ ...d, statusColumn: e.target.value, status: "" }))}
                >
                  <option value="">{statusColumns[0]?.title}</option>
                  {statusColumns.slice(1).map((c) => (
                    <option key={c.id} value={c.id}>
                      {c.title}
                    </option>
                  ))}
                </select>
              </label>
            )}
            <label>
              An item enters the status
              {labels.length > 0 ? (
                <select
                  value={draft.status}
                  onChange={(e) => set("status", e.target.value)}
                  {...invalidProps(RULE_FORM, "status", note("status"))}
                >
                  <option value="">Pick a status</option>
                  {labels.map((label) => (
                    <option key={label} value={label}>
                      {label}
                    </option>
                  ))}
                </select>
              ) : (
                <input
                  value={draft.status}
                  onChange={(e) => set("status", e.target.value)}
                  placeholder="Ready"
                  {...invalidProps(RULE_FORM, "status", note("status"))}
                />
              )}
            </label>
            <FieldNote form={RULE_FORM} field="status" message={note("status")} />
          </>
        )}

        {draft.template === "webhook" && (
          <>
            {webhooks && webhooks.length === 0 && (
              <p className="muted">No webhooks yet: make one in Settings, then come back.</p>
            )}
            <label>
              Webhook
              <select
                value={draft.webhookId}
                onChange={(e) => set("webhookId", e.target.value)}
                {...invalidProps(RULE_FORM, "webhookId", note("webhookId"))}
              >
                {!webhooks && <option value="">Loading webhooks…</option>}
                {webhooks?.map((w) => (
                  <option key={w.id} value={w.id}>
                    {w.name}
                  </option>
                ))}
              </select>
            </label>
            <FieldNote form={RULE_FORM} field="webhookId" message={note("webhookId")} />
            <label>
              Only deliveries where (optional, one <code>path = value</code> a line)
              <textarea
                rows={3}
                value={draft.match}
                onChange={(e) => set("match", e.target.value)}
                placeholder={"action = opened\nrepository.name = app"}
                spellCheck={false}
                {...invalidProps(RULE_FORM, "match", note("match"))}
              />
            </label>
            <FieldNote form={RULE_FORM} field="match" message={note("match")} />
          </>
        )}

        {needsRecipe && recipePicker}
        {needsRecipe && (
          <p className="muted automation-hint">
            A rule&apos;s runs start as agents&apos; do: they need &ldquo;Scripts may start and drive sessions&rdquo; on
            in Settings, and follow its limits.
          </p>
        )}

        {draft.template === "item_status" && (
          <fieldset className="automation-values">
            <legend>As the run goes (optional)</legend>
            <StatusSelect
              label="While it runs, set the item to"
              labels={labels}
              value={draft.runningStatus}
              onChange={(v) => set("runningStatus", v)}
            />
            <StatusSelect
              label="When it finishes, set the item to"
              labels={labels}
              value={draft.finishedStatus}
              onChange={(v) => set("finishedStatus", v)}
            />
            <StatusSelect
              label="When it fails, set the item to"
              labels={labels}
              value={draft.failedStatus}
              onChange={(v) => set("failedStatus", v)}
            />
            {otherColumns.length > 0 && (
              <label>
                Link its session in the column
                <select value={draft.sessionColumn} onChange={(e) => set("sessionColumn", e.target.value)}>
                  <option value="">Its “session” column, if it has one</option>
                  {otherColumns.map((c) => (
                    <option key={c.id} value={c.id}>
                      {c.title}
                    </option>
                  ))}
                </select>
              </label>
            )}
          </fieldset>
        )}

        {draft.template === "session_end" && (
          <>
            <label>
              A session
              <select value={draft.outcome} onChange={(e) => set("outcome", e.target.value as RuleSessionOutcome)}>
                {OUTCOMES.map((o) => (
                  <option key={o} value={o}>
                    {OUTCOME_LABEL[o]}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Of
              <select value={draft.endRecipeId} onChange={(e) => set("endRecipeId", e.target.value)}>
                <option value="">Any session</option>
                {recipes.map((r) => (
                  <option key={r.id} value={r.id}>
                    A run of {r.name}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Inbox row title
              <input
                value={draft.inboxTitle}
                onChange={(e) => set("inboxTitle", e.target.value)}
                placeholder="A session finished"
                {...invalidProps(RULE_FORM, "inboxTitle", note("inboxTitle"))}
              />
            </label>
            <FieldNote form={RULE_FORM} field="inboxTitle" message={note("inboxTitle")} />
            <label>
              Body (optional)
              <textarea
                rows={2}
                value={draft.inboxBody}
                onChange={(e) => set("inboxBody", e.target.value)}
                {...invalidProps(RULE_FORM, "inboxBody", note("inboxBody"))}
              />
            </label>
            <FieldNote form={RULE_FORM} field="inboxBody" message={note("inboxBody")} />
          </>
        )}

        {draft.template === "json" && (
          <>
            <label>
              The rule&apos;s <code>when</code> and <code>then</code>
              <textarea
                rows={8}
                value={draft.json}
                onChange={(e) => set("json", e.target.value)}
                spellCheck={false}
                className="automation-code"
                {...invalidProps(RULE_FORM, "json", note("json"))}
              />
            </label>
            <FieldNote form={RULE_FORM} field="json" message={note("json")} />
          </>
        )}

        <FormActions error={general} busy={busy} submitLabel="Save rule" onCancel={onClose} />
      </form>
    </Dialog>
  );
}

/** A status the rule sets the item to as its run goes, or none. */
function StatusSelect({
  label,
  labels,
  value,
  onChange,
}: {
  label: string;
  labels: readonly string[];
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <label>
      {label}
      <select value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">Leave it as it is</option>
        {labels.map((status) => (
          <option key={status} value={status}>
            {status}
          </option>
        ))}
      </select>
    </label>
  );
}
