/**
 * The mail page's header in the three arrangements of `mailclientHeaderLayout`: current (the
 * page heading with the Mail/Sessions switch beside it, the toolbar at its end, the search under
 * it), unified (one bar: switch, search and toolbar in a row) and rail (a column down the left
 * edge with the switch and the toolbar stacked, the search over the list).
 */
import type { ReactNode, RefObject } from "react";
import { Link } from "../../shared/router";
import { usePageTitle } from "../../shared/ui/PageHeader";
import type { HeaderLayout } from "./folders";

export type MailView = "mail" | "compose" | "cleanup" | "accounts";

interface Props {
  layout: HeaderLayout;
  view: MailView;
  onView: (view: MailView) => void;
  search: string;
  onSearch: (text: string) => void;
  onSubmitSearch: () => void;
  searchRef: RefObject<HTMLInputElement | null>;
  onRefresh: () => void;
}

/** Between the person's mail and the agents' sessions: the two things this app is kept open for. */
function ModeSwitch({ vertical }: { vertical?: boolean }) {
  return (
    <nav className={`mail-switch${vertical ? " vertical" : ""}`} aria-label="Mail or sessions">
      <Link to="/mail" className="mail-switch-link" aria-current="page">
        Mail
      </Link>
      <Link to="/" className="mail-switch-link">
        Sessions
      </Link>
    </nav>
  );
}

function Toolbar({
  view,
  onView,
  onRefresh,
  vertical,
}: Pick<Props, "view" | "onView" | "onRefresh"> & { vertical?: boolean }) {
  const toggle = (which: MailView, label: string) => (
    <button type="button" aria-pressed={view === which} onClick={() => onView(view === which ? "mail" : which)}>
      {label}
    </button>
  );
  return (
    <div className={`mail-toolbar${vertical ? " vertical" : ""}`} role="toolbar" aria-label="Mail">
      <button type="button" className="primary" onClick={() => onView("compose")}>
        Compose
      </button>
      {toggle("cleanup", "Email Cleanup")}
      {toggle("accounts", "Accounts")}
      <button type="button" onClick={onRefresh}>
        Refresh
      </button>
    </div>
  );
}

export function SearchForm({
  search,
  onSearch,
  onSubmitSearch,
  searchRef,
}: Pick<Props, "search" | "onSearch" | "onSubmitSearch" | "searchRef">) {
  return (
    <form
      className="mail-search"
      role="search"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmitSearch();
      }}
    >
      <label htmlFor="mail-search-field" className="visually-hidden">
        Search mail
      </label>
      <input
        id="mail-search-field"
        ref={searchRef}
        type="search"
        placeholder="Search mail (/)"
        value={search}
        onChange={(event) => onSearch(event.target.value)}
      />
      <button type="submit">Search</button>
    </form>
  );
}

/** The header; `rail` returns its column, and the search is then drawn over the list by the page. */
export function MailHeader(props: Props): ReactNode {
  usePageTitle("Mail");
  const { layout } = props;
  if (layout === "unified") {
    return (
      <header className="mail-head unified">
        <h1 className="visually-hidden">Mail</h1>
        <ModeSwitch />
        <SearchForm {...props} />
        <Toolbar {...props} />
      </header>
    );
  }
  if (layout === "rail") {
    return (
      <header className="mail-head rail">
        <h1 className="mail-rail-title">Mail</h1>
        <ModeSwitch vertical />
        <Toolbar {...props} vertical />
      </header>
    );
  }
  return (
    <header className="mail-head current">
      <div className="page-head">
        <h1>Mail</h1>
        <ModeSwitch />
        <div className="page-actions">
          <Toolbar {...props} />
        </div>
      </div>
      <SearchForm {...props} />
    </header>
  );
}
