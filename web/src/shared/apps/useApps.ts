/**
 * The running apps a view shows, kept current by the event stream: the server sends `apps`
 * whenever the list changes (an app started, stopped, crashed or was found), and `reset` when
 * events were lost; either reads the list again.
 */
import { useApi, type Resource } from "../hooks/useApi";
import { useStreamEvent, useStreamLifecycle } from "../stream/useStream";

/** `path` null reads nothing (the setting is off). */
export function useApps<T>(path: string | null): Resource<T> {
  const resource = useApi<T>(path);
  const { reload } = resource;
  useStreamEvent("apps", () => {
    if (path !== null) reload();
  });
  useStreamLifecycle("reset", () => {
    if (path !== null) reload();
  });
  return resource;
}
