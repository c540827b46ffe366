/**
 * The one page header: a way back, the heading, a note beside it, and the page's actions at the
 * end; the browser tab takes the heading's text (or `tabTitle`) so the tab says which board or
 * dashboard it is, not the section's name.
 */
import { useEffect, type ReactNode } from "react";
import { Link } from "../router";
import { pageTitle } from "./pageTitle";

/** Titles the browser tab while the page is shown. */
export function usePageTitle(name: string | undefined): void {
  useEffect(() => {
    document.title = pageTitle(name);
  }, [name]);
}

export function PageHeader({
  title,
  heading,
  tabTitle,
  back,
  note,
  actions,
  headingId,
}: {
  /** The heading's text, and the tab's unless `tabTitle` says otherwise. */
  title: string;
  /** Drawn in place of the heading's text (a dashboard's name is a field); `title` still names it. */
  heading?: ReactNode;
  tabTitle?: string;
  back?: { to: string; label: string };
  note?: ReactNode;
  actions?: ReactNode;
  headingId?: string;
}) {
  usePageTitle(tabTitle ?? title);
  return (
    <header className="page-head">
      {back && (
        <Link to={back.to} className="muted touch-link">
          {back.label}
        </Link>
      )}
      {heading ?? <h1 id={headingId}>{title}</h1>}
      {note}
      {actions && <div className="page-actions">{actions}</div>}
    </header>
  );
}
