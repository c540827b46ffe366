/**
 * The Schedules tab: each recipe on a cron pattern or an RRULE, in words and as written, with its
 * zone, when it runs next and its state; one an agent made waits for Approve; Pause, Resume and
 * Delete. New schedule asks for the rule, the zone (the browser's by default) and the values of
 * the recipe's placeholders; a refusal shows beside the field it is about.
 */
import { useMemo, useState, type FormEvent } from "react";
import type { Recipe, RecipeSchedule, ScheduleMissed } from "../../shared/api/types.generated";
import { exactTime, relativeTime } from "../../shared/time";
import { Dialog } from "../../shared/ui/Dialog";
import { useNow } from "../../shared/useNow";
import { changeSchedule, createSchedule, deleteSchedule } from "./api";
import { FieldNote, FormActions, invalidProps, PlaceholderValues, StateActions, StateTag } from "./parts";
import { errorFor, fieldError, generalError, waitingFirst, type FieldError } from "./recipes";
import {
  browserTimeZone,
  capitalized,
  CRON_EXAMPLES,
  describePattern,
  describeSchedule,
  knownTimeZones,
  nextRunText,
  rruleLines,
  SCHEDULE_STATE_LABEL,
  scheduleDraft,
  scheduleFields,
  scheduleRule,
  zonedTime,
  type ScheduleDraft,
} from "./schedules";

interface Props {
  schedules: RecipeSchedule[];
  recipes: Recipe[];
  onChanged: () => void;
}

export function SchedulesTab({ schedules, recipes, onChanged }: Props) {
  const [creating, setCreating] = useState(false);
  const names = useMemo(() => new Map(recipes.map((r) => [r.id, r.name])), [recipes]);
  const recipeName = (id: string) => names.get(id) ?? "A deleted recipe";
  const now = useNow();
  return (
    <div className="automation-tab">
      <div className="automation-toolbar">
        <p className="muted automation-intro">
          A schedule runs a recipe on a cron pattern or an RRULE, in a time zone. One an agent makes waits for your
          approval.
        </p>
        <button type="button" className="primary" disabled={recipes.length === 0} onClick={() => setCreating(true)}>
          New schedule
        </button>
      </div>
      {schedules.length === 0 ? (
        <div className="automation-empty empty-state">
          <p>No schedules yet.</p>
          <p className="muted">
            {recipes.length === 0
              ? "A schedule runs a recipe: make a recipe on the Recipes tab first, then put it on a schedule here."
              : "Put a recipe on a schedule with New schedule (or Schedule… on the recipe): every night, every weekday morning, the first of the month."}
          </p>
        </div>
      ) : (
        <ul className="automation-list" aria-label="Schedules">
          {waitingFirst(schedules, (s) => recipeName(s.recipeId)).map((schedule) => (
            <ScheduleCard
              key={schedule.id}
              schedule={schedule}
              recipeName={recipeName(schedule.recipeId)}
              now={now}
              onChanged={onChanged}
            />
          ))}
        </ul>
      )}
      {creating && (
        <ScheduleDialog
          recipes={recipes}
          recipeId={recipes[0]?.id ?? ""}
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

function ScheduleCard({
  schedule,
  recipeName,
  now,
  onChanged,
}: {
  schedule: RecipeSchedule;
  recipeName: string;
  now: number;
  onChanged: () => void;
}) {
  const rule = scheduleRule(schedule);
  const words = describeSchedule(schedule);
  const shownRule = rule.syntax === "cron" ? rule.text : rruleLines(rule.text).rrule;
  const values = Object.entries(schedule.values);
  return (
    <li className={`automation-card automation-card-${schedule.state}`} data-schedule-id={schedule.id}>
      <div className="automation-head">
        <h3 className="automation-name">{recipeName}</h3>
        <StateTag state={schedule.state} label={SCHEDULE_STATE_LABEL[schedule.state]} />
        {schedule.createdByAgent && <span className="tag">made by an agent</span>}
      </div>
      <p className="automation-rule">
        {words && <span className="automation-rule-words">{capitalized(words)} </span>}
        {/* An RRULE's DTSTART line (the server adds one) is in the tooltip, not in the way. */}
        <code title={rule.syntax === "cron" ? "Cron pattern" : rule.text}>{shownRule}</code>
      </p>
      <dl className="automation-facts">
        <div>
          <dt>Time zone</dt>
          <dd>{schedule.timeZone}</dd>
        </div>
        <div>
          <dt>Next run</dt>
          <dd>
            {schedule.state === "active" && schedule.nextAt ? (
              <time dateTime={schedule.nextAt} title={exactTime(schedule.nextAt)}>
                {nextRunText(schedule, now)} · {zonedTime(schedule.nextAt, schedule.timeZone)}
              </time>
            ) : (
              nextRunText(schedule, now)
            )}
          </dd>
        </div>
        <div>
          <dt>Last run</dt>
          <dd>
            {schedule.lastRunAt ? (
              <time dateTime={schedule.lastRunAt} title={exactTime(schedule.lastRunAt)}>
                {relativeTime(schedule.lastRunAt, now)}
              </time>
            ) : (
              "Never"
            )}
          </dd>
        </div>
        <div>
          <dt>Missed runs</dt>
          <dd>{schedule.missed === "run_once" ? "Caught up once" : "Skipped"}</dd>
        </div>
        {values.length > 0 && (
          <div>
            <dt>Values</dt>
            <dd>
              {values.map(([name, value], i) => (
                <span key={name}>
                  {i > 0 && ", "}
                  <code>{name}</code> = {value}
                </span>
              ))}
            </dd>
          </div>
        )}
      </dl>
      <StateActions
        what="schedule"
        state={schedule.state}
        change={(change) => changeSchedule(schedule.id, change)}
        remove={() => deleteSchedule(schedule.id)}
        question={
          <>
            the schedule of <strong>{recipeName}</strong> (<code>{shownRule}</code>)? The records of its runs stay.
          </>
        }
        onChanged={onChanged}
      />
    </li>
  );
}

const SCHEDULE_FORM = "schedule-form";
const SCHEDULE_FIELDS = ["recipeId", "cron", "rrule", "timeZone", "values"];

/** New schedule, for `recipeId` first (any recipe may be picked). */
export function ScheduleDialog({
  recipes,
  recipeId,
  onClose,
  onSaved,
}: {
  recipes: Recipe[];
  recipeId: string;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [draft, setDraft] = useState<ScheduleDraft>(() => scheduleDraft(recipeId, browserTimeZone()));
  const [error, setError] = useState<FieldError | null>(null);
  const [busy, setBusy] = useState(false);
  const zones = useMemo(() => knownTimeZones(), []);
  const recipe = recipes.find((r) => r.id === draft.recipeId);
  const names = recipe?.placeholders ?? [];
  const set = <K extends keyof ScheduleDraft>(key: K, value: ScheduleDraft[K]) =>
    setDraft((d) => ({ ...d, [key]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = scheduleFields(draft, names);
    if (!checked.ok) {
      setError({ field: checked.field, message: checked.message });
      return;
    }
    setBusy(true);
    setError(null);
    createSchedule(checked.value).then(onSaved, (e: unknown) => {
      setBusy(false);
      setError(fieldError(e));
    });
  };

  const note = (field: string) => errorFor(error, field);
  const ruleField = draft.syntax;
  const general = generalError(error, SCHEDULE_FIELDS);
  const words = describePattern(draft.syntax, draft.rule);
  return (
    <Dialog title="New schedule" onClose={onClose}>
      <form className="automation-form" onSubmit={submit} noValidate>
        <label>
          Recipe
          <select
            value={draft.recipeId}
            onChange={(e) => set("recipeId", e.target.value)}
            {...invalidProps(SCHEDULE_FORM, "recipeId", note("recipeId"))}
          >
            {recipes.map((r) => (
              <option key={r.id} value={r.id}>
                {r.name}
              </option>
            ))}
          </select>
        </label>
        <FieldNote form={SCHEDULE_FORM} field="recipeId" message={note("recipeId")} />
        <fieldset className="automation-choice">
          <legend>Rule</legend>
          <label>
            <input
              type="radio"
              name="syntax"
              checked={draft.syntax === "cron"}
              onChange={() => set("syntax", "cron")}
            />
            Cron pattern
          </label>
          <label>
            <input
              type="radio"
              name="syntax"
              checked={draft.syntax === "rrule"}
              onChange={() => set("syntax", "rrule")}
            />
            RRULE
          </label>
        </fieldset>
        <label>
          {draft.syntax === "cron" ? "Cron pattern (minute hour day month weekday)" : "RRULE"}
          <input
            value={draft.rule}
            onChange={(e) => set("rule", e.target.value)}
            placeholder={draft.syntax === "cron" ? "0 9 * * 1-5" : "FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0"}
            spellCheck={false}
            autoFocus
            {...invalidProps(SCHEDULE_FORM, ruleField, note(ruleField))}
          />
        </label>
        <FieldNote form={SCHEDULE_FORM} field={ruleField} message={note(ruleField)} />
        {words && <p className="muted automation-hint">Runs {words}.</p>}
        {draft.syntax === "cron" && (
          <div className="automation-examples" role="group" aria-label="Examples">
            {CRON_EXAMPLES.map((example) => (
              <button
                key={example.rule}
                type="button"
                className="link-button"
                title={example.rule}
                onClick={() => set("rule", example.rule)}
              >
                {example.label}
              </button>
            ))}
          </div>
        )}
        <label>
          Time zone
          <input
            value={draft.timeZone}
            onChange={(e) => set("timeZone", e.target.value)}
            list="automation-time-zones"
            spellCheck={false}
            {...invalidProps(SCHEDULE_FORM, "timeZone", note("timeZone"))}
          />
        </label>
        <FieldNote form={SCHEDULE_FORM} field="timeZone" message={note("timeZone")} />
        <datalist id="automation-time-zones">
          {zones.map((zone) => (
            <option key={zone} value={zone} />
          ))}
        </datalist>
        <label>
          Runs missed while Switchboard was down
          <select value={draft.missed} onChange={(e) => set("missed", e.target.value as ScheduleMissed)}>
            <option value="run_once">Run once to catch up</option>
            <option value="skip">Skip them</option>
          </select>
        </label>
        {names.length > 0 && (
          <PlaceholderValues
            legend="Values for every run"
            names={names}
            values={draft.values}
            onChange={(values) => set("values", values)}
            form={SCHEDULE_FORM}
            message={note("values")}
          />
        )}
        <FormActions error={general} busy={busy} submitLabel="Save schedule" onCancel={onClose} />
      </form>
    </Dialog>
  );
}
