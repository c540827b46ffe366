/**
 * The Tasks page (`tasksEnabled`): the personal task list or a workspace's as a nested checklist,
 * with where its tasks.md is mirrored, and the Caught view of follow-ups the utility model found in
 * finished sessions. The list's shape and moves are `tree.ts`'s; this page sends them and keeps
 * focus on the row that moved.
 */
import { SETTING_LINKS } from "../../shared/settingLinks";
import { SettingLink } from "../../shared/ui/SettingLink";
import { EmptyState } from "../../shared/ui/EmptyState";
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type FormEvent } from "react";
import type { Caught, Task, TaskMove, TaskPatch, TasksChanged } from "../../shared/api/types.generated";
import { useSettings } from "../../shared/settings";
import { useStreamEvent, useStreamLifecycle } from "../../shared/stream/useStream";
import { PageHeader } from "../../shared/ui/PageHeader";
import { ErrorNote, Loading } from "../../shared/ui/Status";
import { TabLinks } from "../../shared/ui/Tabs";
import { useToast } from "../../shared/ui/toasts";
import { readStored, writeStored } from "../../shared/storage";
import { useNow } from "../../shared/useNow";
import { useWorkspaces } from "../../shared/workspaces";
import { createTask, deleteTask, listCaught, listTasks, moveTask, updateTask, type ListId } from "./api";
import { autoCapitalize } from "./capitalize";
import { CaughtView } from "./CaughtView";
import { MirrorPanel } from "./MirrorPanel";
import { TaskRow, type ListKey } from "./TaskRow";
import { indent, moveBy, outdent, dropOn, visibleRows } from "./tree";
import "./tasks.css";
import { Hint } from "../../shared/ui/Hint";

export function TasksPage({ view }: { view: "list" | "caught" }) {
  const { values } = useSettings();
  const [caught, setCaught] = useState<Caught[]>();
  const [caughtError, setCaughtError] = useState<unknown>();
  const loadCaught = useCallback(() => listCaught().then(setCaught, setCaughtError), []);
  useEffect(() => {
    void loadCaught();
  }, [loadCaught, view]);
  // Follow-ups are staged when a session ends, whether or not this page is open.
  useStreamEvent<TasksChanged>("tasks", (change) => {
    if (change.view === "caught") void loadCaught();
  });
  useStreamLifecycle("reset", () => void loadCaught());
  if (values?.tasksEnabled === false) {
    return (
      <section className="page touch">
        <PageHeader title="Tasks" />
        <p>
          Tasks are turned off. Turn on <SettingLink setting={SETTING_LINKS.tasksEnabled} /> in Settings to use them.
        </p>
      </section>
    );
  }
  return (
    <section className="page tasks-page touch">
      <PageHeader title="Tasks" />
      <TabLinks
        label="Task views"
        current={view}
        tabs={[
          { key: "list", to: "/tasks", label: "Tasks" },
          { key: "caught", to: "/tasks/caught", label: "Caught", count: caught?.length },
        ]}
      />
      {view === "caught" ? <CaughtView caught={caught} error={caughtError} onChanged={loadCaught} /> : <TaskLists />}
    </section>
  );
}

const LIST_KEY = "switchboard.tasks.list";

/** The list picker: the personal list, then one list per workspace, the choice kept per browser. */
function TaskLists() {
  const { workspaces } = useWorkspaces();
  const [wanted, setWanted] = useState<ListId>(() => readStored(LIST_KEY));
  // A remembered workspace that is gone (or not yet loaded) shows the personal list.
  const listId = wanted !== null && workspaces?.some((w) => w.id === wanted) ? wanted : null;
  const choose = (id: ListId) => {
    setWanted(id);
    writeStored(LIST_KEY, id);
  };
  return (
    <>
      {workspaces && workspaces.length > 0 && (
        <label className="task-list-picker">
          <span className="muted">List</span>
          <select
            aria-label="Task list"
            value={listId ?? ""}
            onChange={(event) => choose(event.target.value === "" ? null : event.target.value)}
          >
            <option value="">Personal</option>
            {workspaces.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </select>
        </label>
      )}
      <TaskList key={listId ?? ""} workspaceId={listId} />
      <MirrorPanel key={`mirror:${listId ?? ""}`} workspaceId={listId} />
    </>
  );
}

function TaskList({ workspaceId }: { workspaceId: ListId }) {
  const { values } = useSettings();
  const toast = useToast();
  const now = useNow();
  const [tasks, setTasks] = useState<Task[]>();
  const [error, setError] = useState<unknown>();
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [newText, setNewText] = useState("");
  const focusNext = useRef<string | null>(null);
  const load = useCallback(() => listTasks(workspaceId).then(setTasks, setError), [workspaceId]);
  useEffect(() => {
    void load();
  }, [load]);
  // An agent's task or a tasks.md edit shows without a reload.
  useStreamEvent<TasksChanged>("tasks", (change) => {
    if (change.view === "tasks" && change.workspaceId === workspaceId) void load();
  });
  useStreamLifecycle("reset", () => void load());
  useLayoutEffect(() => {
    const id = focusNext.current;
    if (!id) return;
    focusNext.current = null;
    document.querySelector<HTMLInputElement>(`[data-task-input="${CSS.escape(id)}"]`)?.focus();
  }, [tasks]);

  const checkboxSelects = values?.tasksV2CheckboxSelects === true;
  const capitalize = values?.autoCapitalizeTasks !== false;
  const compact = values?.tasksV2CompactDensity === true;
  const hideCompleted = values?.tasksV2HideCompleted === true;

  const failed = (context: string) => (e: unknown) => toast.error(e, context);
  const after = (work: Promise<unknown>, context: string, focus?: string) =>
    work.then(() => {
      focusNext.current = focus ?? null;
      return load();
    }, failed(context));
  const move = (mv: TaskMove | null) => {
    if (!mv) return;
    moveTask(mv).then((list) => {
      focusNext.current = mv.id;
      setTasks(list);
    }, failed("The task was not moved"));
  };
  const patch = (id: string, change: TaskPatch, focus?: string) =>
    after(updateTask(id, change), "The task was not saved", focus);

  if (error !== undefined) return <ErrorNote error={error} onRetry={() => void load()} />;
  if (!tasks) return <Loading what="tasks" />;
  const { rows, hidden } = visibleRows(tasks, hideCompleted);

  const onKey = (task: Task, key: ListKey, text: string) => {
    const saveFirst = text && text !== task.text ? updateTask(task.id, { text }) : Promise.resolve();
    saveFirst
      .then(() => {
        switch (key) {
          case "indent":
            return move(indent(tasks, task.id));
          case "outdent":
            return move(outdent(tasks, task.id));
          case "up":
            return move(moveBy(tasks, task.id, -1));
          case "down":
            return move(moveBy(tasks, task.id, 1));
          case "next":
            return createTask({
              text: "New task",
              workspaceId: workspaceId ?? undefined,
              parentId: task.parentId ?? undefined,
              index: task.position + 1,
            }).then((made) => {
              focusNext.current = made.id;
              return load();
            });
        }
      }, failed("The task was not saved"))
      .catch(failed("The task was not changed"));
  };
  const toggle = (id: string) =>
    setSelected((now) => {
      const next = new Set(now);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const finishSelected = (state: "done" | "dropped") => {
    const ids = [...selected];
    setSelected(new Set());
    void after(Promise.all(ids.map((id) => updateTask(id, { state }))), "The tasks were not changed");
  };
  const add = (event: FormEvent) => {
    event.preventDefault();
    const text = newText.trim();
    if (!text) return;
    setNewText("");
    void after(createTask({ text, workspaceId: workspaceId ?? undefined }), "The task was not added");
  };

  return (
    <>
      {selected.size > 0 && (
        <div className="task-actions" role="toolbar" aria-label="Selected tasks">
          <span>{selected.size} selected</span>
          <button type="button" onClick={() => finishSelected("done")}>
            Done
          </button>
          <button type="button" onClick={() => finishSelected("dropped")}>
            Dropped
          </button>
          <button type="button" onClick={() => setSelected(new Set())}>
            Clear
          </button>
        </div>
      )}
      {rows.length === 0 && (
        <EmptyState>No tasks yet. Add one below, or let an agent add them with its token.</EmptyState>
      )}
      <ul className={`task-list${compact ? " compact" : ""}`} aria-label="Tasks">
        {rows.map(({ task, depth }) => (
          <TaskRow
            key={task.id}
            task={task}
            depth={depth}
            now={new Date(now)}
            selected={selected.has(task.id)}
            checkboxSelects={checkboxSelects}
            capitalize={capitalize}
            onPatch={(change) => void patch(task.id, change)}
            onDelete={() => void after(deleteTask(task.id), "The task was not deleted")}
            onKey={(key, text) => onKey(task, key, text)}
            onSelect={() => toggle(task.id)}
            onDrop={(dragged) => move(dropOn(tasks, dragged, task.id))}
          />
        ))}
      </ul>
      {hidden > 0 && (
        <p className="muted">
          {hidden} completed {hidden === 1 ? "task" : "tasks"} hidden
        </p>
      )}
      <form className="task-add" onSubmit={add}>
        <input
          aria-label="New task"
          placeholder="Add a task"
          value={newText}
          onChange={(event) => setNewText(capitalize ? autoCapitalize(event.target.value) : event.target.value)}
        />
        <button type="submit">Add</button>
      </form>
      <Hint as="p" className="muted tasks-help shortcut-hint">
        Enter adds a task below, Tab nests it under the one above, Shift+Tab takes it out, Alt+↑ and Alt+↓ move it.
      </Hint>
    </>
  );
}
