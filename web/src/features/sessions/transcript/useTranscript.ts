/**
 * One session's transcript entries on the page: the last page first, earlier pages on demand
 * (scrolling up), and each new entry from the event stream as it is stored; a `reset` (events
 * were lost) reloads the last page, since what was missed may be more than a page.
 */
import { useCallback, useEffect, useReducer, useRef } from "react";
import type { Entry, OutputEvent } from "../../../shared/api/types.generated";
import { useStreamEvent, useStreamLifecycle } from "../../../shared/stream/useStream";
import { transcriptPage } from "../api";
import { entryOfEvent, mergeEntries } from "./rows";

export interface TranscriptState {
  entries: Entry[];
  /** Earlier entries exist that are not loaded. */
  earlier: boolean;
  /** The last page has arrived. */
  loaded: boolean;
  error: unknown;
}

type Action =
  | { type: "tail"; entries: Entry[]; earlier: boolean }
  | { type: "earlier"; entries: Entry[]; earlier: boolean }
  | { type: "live"; entry: Entry }
  | { type: "failed"; error: unknown };

const INITIAL: TranscriptState = { entries: [], earlier: false, loaded: false, error: undefined };

function reduce(state: TranscriptState, action: Action): TranscriptState {
  switch (action.type) {
    case "tail": {
      // Live entries newer than the page arrived while it loaded: they stay.
      const last = action.entries[action.entries.length - 1]?.seq ?? 0;
      const newer = state.entries.filter((e) => e.seq > last);
      return { entries: mergeEntries(action.entries, newer), earlier: action.earlier, loaded: true, error: undefined };
    }
    case "earlier":
      return { ...state, entries: mergeEntries(state.entries, action.entries), earlier: action.earlier };
    case "live":
      return { ...state, entries: mergeEntries(state.entries, [action.entry]) };
    case "failed":
      return { ...state, error: action.error };
  }
}

export function useTranscript(sessionId: string) {
  const [state, dispatch] = useReducer(reduce, INITIAL);
  const [generation, reload] = useReducer((n: number) => n + 1, 0);
  const loadingEarlier = useRef(false);

  useEffect(() => {
    let current = true;
    transcriptPage(sessionId).then(
      (page) => current && dispatch({ type: "tail", entries: page.entries, earlier: page.more }),
      (error: unknown) => current && dispatch({ type: "failed", error }),
    );
    return () => {
      current = false;
    };
  }, [sessionId, generation]);

  useStreamEvent<OutputEvent>("output", (event) => {
    if (event.sessionId !== sessionId) return;
    dispatch({ type: "live", entry: entryOfEvent(event) });
  });
  useStreamLifecycle("reset", reload);

  const first = state.entries[0]?.seq;
  const { earlier, loaded } = state;
  const loadEarlier = useCallback(() => {
    if (!loaded || !earlier || first === undefined || loadingEarlier.current) return;
    loadingEarlier.current = true;
    transcriptPage(sessionId, first)
      .then(
        (page) => dispatch({ type: "earlier", entries: page.entries, earlier: page.more }),
        (error: unknown) => dispatch({ type: "failed", error }),
      )
      .finally(() => (loadingEarlier.current = false));
  }, [sessionId, first, earlier, loaded]);

  return { ...state, loadEarlier, reload };
}
