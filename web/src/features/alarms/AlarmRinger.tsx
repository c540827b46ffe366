/**
 * Shows a ringing alarm wherever the app is: a modal, a banner or a silent banner as
 * `alarmsAssertiveness` says, with Snooze (until `alarmsDefaultMaxSnoozes`) and Dismiss; plays
 * `alarmsDefaultSound` and speaks the label when `alarmsDefaultSpeakLabel` is on. The server rings
 * the alarm; this only shows what the `alarm` events and `GET /alarms` say is ringing. Focus mode
 * holds a ringing alarm (no sound, nothing shown) unless `alarmsPierceFocusMode` is on; it shows
 * when focus mode ends, if it still rings.
 */
import { useCallback, useEffect, useState } from "react";
import { apiFetch } from "../../shared/api/client";
import type { Alarm, AlarmChanged } from "../../shared/api/types.generated";
import { useFocus } from "../../shared/focus/FocusProvider";
import { useSettings } from "../../shared/settings";
import { useStreamEvent, useStreamLifecycle } from "../../shared/stream/useStream";
import { useToast } from "../../shared/ui/toasts";
import { applyAlarmChange, canSnooze, presentationOf, ringingOf, soundPlan } from "./ringing";
import { playAlarmSound, speak } from "./sound";
import "./alarms.css";

export function AlarmRinger() {
  const { values } = useSettings();
  const toast = useToast();
  const [ringing, setRinging] = useState<Alarm[]>([]);
  const enabled = values !== undefined && values.alarmsEnabled !== false;

  // Alarms that began ringing before this page opened come from the list, later ones from events.
  const load = useCallback(() => {
    if (!enabled) return;
    apiFetch<Alarm[]>("/alarms").then(
      (list) => setRinging(ringingOf(list)),
      () => {},
    );
  }, [enabled]);
  useEffect(load, [load]);
  useStreamLifecycle("reset", load);
  useStreamEvent<AlarmChanged>("alarm", (change) => setRinging((now) => applyAlarmChange(now, change)));

  const { hold } = useFocus();
  const heldByFocus = hold.on && !hold.alarmsPierce;
  const alarm = enabled && !heldByFocus ? ringing[0] : undefined;
  const presentation = presentationOf(values?.alarmsAssertiveness);
  const alarmId = alarm?.id;
  const label = alarm?.label;
  const sound = values?.alarmsDefaultSound;
  const playMode = values?.alarmsDefaultSoundPlayMode;
  const fadeInSeconds = values?.alarmsDefaultSoundFadeInSeconds;
  const durationSeconds = values?.alarmsDefaultSoundDurationSeconds;
  const speakLabel = values?.alarmsDefaultSpeakLabel === true;
  useEffect(() => {
    if (alarmId === undefined || label === undefined || !presentation.audible) return;
    const playing = playAlarmSound(soundPlan({ sound, playMode, fadeInSeconds, durationSeconds }));
    if (speakLabel) speak(label);
    return () => playing.stop();
  }, [alarmId, label, presentation.audible, sound, playMode, fadeInSeconds, durationSeconds, speakLabel]);

  if (!alarm) return null;
  const answer = (action: "snooze" | "dismiss") => {
    apiFetch<Alarm>(`/alarms/${encodeURIComponent(alarm.id)}/${action}`, { method: "POST" }).then(
      (after) => setRinging((now) => applyAlarmChange(now, { id: after.id, alarm: after, deleted: false })),
      (error: unknown) =>
        toast.error(error, action === "snooze" ? "The alarm was not snoozed" : "The alarm was not dismissed"),
    );
  };
  const more = ringing.length > 1 ? ` (+${ringing.length - 1} more)` : "";
  const body = (
    <>
      <span className="alarm-label">
        ⏰ {alarm.label}
        {more}
      </span>
      <span className="alarm-actions">
        {canSnooze(alarm, values?.alarmsDefaultMaxSnoozes) && (
          <button type="button" onClick={() => answer("snooze")}>
            Snooze {values?.alarmsDefaultSnoozeMinutes ?? 9} min
          </button>
        )}
        <button type="button" className="primary" onClick={() => answer("dismiss")}>
          Dismiss
        </button>
      </span>
    </>
  );
  if (presentation.modal) {
    return (
      <div className="alarm-backdrop">
        <div className="alarm-modal" role="alertdialog" aria-modal="true" aria-label={`Alarm: ${alarm.label}`}>
          {body}
        </div>
      </div>
    );
  }
  return (
    <div className="alarm-banner" role={presentation.audible ? "alert" : "status"}>
      {body}
    </div>
  );
}
