/**
 * "Set an alarm", in the settings' alarms section (docs/fleet-cards.md): the alarm typed in words
 * is read by the utility model (`POST /alarms/words`) within `alarmNlpDailyCostCap`; past the cap,
 * with no engine, or when the words make no alarm, the form asks for the fields (`POST /alarms`).
 */
import { useState } from "react";
import type { Alarm, AlarmRepeat } from "../../shared/api/types.generated";
import { ApiError, apiFetch } from "../../shared/api/client";
import { errorMessage } from "../../shared/api/errorMessage";
import { Button } from "../../shared/ui/Button";

/** Why the words were not read, when the answer means "ask for the fields"; else null. */
export function fieldsReason(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  switch (error.code) {
    case "alarm_words_capped":
      return "Today's limit for reading alarms in words is reached: enter the alarm's fields.";
    case "alarm_words_unavailable":
      return "No engine can read the words: enter the alarm's fields.";
    case "alarm_words_unreadable":
      return "The words did not make an alarm: enter its fields.";
    default:
      return null;
  }
}

/** The alarm set, in words. */
export function setWords(alarm: Alarm): string {
  const repeat = alarm.repeat === null ? "" : alarm.repeat === "daily" ? ", every day" : ", every weekday";
  return `Alarm “${alarm.label}” set for ${new Date(alarm.at).toLocaleString()}${repeat}.`;
}

export function AlarmWords() {
  const [text, setText] = useState("");
  const [fields, setFields] = useState<string | null>(null);
  const [label, setLabel] = useState("");
  const [at, setAt] = useState("");
  const [repeat, setRepeat] = useState<AlarmRepeat | "">("");
  const [note, setNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const run = async (send: () => Promise<Alarm>) => {
    setBusy(true);
    try {
      setNote(setWords(await send()));
      setText("");
      setFields(null);
    } catch (error) {
      const reason = fieldsReason(error);
      if (reason === null) setNote(errorMessage(error));
      else {
        setFields(reason);
        setLabel(text);
        setNote(null);
      }
    } finally {
      setBusy(false);
    }
  };
  const fromWords = () => run(() => apiFetch<Alarm>("/alarms/words", { method: "POST", body: { text: text.trim() } }));
  const fromFields = () =>
    run(() =>
      apiFetch<Alarm>("/alarms", {
        method: "POST",
        body: { label: label.trim(), at, ...(repeat === "" ? {} : { repeat }) },
      }),
    );

  return (
    <section className="alarm-words" aria-label="Set an alarm">
      <h3>Set an alarm</h3>
      {fields === null ? (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void fromWords();
          }}
        >
          <label>
            In words
            <input
              value={text}
              maxLength={300}
              placeholder="every weekday at 9 remind me to check the nightly run"
              onChange={(event) => setText(event.target.value)}
            />
          </label>
          <Button type="submit" disabled={busy || text.trim() === ""}>
            Set
          </Button>
        </form>
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void fromFields();
          }}
        >
          <p role="status">{fields}</p>
          <label>
            Label
            <input value={label} maxLength={200} required onChange={(event) => setLabel(event.target.value)} />
          </label>
          <label>
            Time
            <input type="time" value={at} required onChange={(event) => setAt(event.target.value)} />
          </label>
          <label>
            Repeat
            <select value={repeat} onChange={(event) => setRepeat(event.target.value as AlarmRepeat | "")}>
              <option value="">Once</option>
              <option value="daily">Every day</option>
              <option value="weekdays">Weekdays</option>
            </select>
          </label>
          <Button type="submit" disabled={busy || label.trim() === "" || at === ""}>
            Set
          </Button>
        </form>
      )}
      {note && <p role="status">{note}</p>}
    </section>
  );
}
