/** A page that lists one API resource: heading, refresh, the error or loading state, and an empty note. */
import type { ReactNode } from "react";
import type { Resource } from "../hooks/useApi";
import { ErrorNote, Loading } from "./Status";

interface Props<T> {
  title: string;
  resource: Resource<T[]>;
  /** Completes "Loading …". */
  what: string;
  empty: string;
  children: (rows: T[]) => ReactNode;
}

export function ListPage<T>({ title, resource, what, empty, children }: Props<T>) {
  const rows = resource.data;
  return (
    <section className="page">
      <header className="page-head">
        <h1>{title}</h1>
        <button type="button" onClick={resource.reload}>
          Refresh
        </button>
      </header>
      {resource.error !== undefined && <ErrorNote error={resource.error} onRetry={resource.reload} />}
      {resource.loading && !rows && <Loading what={what} />}
      {rows?.length === 0 && <p className="muted">{empty}</p>}
      {rows && rows.length > 0 && children(rows)}
    </section>
  );
}
