/**
 * Plays an alarm's sound in the browser (a URL through an audio element, or a built-in beep made
 * with WebAudio) with its fade-in and duration, and speaks a label aloud. The timing rules are
 * `ringing.ts`'s; this file only drives the browser.
 */
import { volumeAt, type SoundPlan } from "./ringing";

export interface Playing {
  stop(): void;
}

const SILENT: Playing = { stop() {} };

/** Starts the sound; `stop` ends it at once. A browser that refuses to play (no user gesture yet) stays silent. */
export function playAlarmSound(plan: SoundPlan): Playing {
  try {
    return plan.source.kind === "url" ? playUrl(plan.source.url, plan) : playBeep(plan);
  } catch {
    return SILENT;
  }
}

function playUrl(url: string, plan: SoundPlan): Playing {
  const audio = new Audio(url);
  audio.loop = plan.loop;
  audio.volume = volumeAt(0, plan.fadeInSeconds);
  const started = performance.now();
  const fade = window.setInterval(() => {
    audio.volume = volumeAt((performance.now() - started) / 1000, plan.fadeInSeconds);
  }, 100);
  audio.play().catch(() => {});
  const stop = () => {
    window.clearInterval(fade);
    window.clearTimeout(limit);
    audio.pause();
  };
  const limit = plan.durationSeconds === null ? undefined : window.setTimeout(stop, plan.durationSeconds * 1000);
  return { stop };
}

/** Beeps of a quarter second at 880 Hz, one a second (three in all when played once). */
function playBeep(plan: SoundPlan): Playing {
  const context = new AudioContext();
  const master = context.createGain();
  master.connect(context.destination);
  const start = context.currentTime;
  const full = 0.4;
  if (plan.fadeInSeconds > 0) {
    master.gain.setValueAtTime(0.0001, start);
    master.gain.linearRampToValueAtTime(full, start + plan.fadeInSeconds);
  } else {
    master.gain.setValueAtTime(full, start);
  }
  let beeps = 0;
  const beep = () => {
    const oscillator = context.createOscillator();
    oscillator.frequency.value = 880;
    oscillator.connect(master);
    oscillator.start();
    oscillator.stop(context.currentTime + 0.25);
    beeps += 1;
    if (!plan.loop && beeps >= 3) window.clearInterval(repeat);
  };
  const repeat = window.setInterval(beep, 1000);
  beep();
  const stop = () => {
    window.clearInterval(repeat);
    window.clearTimeout(limit);
    context.close().catch(() => {});
  };
  const limit = plan.durationSeconds === null ? undefined : window.setTimeout(stop, plan.durationSeconds * 1000);
  return { stop };
}

/** Reads `label` aloud where the browser can. */
export function speak(label: string): void {
  if (typeof window.speechSynthesis === "undefined") return;
  window.speechSynthesis.speak(new SpeechSynthesisUtterance(label));
}
