/**
 * `/boards/<id>`: the full board, edited in place. Edits show at once, are
 * sent to the API, and are rolled back with a visible message when refused.
 * The board is revalidated with its ETag when the tab comes back into view.
 * `?item=<id>` names an item to show (the calendar's links). "Export .xlsx" downloads the board as
 * a workbook (`GET /boards/<id>/export.xlsx`).
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { ROW_HEIGHT } from "../../shared/appearance";
import { useSearchParam } from "../../shared/router";
import { useSettings } from "../../shared/settings";
import { useMediaQuery } from "../../shared/useMediaQuery";
import { PageHeader } from "../../shared/ui/PageHeader";
import { PHONE_QUERY, touchRowHeight } from "../../shared/ui/touch";
import { ErrorNote, Loading } from "../../shared/ui/Status";
import { useToast } from "../../shared/ui/toasts";
import { cachedBoard, createItem, deleteItem, fetchFullBoard, rememberBoard, updateItem } from "./api";
import { BoardTable } from "./BoardTable";
import { insertItem, removeItem, replaceItem } from "./boardRows";
import { MembersProvider } from "./members";
import type { BoardFull, Column, Item, JsonValue } from "./types";

const REVALIDATE_MS = 30_000;

export function BoardPage({ boardId }: { boardId: string }) {
  const [full, setFull] = useState<BoardFull | undefined>(() => cachedBoard(boardId)?.full);
  const [error, setError] = useState<unknown>();
  const etag = useRef<string | null>(cachedBoard(boardId)?.etag ?? null);
  const pending = useRef(0);
  const toast = useToast();
  const { density } = useSettings();
  const phone = useMediaQuery(PHONE_QUERY);
  const targetItemId = useSearchParam("item");

  const revalidate = useCallback(
    (signal?: AbortSignal) => {
      fetchFullBoard(boardId, etag.current, signal).then(
        (reply) => {
          setError(undefined);
          // A read that raced an edit in flight could undo it on screen: it is dropped
          // with its ETag, so the next revalidation reads the board again.
          if (reply && pending.current === 0) {
            etag.current = reply.etag;
            setFull(reply.full);
          }
        },
        (e: unknown) => {
          if (!signal?.aborted) setError(e);
        },
      );
    },
    [boardId],
  );

  // Another board shows its last read at once, if any, while it is read again.
  const [shownBoard, setShownBoard] = useState(boardId);
  if (shownBoard !== boardId) {
    setShownBoard(boardId);
    setFull(cachedBoard(boardId)?.full);
    setError(undefined);
  }

  useEffect(() => {
    etag.current = cachedBoard(boardId)?.etag ?? null;
    const abort = new AbortController();
    revalidate(abort.signal);
    const onVisible = () => {
      if (document.visibilityState === "visible") revalidate();
    };
    document.addEventListener("visibilitychange", onVisible);
    const timer = setInterval(onVisible, REVALIDATE_MS);
    return () => {
      abort.abort();
      document.removeEventListener("visibilitychange", onVisible);
      clearInterval(timer);
    };
  }, [boardId, revalidate]);

  useEffect(() => {
    if (full) rememberBoard(boardId, full, etag.current);
  }, [boardId, full]);

  const ready = full !== undefined && full.board.id === boardId;
  useEffect(() => {
    if (!ready) return;
    requestAnimationFrame(() => performance.mark("board-rendered"));
  }, [ready]);

  const setItems = useCallback((edit: (items: Item[]) => Item[]) => {
    setFull((current) => (current ? { ...current, items: edit(current.items) } : current));
  }, []);

  // Edits start from what the screen shows, read when the edit runs rather than when it was made.
  const latest = useRef(full);
  useLayoutEffect(() => {
    latest.current = full;
  }, [full]);

  const patch = useCallback(
    async (itemId: string, optimistic: (item: Item) => Item, body: Parameters<typeof updateItem>[1], what: string) => {
      const before = latest.current?.items.find((i) => i.id === itemId);
      if (!before) return;
      setItems((items) => replaceItem(items, optimistic(before)));
      pending.current++;
      try {
        const saved = await updateItem(itemId, body);
        setItems((items) => replaceItem(items, saved));
      } catch (e) {
        setItems((items) => replaceItem(items, before));
        toast.error(e, `${what} was not saved`);
      } finally {
        pending.current--;
      }
    },
    [setItems, toast],
  );

  const onChange = useCallback(
    (itemId: string, column: Column, value: JsonValue) =>
      patch(
        itemId,
        (item) => ({ ...item, values: { ...item.values, [column.id]: value } }),
        { values: { [column.id]: value } },
        column.title,
      ),
    [patch],
  );

  const onRename = useCallback(
    (itemId: string, name: string) => patch(itemId, (item) => ({ ...item, name }), { name }, "The new name"),
    [patch],
  );

  const onDelete = useCallback(
    async (itemId: string) => {
      const before = latest.current?.items;
      setItems((items) => removeItem(items, itemId));
      pending.current++;
      try {
        await deleteItem(itemId);
      } catch (e) {
        if (before) setItems(() => before);
        toast.error(e, "The item was not deleted");
      } finally {
        pending.current--;
      }
    },
    [setItems, toast],
  );

  const onAdd = useCallback(
    async (groupId: string, name: string) => {
      pending.current++;
      try {
        const item = await createItem(boardId, groupId, name);
        setItems((items) => insertItem(items, item));
        return true;
      } catch (e) {
        toast.error(e, "The item was not added");
        return false;
      } finally {
        pending.current--;
      }
    },
    [boardId, setItems, toast],
  );

  if (!ready) {
    return (
      <section className="page">
        {error ? <ErrorNote error={error} onRetry={() => revalidate()} /> : <Loading what="the board" />}
      </section>
    );
  }

  return (
    <MembersProvider>
      <section className="page board-page touch" data-board-ready={full.items.length}>
        <PageHeader
          title={full.board.name}
          back={{ to: "/boards", label: "Boards" }}
          note={<span className="muted">{full.items.length} items</span>}
          actions={
            <a
              className="button-like touch-link"
              href={`/api/boards/${encodeURIComponent(boardId)}/export.xlsx`}
              download={`${full.board.name}.xlsx`}
            >
              Export .xlsx
            </a>
          }
        />
        {error !== undefined && <ErrorNote error={error} onRetry={() => revalidate()} />}
        <BoardTable
          board={full.board}
          items={full.items}
          rowHeight={touchRowHeight(ROW_HEIGHT[density], phone)}
          onChange={onChange}
          onRename={onRename}
          onDelete={onDelete}
          onAdd={onAdd}
          targetItemId={targetItemId}
        />
      </section>
    </MembersProvider>
  );
}
