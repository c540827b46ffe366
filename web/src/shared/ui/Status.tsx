/** The plain states every page shows the same way: loading, failed, not built. */
import type { ReactNode } from "react";
import { ApiError } from "../api/client";
import { errorMessage } from "../api/errorMessage";
import { Link } from "../router";

export function Loading({ what }: { what: string }) {
  return (
    <p className="muted" aria-busy="true">
      Loading {what}…
    </p>
  );
}

/**
 * A failed load, said plainly. Something that does not exist (404: a deleted session, a
 * mistyped address) gets a way back instead of a retry, which could only fail again.
 */
export function ErrorNote({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  if (error instanceof ApiError && error.status === 404) {
    return (
      <div className="error-note" role="alert">
        <span>{errorMessage(error)}</span>
        <Link to="/">Back to the start page</Link>
      </div>
    );
  }
  return (
    <div className="error-note" role="alert">
      <span>{errorMessage(error)}</span>
      {onRetry && (
        <button type="button" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

export function NotBuilt({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <section className="page">
      <h1>{title}</h1>
      <p className="not-built">This section is not built yet.</p>
      {children}
    </section>
  );
}
