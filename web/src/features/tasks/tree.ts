/**
 * The task list's shape, pure: the list arrives depth-first (each task, then its subtasks), with
 * each task's parent and place among its siblings. These functions say how deep each row is, what
 * shows when completed tasks are hidden, and which move (`POST /tasks/reorder`) a key asks for.
 */
import type { Task, TaskMove } from "../../shared/api/types.generated";

export interface Row {
  task: Task;
  depth: number;
}

/** The rows in list order with their depth; a task whose parent is missing sits at the top. */
export function rowsOf(tasks: readonly Task[]): Row[] {
  const depth = new Map<string, number>();
  return tasks.map((task) => {
    const parentDepth = task.parentId === null ? undefined : depth.get(task.parentId);
    const d = parentDepth === undefined ? 0 : parentDepth + 1;
    depth.set(task.id, d);
    return { task, depth: d };
  });
}

const completed = (task: Task) => task.state !== "open";

/**
 * The rows to show: with `hideCompleted`, a done or dropped task goes, and its subtasks with it;
 * `hidden` counts the completed tasks left out.
 */
export function visibleRows(tasks: readonly Task[], hideCompleted: boolean): { rows: Row[]; hidden: number } {
  const rows = rowsOf(tasks);
  if (!hideCompleted) return { rows, hidden: 0 };
  const gone = new Set<string>();
  const shown: Row[] = [];
  let hidden = 0;
  for (const row of rows) {
    const underGone = row.task.parentId !== null && gone.has(row.task.parentId);
    if (underGone || completed(row.task)) {
      gone.add(row.task.id);
      if (completed(row.task)) hidden += 1;
      continue;
    }
    shown.push(row);
  }
  return { rows: shown, hidden };
}

function siblings(tasks: readonly Task[], parentId: string | null): Task[] {
  return tasks.filter((t) => t.parentId === parentId).sort((a, b) => a.position - b.position);
}

function find(tasks: readonly Task[], id: string): Task | undefined {
  return tasks.find((t) => t.id === id);
}

/** Tab: under the sibling above, last among its subtasks. */
export function indent(tasks: readonly Task[], id: string): TaskMove | null {
  const task = find(tasks, id);
  if (!task || task.position === 0) return null;
  const above = siblings(tasks, task.parentId)[task.position - 1];
  if (!above) return null;
  return { id, parentId: above.id, index: siblings(tasks, above.id).length };
}

/** Shift+Tab: out of its parent, right after it. */
export function outdent(tasks: readonly Task[], id: string): TaskMove | null {
  const task = find(tasks, id);
  if (!task || task.parentId === null) return null;
  const parent = find(tasks, task.parentId);
  if (!parent) return null;
  return { id, parentId: parent.parentId, index: parent.position + 1 };
}

/** Alt+ArrowUp and Alt+ArrowDown: one place among its siblings. */
export function moveBy(tasks: readonly Task[], id: string, by: -1 | 1): TaskMove | null {
  const task = find(tasks, id);
  if (!task) return null;
  const index = task.position + by;
  if (index < 0 || index >= siblings(tasks, task.parentId).length) return null;
  return { id, parentId: task.parentId, index };
}

/**
 * A drag of `id` dropped on `target`: it takes the target's place among the target's siblings
 * (so it lands before it, or after it when it came from above in the same list). Dropping a task
 * on itself or inside its own subtree is no move.
 */
export function dropOn(tasks: readonly Task[], id: string, targetId: string): TaskMove | null {
  const task = find(tasks, id);
  const target = find(tasks, targetId);
  if (!task || !target || id === targetId) return null;
  for (let at: Task | undefined = target; at; at = at.parentId === null ? undefined : find(tasks, at.parentId)) {
    if (at.id === id) return null;
  }
  return { id, parentId: target.parentId, index: target.position };
}
