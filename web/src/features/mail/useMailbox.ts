/**
 * A folder's threads for the page: the first page (the server's page size, `webmailPageSize`),
 * more by cursor, and triage applied at once and rolled back with the server's words when it
 * refuses (the reducer in triage.ts). Says when the person has just emptied the folder.
 */
import { useCallback, useEffect, useReducer, useRef, useState } from "react";
import { errorMessage } from "../../shared/api/errorMessage";
import { listThreads, threadAction, type ActionRequest } from "./api";
import { emptyTriage, leavesFolder, triage } from "./triage";

export interface MailboxQuery {
  accountId: string;
  folder: string;
  /** Absent: the server's opening search (`webmailDefaultQuery`). */
  q: string | undefined;
}

/** What was read for which query: a new query shows as loading by itself, as `useApi` does. */
interface Read {
  key: string | null;
  next: string | null;
  error?: unknown;
  done: boolean;
  emptied: boolean;
}

const keyOf = (query: MailboxQuery | null) => query && `${query.accountId}\n${query.folder}\n${query.q ?? "\u0000"}`;

export function useMailbox(query: MailboxQuery | null) {
  const [state, dispatch] = useReducer(triage, emptyTriage);
  const [read, setRead] = useState<Read>({ key: null, next: null, done: false, emptied: false });
  const [loadingMore, setLoadingMore] = useState(false);
  const [generation, setGeneration] = useState(0);
  const ops = useRef(0);
  const key = keyOf(query);

  useEffect(() => {
    if (!query) return;
    let live = true;
    listThreads({ accountId: query.accountId, folder: query.folder, q: query.q }).then(
      (page) => {
        if (!live) return;
        dispatch({ type: "loaded", threads: page.threads, append: false });
        setRead({ key, next: page.next, done: true, emptied: false });
      },
      (error: unknown) => {
        if (!live) return;
        dispatch({ type: "loaded", threads: [], append: false });
        setRead({ key, next: null, error, done: true, emptied: false });
      },
    );
    return () => {
      live = false;
    };
    // The key names the query; the object is new on every draw.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, generation]);

  const current = read.key === key && read.done;
  const next = current ? read.next : null;

  const loadMore = useCallback(() => {
    if (!query || next === null) return;
    setLoadingMore(true);
    listThreads({ ...query, cursor: next }).then(
      (page) => {
        dispatch({ type: "loaded", threads: page.threads, append: true });
        setRead((r) => ({ ...r, next: page.next }));
        setLoadingMore(false);
      },
      (error: unknown) => {
        setRead((r) => ({ ...r, error }));
        setLoadingMore(false);
      },
    );
  }, [query, next]);

  /**
   * Applies an action at once; resolves once the server answered, true when it accepted.
   * `empties` says the folder is empty once it is done (the last thread of the last page left).
   */
  const act = useCallback(async (id: string, request: ActionRequest, empties = false): Promise<boolean> => {
    const op = ++ops.current;
    dispatch({ type: "apply", op, id, action: request.action });
    if (empties && leavesFolder(request.action)) setRead((r) => ({ ...r, emptied: true }));
    try {
      await threadAction(id, request);
      dispatch({ type: "confirmed", op });
      return true;
    } catch (cause) {
      dispatch({ type: "refused", op, message: errorMessage(cause) });
      setRead((r) => ({ ...r, emptied: false }));
      return false;
    }
  }, []);

  const dismiss = useCallback(() => dispatch({ type: "dismissed" }), []);
  const opened = useCallback((id: string, markRead: boolean) => dispatch({ type: "opened", id, markRead }), []);
  const reload = useCallback(() => {
    setRead((r) => ({ ...r, done: false }));
    setGeneration((g) => g + 1);
  }, []);

  return {
    threads: current ? state.threads : [],
    refusal: state.error,
    next,
    loading: !current || loadingMore,
    error: current ? read.error : undefined,
    emptied: current && read.emptied,
    act,
    dismiss,
    opened,
    loadMore,
    reload,
  };
}
