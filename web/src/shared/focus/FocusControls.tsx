/**
 * The focus pill and the pomodoro timer in the sidebar: turn focus mode on or off (hidden while
 * `focusModeFeatureEnabled` is off), start a run of the classic plan, and while one runs, its
 * phase and the time left with Skip and Stop.
 */
import { useEffect, useState } from "react";
import { phaseLabel, timeLeft } from "./focus";
import { useFocus } from "./FocusProvider";
import "./focus.css";

/** The time now, every second while `ticking`. */
function useSecondTick(ticking: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!ticking) return;
    const tick = () => setNow(Date.now());
    // At once too: the time kept from before the run began is stale.
    const first = window.setTimeout(tick, 0);
    const timer = window.setInterval(tick, 1000);
    return () => {
      window.clearTimeout(first);
      window.clearInterval(timer);
    };
  }, [ticking]);
  return now;
}

export function FocusControls() {
  const { focus, pomodoro, featureOn, setFocus, changePomodoro } = useFocus();
  const run = pomodoro?.run ?? null;
  const now = useSecondTick(run !== null);
  const on = focus?.on === true;
  return (
    <div className="focus-controls" role="group" aria-label="Focus">
      {featureOn && (
        <button
          type="button"
          className="focus-pill"
          aria-pressed={on}
          title={on ? "Notifications are held until focus mode ends" : "Hold notifications while you focus"}
          onClick={() => setFocus(!on)}
        >
          {on ? "Focus on" : "Focus"}
        </button>
      )}
      {run ? (
        <span className="pomodoro-run">
          <span className="pomodoro-timer" role="timer" aria-label={`${phaseLabel(run)}, ${timeLeft(run, now)} left`}>
            {phaseLabel(run)} · {timeLeft(run, now)}
          </span>
          <button type="button" onClick={() => changePomodoro({ action: "skip" })}>
            Skip
          </button>
          <button type="button" onClick={() => changePomodoro({ action: "stop" })}>
            Stop
          </button>
        </span>
      ) : (
        <button type="button" className="pomodoro-start" onClick={() => changePomodoro({ action: "start" })}>
          Start pomodoro
        </button>
      )}
    </div>
  );
}
