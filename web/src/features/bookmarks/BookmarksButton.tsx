/**
 * The shell's Bookmarks button (setting `showBookmarksInToolbar`): a popover to open links, launch
 * session recipes, add, edit, delete and drag bookmarks into order. The rules live in bookmarks.ts.
 */
import { useState, type FormEvent } from "react";
import { apiFetch } from "../../shared/api/client";
import { errorMessage } from "../../shared/api/errorMessage";
import type { Bookmark, Session } from "../../shared/api/types.generated";
import { useApi } from "../../shared/hooks/useApi";
import { navigate, sessionPath } from "../../shared/router";
import { useSettings } from "../../shared/settings";
import { FormActions } from "../../shared/ui/FormActions";
import { Popover } from "../../shared/ui/Popover";
import { ErrorNote, Loading } from "../../shared/ui/Status";
import { createBody, draftOf, moveItem, patchBody, validateDraft, type BookmarkDraft } from "./bookmarks";
import { EmptyState } from "../../shared/ui/EmptyState";

export function BookmarksButton() {
  const { values } = useSettings();
  const [open, setOpen] = useState(false);
  if (values?.showBookmarksInToolbar !== true) return null;
  return (
    <div className="bookmarks">
      <button type="button" className="mode-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
        Bookmarks
      </button>
      {open && (
        <Popover label="Bookmarks" className="popover bookmarks-panel" onClose={() => setOpen(false)}>
          <BookmarksPanel onDone={() => setOpen(false)} />
        </Popover>
      )}
    </div>
  );
}

/** Mounted only while open, so each opening loads the list fresh and starts with no stale error. */
function BookmarksPanel({ onDone }: { onDone: () => void }) {
  const loaded = useApi<{ bookmarks: Bookmark[] }>("/bookmarks");
  // The list after this panel's own changes; until the first one, the loaded list.
  const [changed, setChanged] = useState<Bookmark[]>();
  const [error, setError] = useState<unknown>();
  const [editing, setEditing] = useState<Bookmark | "new" | null>(null);
  const [dragged, setDragged] = useState<number | null>(null);
  const items = changed ?? loaded.data?.bookmarks;

  if (loaded.error !== undefined) return <ErrorNote error={loaded.error} onRetry={loaded.reload} />;
  if (!items) return <Loading what="bookmarks" />;

  const run = async (action: () => Promise<Bookmark[]>) => {
    setError(undefined);
    try {
      setChanged(await action());
      return true;
    } catch (e: unknown) {
      setError(e);
      return false;
    }
  };

  const launch = async (bookmark: Bookmark) => {
    if (bookmark.kind === "url") {
      navigate(bookmark.url ?? "");
      onDone();
      return;
    }
    setError(undefined);
    try {
      const { session } = await apiFetch<{ session: Session }>(`/bookmarks/${encodeURIComponent(bookmark.id)}/launch`, {
        method: "POST",
      });
      onDone();
      navigate(sessionPath(session.id));
    } catch (e: unknown) {
      setError(e);
    }
  };

  const remove = (bookmark: Bookmark) =>
    run(async () => {
      await apiFetch(`/bookmarks/${encodeURIComponent(bookmark.id)}`, { method: "DELETE" });
      return items.filter((b) => b.id !== bookmark.id);
    });

  const drop = (to: number) => {
    if (dragged === null) return;
    const order = moveItem(items, dragged, to);
    setDragged(null);
    if (order.every((b, i) => b.id === items[i]?.id)) return;
    // Shown at once; the server's answer replaces it, and a refusal puts the old order back.
    setChanged(order);
    void run(async () => {
      try {
        const reply = await apiFetch<{ bookmarks: Bookmark[] }>("/bookmarks/reorder", {
          method: "POST",
          body: { ids: order.map((b) => b.id) },
        });
        return reply.bookmarks;
      } catch (e: unknown) {
        setChanged(items);
        throw e;
      }
    });
  };

  const save = (target: Bookmark | "new") => async (draft: BookmarkDraft) => {
    const saved = await run(async () => {
      if (target === "new") {
        const created = await apiFetch<Bookmark>("/bookmarks", { method: "POST", body: createBody(draft) });
        return [...items, created];
      }
      const body = patchBody(target, draft);
      if (Object.keys(body).length === 0) return items;
      const updated = await apiFetch<Bookmark>(`/bookmarks/${encodeURIComponent(target.id)}`, {
        method: "PATCH",
        body,
      });
      return items.map((b) => (b.id === updated.id ? updated : b));
    });
    if (saved) setEditing(null);
  };

  return (
    <>
      {items.length === 0 && editing === null && <EmptyState>No bookmarks yet.</EmptyState>}
      {items.length > 0 && (
        <ol className="bookmark-list" aria-label="Bookmarks">
          {items.map((bookmark, index) => (
            <li
              key={bookmark.id}
              data-bookmark-id={bookmark.id}
              draggable
              className={dragged === index ? "bookmark dragging" : "bookmark"}
              title="Drag to reorder"
              onDragStart={(event) => {
                // Firefox starts a drag only when it carries data.
                event.dataTransfer.setData("text/plain", bookmark.id);
                event.dataTransfer.effectAllowed = "move";
                setDragged(index);
              }}
              onDragEnd={() => setDragged(null)}
              onDragOver={(event) => {
                if (dragged !== null) event.preventDefault();
              }}
              onDrop={(event) => {
                event.preventDefault();
                drop(index);
              }}
            >
              <button
                type="button"
                className="bookmark-open"
                title={bookmark.kind === "url" ? (bookmark.url ?? "") : `Start a session: ${bookmark.prompt ?? ""}`}
                onClick={() => void launch(bookmark)}
              >
                <span aria-hidden="true">{bookmark.kind === "url" ? "↗ " : "▶ "}</span>
                {bookmark.title}
              </button>
              <button type="button" aria-label={`Edit ${bookmark.title}`} onClick={() => setEditing(bookmark)}>
                Edit
              </button>
              <button type="button" aria-label={`Delete ${bookmark.title}`} onClick={() => void remove(bookmark)}>
                Delete
              </button>
            </li>
          ))}
        </ol>
      )}
      {error !== undefined && (
        <p className="inline-error" role="alert">
          {errorMessage(error)}
        </p>
      )}
      {editing === null ? (
        <button type="button" onClick={() => setEditing("new")}>
          Add bookmark
        </button>
      ) : (
        <BookmarkForm
          key={editing === "new" ? "new" : editing.id}
          initial={draftOf(editing === "new" ? undefined : editing)}
          submitLabel={editing === "new" ? "Add" : "Save"}
          onSave={save(editing)}
          onCancel={() => {
            setEditing(null);
            setError(undefined);
          }}
        />
      )}
    </>
  );
}

function BookmarkForm({
  initial,
  submitLabel,
  onSave,
  onCancel,
}: {
  initial: BookmarkDraft;
  submitLabel: string;
  onSave: (draft: BookmarkDraft) => Promise<void>;
  onCancel: () => void;
}) {
  const [draft, setDraft] = useState(initial);
  const [problem, setProblem] = useState<string | null>(null);
  const set = (field: keyof BookmarkDraft) => (event: { target: { value: string } }) =>
    setDraft({ ...draft, [field]: event.target.value });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validateDraft(draft);
    setProblem(found);
    if (found === null) void onSave(draft);
  };

  return (
    <form className="bookmark-form" aria-label={`${submitLabel} bookmark`} onSubmit={submit}>
      <fieldset className="bookmark-kind">
        <legend>Kind</legend>
        <label>
          <input type="radio" checked={draft.kind === "url"} onChange={() => setDraft({ ...draft, kind: "url" })} />
          Link
        </label>
        <label>
          <input
            type="radio"
            checked={draft.kind === "session"}
            onChange={() => setDraft({ ...draft, kind: "session" })}
          />
          Session
        </label>
      </fieldset>
      <label>
        Title
        <input value={draft.title} onChange={set("title")} />
      </label>
      {draft.kind === "url" ? (
        <label>
          URL
          <input type="url" value={draft.url} onChange={set("url")} placeholder="https://" />
        </label>
      ) : (
        <>
          <label>
            Prompt
            <textarea value={draft.prompt} onChange={set("prompt")} rows={3} />
          </label>
          <label>
            Engine
            <input value={draft.engine} onChange={set("engine")} placeholder="default engine" />
          </label>
          <label>
            Folder
            <input value={draft.cwd} onChange={set("cwd")} placeholder="default folder" />
          </label>
        </>
      )}
      <FormActions submitLabel={submitLabel} onCancel={onCancel} error={problem} />
    </form>
  );
}
