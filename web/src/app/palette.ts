/**
 * The command palette's choice, apart from its rendering: the everyday actions it offers in the
 * state the app is in, and which commands match what was typed, best first. Every typed word
 * must appear in the command's label, hint or keywords; a label that has the text as whole words
 * comes before one where it only starts a word ("theme" finds "Switch to dark theme" before a
 * dashboard called "Themed"), a label before the hint and keywords, and within each the order
 * given (actions and pages before sessions, sessions most recent first).
 */

export type CommandKind = "action" | "page" | "session" | "board" | "dashboard";

export interface Command {
  id: string;
  kind: CommandKind;
  label: string;
  /** Shown beside the label and searched with it: a session's folder, a board's workspace. */
  hint?: string;
  /** Searched, not shown: the other words a person types for it ("sessions" for Agents). */
  keywords?: string;
  run: () => void;
}

export const KIND_LABEL: Record<CommandKind, string> = {
  action: "Action",
  page: "Page",
  session: "Session",
  board: "Board",
  dashboard: "Dashboard",
};

/** A page of the app as the sidebar lists it. */
export interface PalettePage {
  to: string;
  label: string;
  /** The palette's name for it, when the sidebar's word is too short to search for ("Where's my work"). */
  paletteLabel?: string;
  keywords?: string;
}

/** A command for each page: by its palette name where it has one, the sidebar's word as its hint so either finds it. */
export function pageCommands(pages: readonly PalettePage[], open: (to: string) => void): Command[] {
  return pages.map((page) => ({
    id: `page:${page.to}`,
    kind: "page",
    label: page.paletteLabel ?? page.label,
    hint: page.paletteLabel === undefined ? undefined : page.label,
    keywords: page.keywords,
    run: () => open(page.to),
  }));
}

/** What the everyday actions depend on, as the shell knows it now. */
export interface ActionState {
  /** Focus mode: on, off, or not offered (`focusModeFeatureEnabled` is off, or not read yet). */
  focus: "on" | "off" | "hidden";
  pomodoroRunning: boolean;
  /** The theme the theme action switches to; null until the settings are read. */
  nextTheme: "light" | "dark" | null;
}

export interface ActionRuns {
  newSession(): void;
  nextNeedingYou(): void;
  readAll(): void;
  openSettings(): void;
  setFocus(on: boolean): void;
  pomodoro(action: "start" | "skip" | "stop"): void;
  switchTheme(): void;
  newRecipe(): void;
}

/** The everyday actions, each only where it does something: "Stop focus" while focus is on, not "Start focus". */
export function actionCommands(state: ActionState, run: ActionRuns): Command[] {
  const action = (id: string, label: string, go: () => void, keywords?: string, hint?: string): Command => ({
    id,
    kind: "action",
    label,
    hint,
    keywords,
    run: go,
  });
  const focusWords = "focus mode do not disturb dnd";
  const commands: Command[] = [action("new-session", "New session", run.newSession, "start agent")];
  if (state.focus === "off") commands.push(action("focus-on", "Start focus", () => run.setFocus(true), focusWords));
  if (state.focus === "on") commands.push(action("focus-off", "Stop focus", () => run.setFocus(false), focusWords));
  if (state.pomodoroRunning) {
    commands.push(
      action("pomodoro-skip", "Skip to the next pomodoro phase", () => run.pomodoro("skip"), "timer break"),
      action("pomodoro-stop", "Stop the pomodoro", () => run.pomodoro("stop"), "timer focus"),
    );
  } else {
    commands.push(action("pomodoro-start", "Start a pomodoro", () => run.pomodoro("start"), "timer focus"));
  }
  if (state.nextTheme !== null) {
    commands.push(
      action(
        "theme",
        `Switch to ${state.nextTheme} theme`,
        run.switchTheme,
        "theme dark light mode appearance colour color",
      ),
    );
  }
  commands.push(
    action("new-recipe", "New recipe", run.newRecipe, "automation", "Automations"),
    action("next", "Next session that needs you", run.nextNeedingYou, undefined, "n"),
    action("read-all", "Mark every inbox row read", run.readAll),
    action("restart", "Restart Switchboard…", run.openSettings, undefined, "settings"),
  );
  return commands;
}

const WORD_CHAR = /[\p{L}\p{N}]/u;

/** Whether `text` stands in `words` as whole words: not the start of a longer word ("theme", not "Themed"). */
function wholeWordsIn(words: string, text: string): boolean {
  for (let at = words.indexOf(text); at !== -1; at = words.indexOf(text, at + 1)) {
    const before = words[at - 1];
    const after = words[at + text.length];
    if ((before === undefined || !WORD_CHAR.test(before)) && (after === undefined || !WORD_CHAR.test(after))) {
      return true;
    }
  }
  return false;
}

/**
 * Lower is better: the label starting with the text as whole words, then holding it as whole
 * words, then starting with it, then a word of the label starting with it, then a word of the
 * hint or keywords; the rest last.
 */
function score(command: Command, text: string): number {
  const wordStarts = (words: string) => words.split(/[\s/_.:-]+/).some((word) => word.startsWith(text));
  const label = command.label.toLowerCase();
  const startsWith = label.startsWith(text);
  if (startsWith && wholeWordsIn(label.slice(0, text.length + 1), text)) return 0;
  if (wholeWordsIn(label, text)) return 1;
  if (startsWith) return 2;
  if (wordStarts(label)) return 3;
  if (wordStarts(`${command.hint ?? ""} ${command.keywords ?? ""}`.toLowerCase())) return 4;
  return 5;
}

export function rankCommands(commands: readonly Command[], typed: string, limit = 50): Command[] {
  const text = typed.trim().toLowerCase();
  if (!text) return commands.slice(0, limit);
  const words = text.split(/\s+/);
  return commands
    .map((command, order) => ({
      command,
      order,
      haystack: `${command.label}\n${command.hint ?? ""}\n${command.keywords ?? ""}`.toLowerCase(),
    }))
    .filter(({ haystack }) => words.every((word) => haystack.includes(word)))
    .map((entry) => ({ ...entry, score: score(entry.command, text) }))
    .sort((a, b) => a.score - b.score || a.order - b.order)
    .slice(0, limit)
    .map(({ command }) => command);
}
