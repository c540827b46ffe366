/**
 * The command palette's choice, apart from its rendering: which commands match what was typed,
 * best first. Every typed word must appear in the command's label or hint; a label that starts
 * with the text comes first, then one with a word that starts with it, then the rest, each in the
 * order given (pages and actions before sessions, sessions most recent first).
 */

export type CommandKind = "action" | "page" | "session" | "board" | "dashboard";

export interface Command {
  id: string;
  kind: CommandKind;
  label: string;
  /** Shown beside the label and searched with it: a session's folder, a board's workspace. */
  hint?: string;
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
}

/** A command for each page: by its palette name where it has one, the sidebar's word as its hint so either finds it. */
export function pageCommands(pages: readonly PalettePage[], open: (to: string) => void): Command[] {
  return pages.map((page) => ({
    id: `page:${page.to}`,
    kind: "page",
    label: page.paletteLabel ?? page.label,
    hint: page.paletteLabel === undefined ? undefined : page.label,
    run: () => open(page.to),
  }));
}

function score(command: Command, text: string): number {
  const label = command.label.toLowerCase();
  if (label.startsWith(text)) return 0;
  if (label.split(/[\s/_.-]+/).some((word) => word.startsWith(text))) return 1;
  return 2;
}

export function rankCommands(commands: readonly Command[], typed: string, limit = 50): Command[] {
  const text = typed.trim().toLowerCase();
  if (!text) return commands.slice(0, limit);
  const words = text.split(/\s+/);
  return commands
    .map((command, order) => ({ command, order, haystack: `${command.label}\n${command.hint ?? ""}`.toLowerCase() }))
    .filter(({ haystack }) => words.every((word) => haystack.includes(word)))
    .map((entry) => ({ ...entry, score: score(entry.command, text) }))
    .sort((a, b) => a.score - b.score || a.order - b.order)
    .slice(0, limit)
    .map(({ command }) => command);
}
