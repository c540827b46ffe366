/**
 * Where a task list is mirrored as tasks.md: always in the data directory, and in a project folder
 * the user names. The folder is a path on the machine Switchboard runs on, which the browser cannot
 * browse, so it is typed; the server checks it is an existing directory and writes tasks.md at once.
 */
import { useEffect, useState, type FormEvent } from "react";
import type { TaskMirror, TasksChanged } from "../../shared/api/types.generated";
import { useStreamEvent } from "../../shared/stream/useStream";
import { useToast } from "../../shared/ui/toasts";
import { listMirrors, setMirrorFolder, type ListId } from "./api";

export function MirrorPanel({ workspaceId }: { workspaceId: ListId }) {
  const toast = useToast();
  const [mirror, setMirror] = useState<TaskMirror | null>();
  const [folder, setFolder] = useState("");
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    listMirrors().then(
      (all) => {
        const found = all.find((m) => m.workspaceId === workspaceId) ?? null;
        setMirror(found);
        setFolder(found?.folder ?? "");
      },
      (e: unknown) => toast.error(e, "Where tasks.md is mirrored could not be read"),
    );
  }, [workspaceId, toast]);
  // A new list is mirrored from its first task on: say where, without touching a folder being typed.
  useStreamEvent<TasksChanged>("tasks", (change) => {
    if (mirror !== null || change.view !== "tasks" || change.workspaceId !== workspaceId) return;
    listMirrors().then(
      (all) => setMirror(all.find((m) => m.workspaceId === workspaceId) ?? null),
      () => undefined,
    );
  });

  const save = (next: string | null) => {
    setBusy(true);
    setMirrorFolder(workspaceId, next)
      .then(
        (saved) => {
          setMirror(saved);
          setFolder(saved.folder ?? "");
        },
        (e: unknown) => toast.error(e, next === null ? "The folder still mirrors this list" : "The folder was not set"),
      )
      .finally(() => setBusy(false));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const wanted = folder.trim();
    if (wanted) save(wanted);
  };

  return (
    <section className="task-mirror" aria-label="tasks.md mirror">
      <h2>tasks.md</h2>
      <p className="muted">
        {mirror ? (
          <>
            This list is mirrored to <code>{mirror.path}</code>
            {mirror.folder && (
              <>
                {" "}
                and to <code>tasks.md</code> in <code>{mirror.folder}</code>
              </>
            )}
            . Edits on either side are merged; a conflicting edit keeps both versions and is marked.
          </>
        ) : (
          <>This list is mirrored to tasks.md in the data directory once it has a task.</>
        )}
      </p>
      <form className="task-mirror-form" onSubmit={submit}>
        <input
          aria-label="Project folder"
          placeholder="/path/to/project"
          value={folder}
          onChange={(event) => setFolder(event.target.value)}
        />
        <button type="submit" disabled={busy || !folder.trim() || folder.trim() === mirror?.folder}>
          Mirror here
        </button>
        {mirror?.folder && (
          <button type="button" disabled={busy} onClick={() => save(null)}>
            Stop mirroring
          </button>
        )}
      </form>
    </section>
  );
}
