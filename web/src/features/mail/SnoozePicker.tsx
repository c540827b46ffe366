/**
 * H's picker: snooze the open thread until later today, tomorrow morning, next week, or a date
 * and time the person types. The thread comes back to its folder, unread, at that time.
 */
import { useEffect, useId, useRef, useState } from "react";
import { pickedTime, snoozeChoices, snoozeTimeText } from "./snooze";

interface Props {
  now: Date;
  onPick: (until: Date) => void;
  onClose: () => void;
}

export function SnoozePicker({ now, onPick, onClose }: Props) {
  const [typed, setTyped] = useState("");
  const id = useId();
  const first = useRef<HTMLButtonElement>(null);
  useEffect(() => first.current?.focus(), []);
  const picked = pickedTime(typed, now);
  return (
    <div
      className="mail-snooze"
      role="group"
      aria-label="Snooze until"
      onKeyDown={(event) => {
        if (event.key === "Escape") {
          event.stopPropagation();
          onClose();
        }
      }}
    >
      <h3 className="mail-snooze-title">Snooze until</h3>
      <ul className="mail-snooze-choices">
        {snoozeChoices(now).map((choice, at) => (
          <li key={choice.key}>
            <button type="button" ref={at === 0 ? first : undefined} onClick={() => onPick(choice.at)}>
              {choice.label} <span className="muted">{snoozeTimeText(choice.at)}</span>
            </button>
          </li>
        ))}
      </ul>
      <form
        className="mail-snooze-date"
        onSubmit={(event) => {
          event.preventDefault();
          if (picked) onPick(picked);
        }}
      >
        <label htmlFor={`${id}-at`}>A date</label>
        <input id={`${id}-at`} type="datetime-local" value={typed} onChange={(event) => setTyped(event.target.value)} />
        <button type="submit" disabled={!picked}>
          Snooze
        </button>
        <button type="button" onClick={onClose}>
          Cancel
        </button>
      </form>
    </div>
  );
}
