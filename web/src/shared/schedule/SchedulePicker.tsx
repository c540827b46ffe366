/**
 * The one "when" picker of every form that schedules something (a recipe's schedule, a scheduled
 * message, a drip): presets first (every day, every weekday, every week on a day, at a time), once
 * where the form allows it, then Custom for a cron pattern or an RRULE; the zone it is read in;
 * and the next three times it comes, in words. Each problem shows under its field.
 */
import { useMemo } from "react";
import { messageFor, type FormErrors } from "../api/formErrors";
import { FieldNote, invalidProps } from "../ui/FieldNote";
import { previewText, WEEKDAYS, type Repeat, type WhenDraft } from "./when";
import "./schedule.css";

const REPEATS: readonly (readonly [Repeat, string])[] = [
  ["daily", "Every day"],
  ["weekdays", "Every weekday (Monday to Friday)"],
  ["weekly", "Every week"],
  ["once", "Once"],
  ["custom", "Custom (cron or RRULE)"],
];

/** The zones the browser knows, for the zone field's suggestions. */
function zoneNames(): string[] {
  try {
    return Intl.supportedValuesOf("timeZone");
  } catch {
    return ["UTC"];
  }
}

interface Props {
  /** The form's id, for the ids of the fields' refusals (`<form>-<field>-error`). */
  form: string;
  draft: WhenDraft;
  onChange: (patch: Partial<WhenDraft>) => void;
  /** Offer "Once" (a schedule and a drip always repeat). */
  once: boolean;
  errors: FormErrors;
  now: Date;
}

export function SchedulePicker({ form, draft, onChange, once, errors, now }: Props) {
  const zones = useMemo(() => zoneNames(), []);
  const note = (field: string) => (
    <FieldNote form={form} field={field} message={messageFor(errors, field)} className="schedule-picker-error" />
  );
  const invalid = (field: string) => invalidProps(form, field, messageFor(errors, field));
  const repeats = REPEATS.filter(([value]) => once || value !== "once");
  const preview = previewText(draft, now);
  const preset = draft.repeat === "daily" || draft.repeat === "weekdays" || draft.repeat === "weekly";
  return (
    <fieldset className="schedule-picker">
      <legend>When</legend>
      <label>
        Repeats
        <select
          value={draft.repeat}
          onChange={(e) => onChange({ repeat: e.target.value as Repeat })}
          {...invalid("repeat")}
        >
          {repeats.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </label>
      {note("repeat")}
      {draft.repeat === "once" && (
        <>
          <label>
            Date and time
            <input
              type="datetime-local"
              value={draft.at}
              onChange={(e) => onChange({ at: e.target.value })}
              {...invalid("at")}
            />
          </label>
          {note("at")}
        </>
      )}
      {preset && (
        <>
          <div className="schedule-picker-row">
            {draft.repeat === "weekly" && (
              <label>
                On
                <select value={draft.weekday} onChange={(e) => onChange({ weekday: Number(e.target.value) })}>
                  {WEEKDAYS.map(([day, name]) => (
                    <option key={day} value={day}>
                      {name}
                    </option>
                  ))}
                </select>
              </label>
            )}
            <label>
              At
              <input
                type="time"
                value={draft.time}
                onChange={(e) => onChange({ time: e.target.value })}
                {...invalid("time")}
              />
            </label>
          </div>
          {note("time")}
        </>
      )}
      {draft.repeat === "custom" && (
        <>
          <div className="schedule-picker-syntax" role="radiogroup" aria-label="Written as">
            <label>
              <input
                type="radio"
                name={`${form}-syntax`}
                checked={draft.syntax === "cron"}
                onChange={() => onChange({ syntax: "cron" })}
              />
              Cron pattern
            </label>
            <label>
              <input
                type="radio"
                name={`${form}-syntax`}
                checked={draft.syntax === "rrule"}
                onChange={() => onChange({ syntax: "rrule" })}
              />
              RRULE
            </label>
          </div>
          <label>
            {draft.syntax === "cron" ? "Cron pattern (minute hour day month weekday)" : "RRULE (RFC 5545)"}
            <input
              value={draft.rule}
              spellCheck={false}
              placeholder={draft.syntax === "cron" ? "30 8 * * 1-5" : "FREQ=MONTHLY;BYMONTHDAY=1;BYHOUR=9;BYMINUTE=0"}
              onChange={(e) => onChange({ rule: e.target.value })}
              {...invalid(draft.syntax)}
            />
          </label>
          {note(draft.syntax)}
        </>
      )}
      <label>
        Time zone
        <input
          value={draft.timeZone}
          list={`${form}-zones`}
          spellCheck={false}
          onChange={(e) => onChange({ timeZone: e.target.value })}
          {...invalid("timeZone")}
        />
      </label>
      <datalist id={`${form}-zones`}>
        {zones.map((zone) => (
          <option key={zone} value={zone} />
        ))}
      </datalist>
      {note("timeZone")}
      <p className="muted schedule-picker-preview" aria-live="polite">
        {preview ??
          (draft.repeat === "custom" && draft.syntax === "rrule" ? "The next times show once it is saved." : "")}
      </p>
    </fieldset>
  );
}
