/**
 * `/mail` (issue 67): the person's own mail. Folders (the SPECIAL-USE ones first), a folder's
 * threads (`webmailPageSize` a page, opening on `webmailDefaultQuery`), the open thread; triage
 * from the keyboard (E S U ! X H J K R A F /), applied at once and put back with the server's
 * words when refused; compose, Email Cleanup and accounts in the same place. Density and the
 * header's arrangement follow their settings; a phone shows one pane at a time.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type CSSProperties } from "react";
import { useApi } from "../../shared/hooks/useApi";
import { typingIn } from "../../shared/keys";
import { useSearchParam } from "../../shared/router";
import { useSettings } from "../../shared/settings";
import { EmptyState } from "../../shared/ui/EmptyState";
import { ErrorNote, Loading } from "../../shared/ui/Status";
import { useMediaQuery } from "../../shared/useMediaQuery";
import { useNow } from "../../shared/useNow";
import {
  ACCOUNTS_PATH,
  foldersPath,
  type MailAccount,
  type MailFolder,
  type MailThread,
  type ThreadAction,
} from "./api";
import { Accounts } from "./Accounts";
import { Cleanup } from "./Cleanup";
import { Composer } from "./Composer";
import { draftFor, emptyDraft, type ComposeKind, type Draft } from "./compose";
import { densityPadding, folderLabel, headerLayout, openingFolder, orderFolders } from "./folders";
import { InboxZero } from "./InboxZero";
import { MailHeader, SearchForm, type MailView } from "./MailHeader";
import { SnoozePicker } from "./SnoozePicker";
import { ThreadList } from "./ThreadList";
import { ThreadPane } from "./ThreadPane";
import { afterLeaving, keyCommand, leavesFolder, neighbour, toggleAction, type KeyCommand } from "./triage";
import { useMailbox } from "./useMailbox";
import "./mail.css";

const NARROW = "(max-width: 640px)";

export function MailPage() {
  const { values } = useSettings();
  const accounts = useApi<MailAccount[]>(ACCOUNTS_PATH);
  const askedAccount = useSearchParam("account");
  const [chosenAccount, setChosenAccount] = useState<string | null>(null);
  const accountId = chosenAccount ?? askedAccount ?? accounts.data?.[0]?.id ?? null;
  const account = accounts.data?.find((a) => a.id === accountId);
  const [view, setView] = useState<MailView>("mail");

  if (accounts.error !== undefined) {
    return (
      <section className="page mail-page">
        <h1>Mail</h1>
        <ErrorNote error={accounts.error} onRetry={accounts.reload} />
      </section>
    );
  }
  if (!accounts.data) {
    return (
      <section className="page mail-page">
        <h1>Mail</h1>
        <Loading what="your mail accounts" />
      </section>
    );
  }
  if (!account) {
    return (
      <section className="page mail-page">
        <h1>Mail</h1>
        <p>Add the account you read your own mail with: Switchboard reads it over IMAP and sends over SMTP.</p>
        <Accounts
          accounts={accounts.data}
          onAdded={(added) => {
            setChosenAccount(added.id);
            accounts.reload();
          }}
        />
      </section>
    );
  }
  return (
    <Mailbox
      key={account.id}
      account={account}
      accounts={accounts.data}
      values={values}
      view={view}
      onView={setView}
      onAccount={setChosenAccount}
      onAccountsChanged={accounts.reload}
    />
  );
}

interface MailboxProps {
  account: MailAccount;
  accounts: readonly MailAccount[];
  values: Readonly<Record<string, unknown>> | undefined;
  view: MailView;
  onView: (view: MailView) => void;
  onAccount: (id: string) => void;
  onAccountsChanged: () => void;
}

function Mailbox({ account, accounts, values, view, onView, onAccount, onAccountsChanged }: MailboxProps) {
  const folders = useApi<MailFolder[]>(foldersPath(account.id));
  const ordered = useMemo(() => orderFolders(folders.data ?? []), [folders.data]);
  const [chosenFolder, setChosenFolder] = useState<string | null>(null);
  const folder = ordered.find((f) => f.name === chosenFolder) ?? openingFolder(ordered);
  const [search, setSearch] = useState("");
  const [q, setQ] = useState<string | undefined>(undefined);
  const mailbox = useMailbox(folder ? { accountId: account.id, folder: folder.name, q } : null);
  const askedThread = useSearchParam("thread");
  const [openId, setOpenId] = useState<string | null>(askedThread);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [draft, setDraft] = useState<Draft | null>(null);
  const [snoozing, setSnoozing] = useState<string[] | null>(null);
  const thread = useRef<MailThread | null>(null);
  const pane = useRef<HTMLDivElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const narrow = useMediaQuery(NARROW);
  const now = useNow();
  const self = useMemo(() => [account.address], [account.address]);
  const autoFocusReply = values?.webmailAutoFocusReply === true;
  const autoMarkRead = values?.webmailAutoMarkRead !== false;

  const open = useCallback(
    (id: string | null) => {
      setOpenId(id);
      setDraft(null);
      setSnoozing(null);
      thread.current = null;
      if (id) mailbox.opened(id, autoMarkRead);
    },
    [mailbox, autoMarkRead],
  );

  // The body holds the focus, so the triage keys act at once; a reply box that opens takes it instead.
  useEffect(() => {
    if (openId && !autoFocusReply) pane.current?.focus();
  }, [openId, autoFocusReply]);

  const targets = useCallback(() => (selected.size > 0 ? [...selected] : openId ? [openId] : []), [selected, openId]);

  const apply = useCallback(
    (ids: readonly string[], action: ThreadAction, until?: Date) => {
      if (openId && ids.includes(openId) && leavesFolder(action)) {
        const rest = mailbox.threads.filter((t) => !ids.includes(t.id) || t.id === openId);
        open(afterLeaving(rest, openId));
      }
      if (leavesFolder(action)) setSelected(new Set());
      const empties = mailbox.next === null && mailbox.threads.every((t) => ids.includes(t.id));
      for (const id of ids) void mailbox.act(id, { action, until: until?.toISOString() }, empties);
    },
    [openId, mailbox, open],
  );

  const compose = useCallback(
    (kind: Exclude<ComposeKind, "new">) => {
      const last = thread.current?.messages.at(-1);
      if (last) setDraft(draftFor(kind, last, self));
    },
    [self],
  );

  const command = useCallback(
    (which: KeyCommand) => {
      const ids = targets();
      const first = mailbox.threads.find((t) => t.id === ids[0]);
      switch (which) {
        case "next":
        case "previous":
          open(neighbour(mailbox.threads, openId, which === "next" ? 1 : -1));
          return;
        case "search":
          searchRef.current?.focus();
          return;
        case "select":
          if (openId) setSelected((held) => toggled(held, openId));
          return;
        case "reply":
        case "replyAll":
        case "forward":
          // A reply being written is not thrown away by a key.
          if (!draft) compose(which);
          return;
        case "snooze":
          if (ids.length > 0) setSnoozing(ids);
          return;
        case "star":
        case "unread":
          if (first) apply(ids, toggleAction(which, first));
          return;
        case "archive":
        case "spam":
          if (ids.length > 0) apply(ids, which);
          return;
      }
    },
    [targets, mailbox.threads, open, openId, compose, apply, draft],
  );

  useEffect(() => {
    if (view !== "mail" || snoozing) return;
    const onKey = (event: KeyboardEvent) => {
      if (typingIn(event.target)) return;
      const which = keyCommand(event);
      if (!which) return;
      event.preventDefault();
      command(which);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [view, snoozing, command]);

  const layout = headerLayout(values?.mailclientHeaderLayout);
  const style = { "--mail-row-pad": `${densityPadding(values?.mailclientDensity)}px` } as CSSProperties;
  const header = (
    <MailHeader
      layout={layout}
      view={view}
      onView={onView}
      search={search}
      onSearch={setSearch}
      onSubmitSearch={() => {
        setQ(search);
        open(null);
      }}
      searchRef={searchRef}
      onRefresh={() => {
        folders.reload();
        mailbox.reload();
        onAccountsChanged();
      }}
    />
  );

  const openSummary = mailbox.threads.find((t) => t.id === openId);
  const toolbar = openId && (
    <ThreadButtons
      starred={openSummary?.starred ?? false}
      unread={(openSummary?.unread ?? 0) > 0}
      onCommand={command}
    />
  );
  const threadPane = openId && (
    <ThreadPane
      ref={pane}
      key={openId}
      threadId={openId}
      summary={openSummary}
      accountId={account.id}
      draft={draft}
      autoFocusReply={autoFocusReply}
      summaryTrigger={values?.mailclientAiSummaryTrigger}
      summarySenders={values?.mailclientAiSummaryAutoSenders}
      toolbar={
        <>
          {toolbar}
          {snoozing && (
            <SnoozePicker
              now={new Date(now)}
              onPick={(until) => {
                apply(snoozing, "snooze", until);
                setSnoozing(null);
              }}
              onClose={() => {
                setSnoozing(null);
                pane.current?.focus();
              }}
            />
          )}
        </>
      }
      onLoaded={(loaded) => {
        thread.current = loaded;
      }}
      onCompose={compose}
      onDraftDone={() => {
        setDraft(null);
        pane.current?.focus();
      }}
      onBack={narrow ? () => open(null) : undefined}
    />
  );

  const inboxShown = folder?.role === "inbox";
  const listBody =
    mailbox.error !== undefined ? (
      <ErrorNote error={mailbox.error} onRetry={mailbox.reload} />
    ) : mailbox.threads.length === 0 && !mailbox.loading ? (
      inboxShown && mailbox.emptied ? (
        <InboxZero celebrate={values?.webmailInboxZeroCelebration !== false} />
      ) : (
        <EmptyState>{q ? "No thread matches." : "No mail here."}</EmptyState>
      )
    ) : mailbox.threads.length === 0 ? (
      <Loading what="threads" />
    ) : (
      <ThreadList
        threads={mailbox.threads}
        open={openId}
        selected={selected}
        now={now}
        more={mailbox.next !== null}
        loading={mailbox.loading}
        label={`Threads in ${folder ? folderLabel(folder) : "the folder"}`}
        onOpen={open}
        onToggleSelect={(id) => setSelected((held) => toggled(held, id))}
        onLoadMore={mailbox.loadMore}
      />
    );

  const folderNav = (
    <nav className="mail-folders" aria-label="Folders">
      {accounts.length > 1 && (
        <div className="mail-form-field">
          <label htmlFor="mail-account">Account</label>
          <select id="mail-account" value={account.id} onChange={(event) => onAccount(event.target.value)}>
            {accounts.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name} ({a.address})
              </option>
            ))}
          </select>
        </div>
      )}
      {folders.error !== undefined && <ErrorNote error={folders.error} onRetry={folders.reload} />}
      {narrow ? (
        <div className="mail-form-field">
          <label htmlFor="mail-folder">Folder</label>
          <select
            id="mail-folder"
            value={folder?.name ?? ""}
            onChange={(event) => (setChosenFolder(event.target.value), open(null))}
          >
            {ordered.map((f) => (
              <option key={f.name} value={f.name}>
                {folderLabel(f)}
                {f.unread > 0 ? ` (${f.unread})` : ""}
              </option>
            ))}
          </select>
        </div>
      ) : (
        <ul className="mail-folder-list">
          {ordered.map((f) => (
            <li key={f.name}>
              <button
                type="button"
                className="mail-folder"
                aria-current={f.name === folder?.name ? "true" : undefined}
                onClick={() => (setChosenFolder(f.name), open(null), onView("mail"))}
              >
                {folderLabel(f)}
                {f.unread > 0 && (
                  <span className="mail-folder-count">
                    {f.unread}
                    <span className="visually-hidden"> unread</span>
                  </span>
                )}
              </button>
            </li>
          ))}
        </ul>
      )}
    </nav>
  );

  let main;
  if (view === "compose") {
    main = (
      <Composer
        accountId={account.id}
        draft={emptyDraft}
        focus
        onSent={() => onView("mail")}
        onDiscard={() => onView("mail")}
      />
    );
  } else if (view === "cleanup") {
    main = <Cleanup accountId={account.id} classic={values?.emailCleanupClassicLayout === true} />;
  } else if (view === "accounts") {
    main = <Accounts accounts={accounts} onAdded={onAccountsChanged} />;
  } else if (narrow) {
    main = threadPane || (
      <>
        {folderNav}
        {listBody}
      </>
    );
  } else {
    main = (
      <div className="mail-panes">
        {folderNav}
        <div className="mail-list-pane">
          {layout === "rail" && (
            <SearchForm
              search={search}
              onSearch={setSearch}
              onSubmitSearch={() => (setQ(search), open(null))}
              searchRef={searchRef}
            />
          )}
          {listBody}
        </div>
        {threadPane || <p className="muted mail-none-open">Open a thread, or press J.</p>}
      </div>
    );
  }

  return (
    <section className="page mail-page touch" data-layout={layout} style={style}>
      {header}
      <div className="mail-body">
        {mailbox.refusal && (
          <p className="mail-error" role="alert">
            Not done: {mailbox.refusal}{" "}
            <button type="button" onClick={mailbox.dismiss}>
              Dismiss
            </button>
          </p>
        )}
        {narrow && layout === "rail" && view === "mail" && !openId && (
          <SearchForm
            search={search}
            onSearch={setSearch}
            onSubmitSearch={() => (setQ(search), open(null))}
            searchRef={searchRef}
          />
        )}
        {main}
      </div>
    </section>
  );
}

function toggled(held: ReadonlySet<string>, id: string): ReadonlySet<string> {
  const next = new Set(held);
  if (!next.delete(id)) next.add(id);
  return next;
}

/** The open thread's buttons: the same commands as the keys, which they name. */
function ThreadButtons({
  starred,
  unread,
  onCommand,
}: {
  starred: boolean;
  unread: boolean;
  onCommand: (command: KeyCommand) => void;
}) {
  const button = (command: KeyCommand, label: string, key: string) => (
    <button type="button" aria-keyshortcuts={key} title={`${label} (${key})`} onClick={() => onCommand(command)}>
      {label}
    </button>
  );
  return (
    <div className="mail-thread-buttons" role="toolbar" aria-label="Thread">
      {button("archive", "Archive", "E")}
      {button("star", starred ? "Unstar" : "Star", "S")}
      {button("unread", unread ? "Mark read" : "Mark unread", "U")}
      {button("spam", "Spam", "!")}
      {button("snooze", "Snooze", "H")}
      {button("reply", "Reply", "R")}
      {button("replyAll", "Reply all", "A")}
      {button("forward", "Forward", "F")}
    </div>
  );
}
