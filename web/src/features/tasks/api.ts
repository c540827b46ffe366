/** The task routes the Tasks page calls. A list is the personal one (`null`) or a workspace's. */
import { apiFetch } from "../../shared/api/client";
import type { Caught, NewTask, Task, TaskMirror, TaskMove, TaskPatch } from "../../shared/api/types.generated";

export type ListId = string | null;

export const listTasks = (workspaceId: ListId) =>
  apiFetch<{ tasks: Task[] }>(
    workspaceId === null ? "/tasks" : `/tasks?workspaceId=${encodeURIComponent(workspaceId)}`,
  ).then((r) => r.tasks);

export const createTask = (body: NewTask) => apiFetch<Task>("/tasks", { method: "POST", body });

export const updateTask = (id: string, patch: TaskPatch) =>
  apiFetch<Task>(`/tasks/${encodeURIComponent(id)}`, { method: "PATCH", body: patch });

export const deleteTask = (id: string) => apiFetch<void>(`/tasks/${encodeURIComponent(id)}`, { method: "DELETE" });

export const moveTask = (move: TaskMove) =>
  apiFetch<{ tasks: Task[] }>("/tasks/reorder", { method: "POST", body: move }).then((r) => r.tasks);

export const listMirrors = () => apiFetch<{ mirrors: TaskMirror[] }>("/tasks/mirror").then((r) => r.mirrors);

export const setMirrorFolder = (workspaceId: ListId, folder: string | null) =>
  apiFetch<TaskMirror>("/tasks/mirror", { method: "PUT", body: { workspaceId, folder } });

export const listCaught = () => apiFetch<{ caught: Caught[] }>("/tasks/caught").then((r) => r.caught);

export const keepCaught = (id: string) =>
  apiFetch<Task>(`/tasks/caught/${encodeURIComponent(id)}/keep`, { method: "POST" });

export const dismissCaught = (id: string) =>
  apiFetch<void>(`/tasks/caught/${encodeURIComponent(id)}/dismiss`, { method: "POST" });
