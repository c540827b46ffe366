/**
 * The one tab: a row of views of one page. `TabButtons` switch in place (role tab); `TabLinks`
 * go to an address (aria-current); both draw as `.tab`, so the Tasks and Inbox tabs look alike.
 */
import type { ReactNode } from "react";
import { Link } from "../router";

export interface TabItem<K extends string> {
  key: K;
  label: ReactNode;
  /** A count after the label (unread, caught); left out when zero. */
  count?: number | undefined;
  /** Anything else after the label (a page's own badge). */
  extra?: ReactNode;
}

function Count({ count, label }: { count: number | undefined; label?: string }) {
  if (!count) return null;
  return (
    <span className="tab-count" aria-label={label}>
      {count}
    </span>
  );
}

export function TabButtons<K extends string>({
  label,
  tabs,
  selected,
  onSelect,
  panelIds,
}: {
  label: string;
  tabs: readonly TabItem<K>[];
  selected: K;
  onSelect: (key: K) => void;
  /** With a prefix, tab `k` is `<prefix>-tab-k` and controls the panel `<prefix>-panel-k`. */
  panelIds?: string;
}) {
  return (
    <div className="tabs" role="tablist" aria-label={label}>
      {tabs.map((t) => (
        <button
          key={t.key}
          type="button"
          role="tab"
          className="tab"
          id={panelIds ? `${panelIds}-tab-${t.key}` : undefined}
          aria-controls={panelIds ? `${panelIds}-panel-${t.key}` : undefined}
          aria-selected={t.key === selected}
          onClick={() => onSelect(t.key)}
        >
          {t.label}
          <Count count={t.count} />
          {t.extra}
        </button>
      ))}
    </div>
  );
}

export function TabLinks({
  label,
  tabs,
  current,
}: {
  label: string;
  tabs: readonly (TabItem<string> & { to: string })[];
  current: string;
}) {
  return (
    <nav className="tabs" aria-label={label}>
      {tabs.map((t) => (
        <Link key={t.key} to={t.to} className="tab" aria-current={t.key === current ? "page" : undefined}>
          {t.label}
          <Count count={t.count} />
        </Link>
      ))}
    </nav>
  );
}
