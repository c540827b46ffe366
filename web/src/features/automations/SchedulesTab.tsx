/**
 * The Schedules tab: each recipe on a cron pattern or an RRULE, in words and as written, with its
 * zone, when it runs next and its state; one an agent made waits for Approve; Pause, Resume,
 * Delete and Run now (the recipe with the schedule's values, at once). New schedule asks for the
 * "when" through the shared picker (presets first, then a custom cron pattern or RRULE), the zone
 * (the browser's by default) and the values of the recipe's placeholders; every problem shows
 * under the field it is about, all at once.
 */
import { useMemo, useState, type FormEvent } from "react";
import { Link, sessionPath } from "../../shared/router";
import type { Recipe, RecipeSchedule, ScheduleMissed } from "../../shared/api/types.generated";
import { errorMessage } from "../../shared/api/errorMessage";
import { exactTime, relativeTime } from "../../shared/time";
import { Dialog } from "../../shared/ui/Dialog";
import { useNow } from "../../shared/useNow";
import { changeSchedule, createSchedule, deleteSchedule, runScheduleNow } from "./api";
import { FieldNote, FormActions, invalidProps, PlaceholderValues, StateActions, StateTag } from "./parts";
import {
  formErrors,
  generalMessage,
  messageFor,
  NO_ERRORS,
  withoutFields,
  type FormErrors,
} from "../../shared/api/formErrors";
import { waitingFirst } from "./recipes";
import { SchedulePicker } from "../../shared/schedule/SchedulePicker";
import { changedFields } from "../../shared/schedule/when";
import {
  browserTimeZone,
  capitalized,
  describeSchedule,
  nextRunText,
  rruleLines,
  SCHEDULE_STATE_LABEL,
  scheduleDraft,
  scheduleFields,
  scheduleRule,
  zonedTime,
  type ScheduleDraft,
} from "./schedules";
import { Pill } from "../../shared/ui/Pill";

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
          A schedule runs a recipe every day, every weekday or every week at a time, or on a cron pattern or an RRULE,
          in a time zone. One an agent makes waits for your approval.
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
  const [running, setRunning] = useState(false);
  const [started, setStarted] = useState<string | null>(null);
  const [runError, setRunError] = useState<string | null>(null);
  const runNow = () => {
    setRunning(true);
    setRunError(null);
    runScheduleNow(schedule.id).then(
      (run) => {
        setRunning(false);
        setStarted(run.sessionId);
      },
      (e: unknown) => {
        setRunning(false);
        setRunError(errorMessage(e));
      },
    );
  };
  return (
    <li className={`automation-card automation-card-${schedule.state}`} data-schedule-id={schedule.id}>
      <div className="automation-head">
        <h3 className="automation-name">{recipeName}</h3>
        <StateTag state={schedule.state} label={SCHEDULE_STATE_LABEL[schedule.state]} />
        {schedule.createdByAgent && <Pill>made by an agent</Pill>}
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
      >
        <button type="button" disabled={running} aria-busy={running || undefined} onClick={runNow}>
          Run now
        </button>
      </StateActions>
      {started && (
        <p className="automation-started" role="status">
          Run started. <Link to={sessionPath(started)}>Open its session</Link>
        </p>
      )}
      {runError && (
        <p className="inline-error" role="alert">
          {runError}
        </p>
      )}
    </li>
  );
}

const SCHEDULE_FORM = "schedule-form";
const SCHEDULE_FIELDS = ["recipeId", "repeat", "at", "time", "cron", "rrule", "timeZone", "values"];

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
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const [busy, setBusy] = useState(false);
  const now = useNow();
  const recipe = recipes.find((r) => r.id === draft.recipeId);
  const names = recipe?.placeholders ?? [];
  // An edited field stops being refused; the others keep saying what is wrong with them.
  const set = <K extends keyof ScheduleDraft>(key: K, value: ScheduleDraft[K]) => {
    setDraft((d) => ({ ...d, [key]: value }));
    setErrors((e) => withoutFields(e, [key]));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = scheduleFields(draft, names, new Date());
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setBusy(true);
    setErrors(NO_ERRORS);
    createSchedule(checked.value).then(onSaved, (e: unknown) => {
      setBusy(false);
      setErrors(formErrors(e));
    });
  };

  const note = (field: string) => messageFor(errors, field);
  const general = generalMessage(errors, SCHEDULE_FIELDS);
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
        <SchedulePicker
          form={SCHEDULE_FORM}
          draft={draft.when}
          once={false}
          errors={errors}
          now={new Date(now)}
          onChange={(patch) => {
            setDraft((d) => ({ ...d, when: { ...d.when, ...patch } }));
            setErrors((e) => withoutFields(e, changedFields(patch)));
          }}
        />
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
