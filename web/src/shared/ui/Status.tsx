/** The plain states every page shows the same way: loading, failed, not built. */
import type { ReactNode } from "react";
import { errorMessage } from "../api/errorMessage";

export function Loading({ what }: { what: string }) {
  return (
    <p className="muted" aria-busy="true">
      Loading {what}…
    </p>
  );
}

export function ErrorNote({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
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
