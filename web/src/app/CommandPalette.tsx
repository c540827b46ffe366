/**
 * Ctrl+K (Cmd+K on a Mac), from anywhere: a palette that opens any page, session, board or
 * dashboard by name and runs the everyday actions: a new session or recipe, focus and the
 * pomodoro, the theme, a recipe or a schedule run now. What it lists is read when it opens, so
 * it is current without keeping anything live in the background. An Enter typed before those
 * lists arrive waits for them, so typing a name fast and pressing Enter runs that name's match,
 * not whatever matched the lists read so far.
 */
import { useEffect, useId, useMemo, useRef, useState } from "react";
import { apiFetch } from "../shared/api/client";
import type { Board, Dashboard, Session, Workspace } from "../shared/api/types.generated";
import { readAll } from "../shared/inbox/api";
import { navigate, sessionPath } from "../shared/router";
import { Dialog } from "../shared/ui/Dialog";
import { useToast } from "../shared/ui/toasts";
import { workFolder } from "../features/sessions/board";
import { sessionTitle } from "../features/sessions/lifecycle";
import { useGoToNextNeedingYou } from "../features/sessions/useNextNeedsYou";
import { newRecipePath } from "../features/automations/page";
import { useAutomationEntries } from "../features/automations/paletteRecipes";
import { useFocus } from "../shared/focus/FocusProvider";
import { boardsShown } from "../shared/boardsModule";
import { useSettings } from "../shared/settings";
import { actionCommands, KIND_LABEL, pageCommands, rankCommands, type Command, type PalettePage } from "./palette";
import { useThemeSwitch } from "./useThemeSwitch";
import "./palette.css";
import { Pill } from "../shared/ui/Pill";
import { Hint } from "../shared/ui/Hint";

interface Props {
  /** The pages of the app, as the sidebar lists them. */
  pages: readonly PalettePage[];
  onNewSession: () => void;
}

interface Loaded {
  sessions: Session[];
  boards: Board[];
  dashboards: Dashboard[];
}

const NOTHING: Loaded = { sessions: [], boards: [], dashboards: [] };

async function loadTargets(): Promise<Loaded> {
  const [sessions, boards, workspaces] = await Promise.all([
    apiFetch<Session[]>("/sessions"),
    apiFetch<Board[]>("/boards"),
    apiFetch<Workspace[]>("/workspaces"),
  ]);
  const dashboards = await Promise.all(
    workspaces.map((w) => apiFetch<Dashboard[]>(`/dashboards?workspaceId=${encodeURIComponent(w.id)}`)),
  );
  return { sessions, boards, dashboards: dashboards.flat() };
}

export function CommandPalette({ pages, onNewSession }: Props) {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key.toLowerCase() !== "k" || !(event.ctrlKey || event.metaKey) || event.altKey) return;
      event.preventDefault();
      setOpen((was) => !was);
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
  return (
    <>
      <button type="button" className="palette-button" onClick={() => setOpen(true)}>
        Go to…{" "}
        <Hint className="shortcut-hint">
          <kbd>Ctrl K</kbd>
        </Hint>
      </button>
      {open && <Palette pages={pages} onNewSession={onNewSession} onClose={() => setOpen(false)} />}
    </>
  );
}

function Palette({ pages, onNewSession, onClose }: Props & { onClose: () => void }) {
  const toast = useToast();
  const goToNext = useGoToNextNeedingYou();
  const [typed, setTyped] = useState("");
  const [active, setActive] = useState(0);
  const [targets, setTargets] = useState<Loaded | null>(null);
  const automations = useAutomationEntries();
  const { focus, pomodoro, featureOn, setFocus, changePomodoro } = useFocus();
  const theme = useThemeSwitch();
  // With the board module off its boards and dashboards are not offered (they stay in the API).
  const boardsOn = boardsShown(useSettings().values);
  const focusState = !featureOn ? "hidden" : focus?.on === true ? "on" : "off";
  const pomodoroRunning = (pomodoro?.run ?? null) !== null;
  const enterWaiting = useRef(false);
  const listId = useId();
  const settled = targets !== null && automations !== null;

  useEffect(() => {
    let live = true;
    loadTargets().then(
      (read) => live && setTargets(read),
      (e: unknown) => {
        toast.error(e, "The palette could not list sessions and boards");
        if (live) setTargets(NOTHING);
      },
    );
    return () => {
      live = false;
    };
  }, [toast]);

  const commands = useMemo<Command[]>(() => {
    const then = (run: () => void) => () => {
      onClose();
      run();
    };
    const actions = actionCommands(
      { focus: focusState, pomodoroRunning, nextTheme: theme?.next ?? null },
      {
        newSession: then(onNewSession),
        nextNeedingYou: then(goToNext),
        readAll: then(() => void readAll().catch((e: unknown) => toast.error(e, "The rows were not marked read"))),
        openSettings: then(() => navigate("/settings")),
        setFocus: (on) => then(() => setFocus(on))(),
        pomodoro: (action) => then(() => changePomodoro({ action }))(),
        switchTheme: then(() => theme?.switchTheme()),
        newRecipe: then(() => navigate(newRecipePath)),
      },
    );
    const pageList = pageCommands(pages, (to) => then(() => navigate(to))());
    const automationRuns: Command[] = (automations ?? []).map(({ run, failure, ...entry }) => ({
      ...entry,
      kind: "action",
      run: then(() => void run().catch((e: unknown) => toast.error(e, failure))),
    }));
    const loaded = targets ?? NOTHING;
    const byActivity = [...loaded.sessions].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
    const sessions: Command[] = byActivity.map((s) => ({
      id: `session:${s.id}`,
      kind: "session",
      label: sessionTitle(s),
      hint: `${workFolder(s)} · ${s.status.replaceAll("_", " ")}`,
      run: then(() => navigate(sessionPath(s.id))),
    }));
    const boards: Command[] = loaded.boards.map((b) => ({
      id: `board:${b.id}`,
      kind: "board",
      label: b.name,
      run: then(() => navigate(`/boards/${encodeURIComponent(b.id)}`)),
    }));
    const dashboards: Command[] = loaded.dashboards.map((d) => ({
      id: `dashboard:${d.id}`,
      kind: "dashboard",
      label: d.name,
      run: then(() => navigate(`/dashboards/${encodeURIComponent(d.id)}`)),
    }));
    const module = boardsOn ? [...boards, ...dashboards] : [];
    return [...actions, ...pageList, ...automationRuns, ...sessions, ...module];
  }, [
    boardsOn,
    targets,
    automations,
    pages,
    onClose,
    onNewSession,
    goToNext,
    toast,
    focusState,
    pomodoroRunning,
    theme,
    setFocus,
    changePomodoro,
  ]);

  const shown = useMemo(() => rankCommands(commands, typed), [commands, typed]);
  const current = Math.min(active, Math.max(0, shown.length - 1));
  const optionId = (i: number) => `${listId}-${i}`;

  useEffect(() => {
    document.getElementById(optionId(current))?.scrollIntoView({ block: "nearest" });
  });

  useEffect(() => {
    if (!enterWaiting.current || !settled) return;
    enterWaiting.current = false;
    shown[current]?.run();
  }, [settled, shown, current]);

  const onKeyDown = (event: React.KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      enterWaiting.current = false;
      const step = event.key === "ArrowDown" ? 1 : -1;
      setActive((current + step + shown.length) % Math.max(1, shown.length));
    } else if (event.key === "Enter") {
      event.preventDefault();
      if (settled) shown[current]?.run();
      else enterWaiting.current = true;
    }
  };

  return (
    <Dialog title="Go to or run" onClose={onClose}>
      <div className="palette">
        <input
          type="text"
          role="combobox"
          aria-label="Page, session, board, dashboard or action"
          aria-expanded="true"
          aria-controls={listId}
          aria-activedescendant={shown.length > 0 ? optionId(current) : undefined}
          placeholder="Type a name…"
          autoFocus
          value={typed}
          onChange={(e) => {
            setTyped(e.target.value);
            setActive(0);
            enterWaiting.current = false;
          }}
          onKeyDown={onKeyDown}
        />
        <ul id={listId} role="listbox" aria-label="Matches" aria-busy={!settled} className="palette-list">
          {shown.map((command, i) => (
            <li
              key={command.id}
              id={optionId(i)}
              role="option"
              aria-selected={i === current}
              className="palette-option"
              onMouseMove={() => setActive(i)}
              onClick={command.run}
            >
              <span className="palette-label">{command.label}</span>
              {command.hint && <span className="muted palette-hint">{command.hint}</span>}
              <Pill className="palette-kind">{KIND_LABEL[command.kind]}</Pill>
            </li>
          ))}
          {shown.length === 0 && <li className="muted">Nothing matches.</li>}
        </ul>
      </div>
    </Dialog>
  );
}
