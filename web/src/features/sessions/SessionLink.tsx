/**
 * A link to another session (a parent, a child) named by its title, as everywhere else: the page
 * knows only its id, so it reads the session. Until then, or if it is gone, the link says so
 * instead of showing an id.
 */
import type { Session } from "../../shared/api/types.generated";
import { useApi } from "../../shared/hooks/useApi";
import { Link, sessionPath } from "../../shared/router";
import { sessionTitle } from "./lifecycle";

export function SessionLink({ id }: { id: string }) {
  const { data, error } = useApi<Session>(`/sessions/${encodeURIComponent(id)}`);
  const name = data ? sessionTitle(data) : error !== undefined ? "A session no longer listed" : "…";
  return <Link to={sessionPath(id)}>{name}</Link>;
}
