/**
 * The "when" of both forms: once at a local date and time (messages only), every day, every
 * weekday or every week at a time, or a rule written out (RRULE or cron), and the time zone it is
 * read in. A refusal of one of its fields shows under that field.
 */
import { useMemo } from "react";
import { WEEKDAYS, type Repeat, type TimingDraft, type Weekday } from "./drips";
import { FieldError, invalidFor, type Refusal } from "./FieldError";

const REPEATS: readonly (readonly [Repeat, string])[] = [
  ["once", "Once"],
  ["daily", "Every day"],
  ["weekdays", "Every weekday"],
  ["weekly", "Every week"],
  ["rrule", "RRULE"],
  ["cron", "Cron pattern"],
];

/** The zones the browser knows, for the zone field's suggestions. */
function zoneNames(): string[] {
  const intl = Intl as { supportedValuesOf?: (key: string) => string[] };
  return intl.supportedValuesOf?.("timeZone") ?? ["UTC"];
}

interface Props {
  form: string;
  draft: TimingDraft;
  onChange: (patch: Partial<TimingDraft>) => void;
  /** Offer "Once" (a drip always repeats). */
  once: boolean;
  error: Refusal | null;
}

export function TimingFields({ form, draft, onChange, once, error }: Props) {
  const zones = useMemo(() => zoneNames(), []);
  const noteOn = (field: string) => <FieldError form={form} field={field} error={error} />;
  const invalid = (field: string) => invalidFor(form, field, error);
  const repeats = REPEATS.filter(([value]) => once || value !== "once");
  return (
    <fieldset className="drip-timing">
      <legend>When</legend>
      <label>
        Repeat
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
      {noteOn("repeat")}
      {draft.repeat === "once" && (
        <label>
          Date and time
          <input
            type="datetime-local"
            value={draft.at}
            onChange={(e) => onChange({ at: e.target.value })}
            {...invalid("at")}
          />
        </label>
      )}
      {noteOn("at")}
      {(draft.repeat === "daily" || draft.repeat === "weekdays" || draft.repeat === "weekly") && (
        <div className="drip-row">
          {draft.repeat === "weekly" && (
            <label>
              Day
              <select value={draft.weekday} onChange={(e) => onChange({ weekday: e.target.value as Weekday })}>
                {WEEKDAYS.map(([code, name]) => (
                  <option key={code} value={code}>
                    {name}
                  </option>
                ))}
              </select>
            </label>
          )}
          <label>
            Time
            <input
              type="time"
              value={draft.time}
              onChange={(e) => onChange({ time: e.target.value })}
              {...invalid("time")}
            />
          </label>
        </div>
      )}
      {noteOn("time")}
      {(draft.repeat === "rrule" || draft.repeat === "cron") && (
        <label>
          {draft.repeat === "cron" ? "Cron pattern (minute hour day month weekday)" : "RRULE (RFC 5545)"}
          <input
            value={draft.rule}
            spellCheck={false}
            placeholder={draft.repeat === "cron" ? "30 8 * * 1-5" : "FREQ=MONTHLY;BYMONTHDAY=1;BYHOUR=9"}
            onChange={(e) => onChange({ rule: e.target.value })}
            {...invalid(draft.repeat)}
          />
        </label>
      )}
      {noteOn(draft.repeat)}
      <label>
        Time zone
        <input
          value={draft.timeZone}
          list={`${form}-zones`}
          spellCheck={false}
          onChange={(e) => onChange({ timeZone: e.target.value })}
          {...invalid("timeZone")}
        />
        <datalist id={`${form}-zones`}>
          {zones.map((zone) => (
            <option key={zone} value={zone} />
          ))}
        </datalist>
      </label>
      {noteOn("timeZone")}
    </fieldset>
  );
}
