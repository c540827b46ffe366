/**
 * The first run's one optional question (`heardAboutUs`): where the user first found Switchboard.
 * Asked on the welcome page, which shows only until the first workspace is made, so it is asked once;
 * Skip (or saying nothing) stores nothing. The answer is the setting, shown and edited in Settings.
 */
import { useState, type FormEvent } from "react";
import { useSettings } from "./settings";
import { useToast } from "./ui/toasts";

export function HeardAboutUs() {
  const { values, update } = useSettings();
  const toast = useToast();
  const [answer, setAnswer] = useState("");
  const [done, setDone] = useState(false);
  if (done || !values || (values.heardAboutUs ?? "") !== "") return null;

  const save = (event: FormEvent) => {
    event.preventDefault();
    const value = answer.trim();
    if (!value) return setDone(true);
    update("heardAboutUs", value).then(
      () => setDone(true),
      (e: unknown) => toast.error(e, "The answer was not saved"),
    );
  };

  return (
    <form className="heard-about-us" aria-label="Where you heard about us" onSubmit={save}>
      <label>
        Where did you first hear about Switchboard? <span className="muted">(optional)</span>
        <input value={answer} maxLength={64} onChange={(e) => setAnswer(e.target.value)} />
      </label>
      <button type="submit">Save</button>
      <button type="button" onClick={() => setDone(true)}>
        Skip
      </button>
    </form>
  );
}
