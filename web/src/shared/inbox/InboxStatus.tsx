/**
 * The inbox outside its page, mounted once by the shell: the unread counts (`GET /inbox/counts`,
 * read again on every `inbox` event, `reset` and reconnect), system notifications, the count in
 * the tab title and icon, the chime log, and the move to the inbox of `autoSwitchToInbox`.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import type { InboxEvent, InboxRow, SettingChanged } from "../api/types.generated";
import { navigate } from "../router";
import { useSettings, type StoredSettings } from "../settings";
import { useStreamEvent, useStreamLifecycle } from "../stream/useStream";
import { useFocus } from "../focus/FocusProvider";
import { inboxCounts, type InboxCounts } from "./api";
import { setIconCount } from "./favicon";
import { appendChime, HISTORY_KEY, parseHistory, type Chime } from "./history";
import {
  badgedTitle,
  chimingRow,
  hiddenCategories,
  needsUserCount,
  notifyDecision,
  shouldAutoSwitch,
  type NotificationBehavior,
  type Permission,
} from "./rules";

export interface InboxStatus {
  counts: InboxCounts | undefined;
  /** Unread rows that need the user. */
  needsUser: number;
  history: readonly Chime[];
  historyEnabled: boolean;
  clearHistory(): void;
  permission: Permission;
  requestPermission(): void;
}

const InboxStatusContext = createContext<InboxStatus | null>(null);

function currentPermission(): Permission {
  return typeof Notification === "undefined" ? "unsupported" : Notification.permission;
}

/** When the user last moved the pointer or pressed a key. */
function useLastInput() {
  // Opening the app counts as input.
  const last = useRef(0);
  useEffect(() => {
    last.current = Date.now();
    const mark = () => {
      last.current = Date.now();
    };
    const events = ["pointerdown", "pointermove", "keydown", "wheel"] as const;
    for (const name of events) window.addEventListener(name, mark, { passive: true, capture: true });
    return () => {
      for (const name of events) window.removeEventListener(name, mark, { capture: true });
    };
  }, []);
  return last;
}

/**
 * The settings as of the latest event: a `settings` event followed at once by an `inbox` event
 * may reach the handlers before React has drawn the new values, and a chime must obey the change.
 */
function useSettingsNow(values: StoredSettings | undefined) {
  const now = useRef(values);
  useEffect(() => {
    now.current = values;
  }, [values]);
  useStreamEvent<SettingChanged>("settings", (change) => {
    now.current = { ...now.current, [change.key]: change.value };
  });
  return now;
}

/** Counts read one at a time: an event during a read asks for one more read after it. */
function useCounts() {
  const [counts, setCounts] = useState<InboxCounts>();
  const state = useRef({ busy: false, again: false });
  const refresh = useCallback(() => {
    const held = state.current;
    if (held.busy) {
      held.again = true;
      return;
    }
    const run = () => {
      held.busy = true;
      held.again = false;
      inboxCounts()
        .then(setCounts, () => undefined)
        .finally(() => {
          held.busy = false;
          if (held.again) run();
        });
    };
    run();
  }, []);
  return { counts, refresh };
}

/** Keeps the count in front of whatever title the page sets. */
function useBadge(count: number, enabled: boolean) {
  useEffect(() => {
    const shown = enabled ? count : 0;
    const apply = () => {
      const next = badgedTitle(document.title, shown);
      if (next !== document.title) document.title = next;
    };
    apply();
    setIconCount(shown);
    const title = document.querySelector("title");
    if (!title) return;
    const observer = new MutationObserver(apply);
    observer.observe(title, { childList: true, characterData: true, subtree: true });
    return () => observer.disconnect();
  }, [count, enabled]);
}

export function InboxStatusProvider({ children }: { children: ReactNode }) {
  const { values } = useSettings();
  const settingsNow = useSettingsNow(values);
  const { counts, refresh } = useCounts();
  const { holdNow } = useFocus();
  const lastInput = useLastInput();
  const [permission, setPermission] = useState<Permission>(currentPermission);
  const historyEnabled = values?.notificationHistoryEnabled ?? true;
  const [history, setHistory] = useState<readonly Chime[]>(() => parseHistory(localStorage.getItem(HISTORY_KEY)));

  useStreamLifecycle("reset", refresh);
  useStreamLifecycle("open", refresh);
  // The first read, and another when a category shown or hidden changes what the counts include.
  const hiddenKey = [...hiddenCategories(values)].join();
  useEffect(refresh, [refresh, hiddenKey]);

  const record = useCallback((chime: Chime) => {
    setHistory((log) => {
      const next = appendChime(log, chime);
      localStorage.setItem(HISTORY_KEY, JSON.stringify(next));
      return next;
    });
  }, []);

  const chime = (row: InboxRow) => {
    const values = settingsNow.current;
    const now = Date.now();
    const granted = currentPermission();
    if (granted !== permission) setPermission(granted);
    let decision = notifyDecision(row, {
      behavior: (values?.notificationBehavior ?? "backgrounded") as NotificationBehavior,
      foreground: document.visibilityState === "visible",
      permission: granted,
      hidden: hiddenCategories(values),
      focus: holdNow(values),
    });
    if (decision.show) {
      try {
        const notification = new Notification(row.title, { body: row.body ?? undefined, tag: row.id });
        notification.onclick = () => {
          window.focus();
          navigate("/inbox");
        };
      } catch {
        // Some browsers (Chrome on Android) only notify through a service worker.
        decision = { show: false, reason: "suppressed: the browser refused to show it" };
      }
    }
    if (values?.notificationHistoryEnabled ?? true) {
      record({
        at: new Date(now).toISOString(),
        rowId: row.id,
        category: row.category,
        title: row.title,
        shown: decision.show,
        reason: decision.reason,
      });
    }
    const held = decision.reason === "held: focus mode";
    const autoSwitch =
      !held &&
      shouldAutoSwitch(row, {
        enabled: values?.autoSwitchToInbox === true,
        pathname: window.location.pathname,
        lastInputAt: lastInput.current,
        now,
      });
    if (autoSwitch) navigate("/inbox");
  };

  useStreamEvent<InboxEvent>("inbox", (event) => {
    refresh();
    const row = chimingRow(event);
    if (row) chime(row);
  });

  const needsUser = needsUserCount(counts);
  useBadge(needsUser, values?.desktopIconBadgeEnabled ?? true);

  const clearHistory = useCallback(() => {
    localStorage.removeItem(HISTORY_KEY);
    setHistory([]);
  }, []);
  const requestPermission = useCallback(() => {
    if (typeof Notification === "undefined") return;
    void Notification.requestPermission().then(setPermission);
  }, []);

  const status = useMemo<InboxStatus>(
    () => ({
      counts,
      needsUser,
      history,
      historyEnabled,
      clearHistory,
      permission,
      requestPermission,
    }),
    [counts, needsUser, history, historyEnabled, clearHistory, permission, requestPermission],
  );
  return <InboxStatusContext.Provider value={status}>{children}</InboxStatusContext.Provider>;
}

export function useInboxStatus(): InboxStatus {
  const status = useContext(InboxStatusContext);
  if (!status) throw new Error("useInboxStatus outside InboxStatusProvider");
  return status;
}
