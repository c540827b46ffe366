/**
 * `/inbox`: the account's rows by category (tabs with unread counts), live from the event stream.
 * A row opens where its action points (and is marked read), is marked read or unread, archived
 * alone or with others; "Load more" pages back; `j`/`k` move the selection, Enter opens, `e`
 * archives. An alert offers "Start session", which the shell's New session dialog answers. A
 * `cli_pending` row shows its session's pending approvals, answered in place (Approve, Deny,
 * Always for this session); once a session has none left waiting its row is marked read. A
 * session's input request (a secret typed into its dotenv file) or key proposal shows on its own
 * `cli_pending` row as a card answered in place; the server marks that row read once answered.
 * An agent's unread question has a reply box that sends the follow-up and marks the row read; a mail
 * card (category `mail`) has one that answers the mail by email.
 * The page opens with what `needsYou` holds: the sessions waiting on the user, before any row.
 * With `inboxAnalyticsEnabled` on, a Stats tab shows the week's figures and the page reports which
 * rows it showed, for how long (counts per category only).
 */
import { useCallback, useEffect, useState, type ReactNode } from "react";
import { apiFetch } from "../../shared/api/client";
import type { Approval, InboxRow, Session } from "../../shared/api/types.generated";
import { changeRow, readAll } from "../../shared/inbox/api";
import { useInboxStatus } from "../../shared/inbox/InboxStatus";
import { navigate, useSearchParam } from "../../shared/router";
import { useSettings } from "../../shared/settings";
import { EmptyState } from "../../shared/ui/EmptyState";
import { PageHeader } from "../../shared/ui/PageHeader";
import { ErrorNote, Loading } from "../../shared/ui/Status";
import { TabButtons } from "../../shared/ui/Tabs";
import { useToast } from "../../shared/ui/toasts";
import { useNow } from "../../shared/useNow";
import { SessionAnswers } from "../../shared/answers/SessionAnswers";
import { approvalSessionOf, automationApprovalOf, rowToMarkRead } from "./approvals";
import { ChimeHistory } from "./ChimeHistory";
import { InboxItem } from "./InboxItem";
import { InboxStats } from "./InboxStats";
import { useViewReports } from "./useViewReports";
import { InputRequestCard } from "../../shared/answers/InputRequestCard";
import { KeyProposalCard } from "../../shared/answers/KeyProposalCard";
import { PairingCard } from "../../shared/answers/PairingCard";
import { SessionStartCard } from "../../shared/answers/SessionStartCard";
import { ReplyBox } from "../../shared/answers/ReplyBox";
import { alertFolder, openTarget, rowWanted, TAB_LABEL, TABS, type Tab } from "./list";
import { moveSelection, typingIn } from "../../shared/keys";
import { secretCardOf } from "../../shared/answers/secrets";
import { useApprovals } from "../../shared/answers/useApprovals";
import { useInboxRows } from "./useInboxRows";
import "./inbox.css";
import { Hint } from "../../shared/ui/Hint";

interface Props {
  /** Opens the New session dialog, its folder filled in when one is given. */
  onStartSession: (folder: string | undefined) => void;
  /**
   * The "Needs you" section the page leads with (the sessions feature draws it and the shell
   * passes it in, so the two features stay apart); nothing when no session waits on the user.
   */
  needsYou: ReactNode;
  /**
   * A mail card's reply box (the mail feature draws it and the shell passes it in); nothing for a
   * row that is no mail card.
   */
  mailReply?: (row: InboxRow, onSent: () => void) => ReactNode;
}

export function InboxPage({ onStartSession, needsYou, mailReply }: Props) {
  const [tab, setTab] = useState<Tab>("all");
  const inbox = useInboxRows(tab);
  const { counts } = useInboxStatus();
  const { values } = useSettings();
  const statsOn = values?.inboxAnalyticsEnabled === true;
  const [statsShown, setStatsShown] = useState(false);
  const showingStats = statsOn && statsShown;
  const toast = useToast();
  const now = useNow();
  const [selected, setSelected] = useState<string | null>(null);
  const [checked, setChecked] = useState<ReadonlySet<string>>(new Set());
  const rows = inbox.rows;
  useViewReports(showingStats ? undefined : rows, statsOn);

  const change = useCallback(
    (row: InboxRow, patch: { read?: boolean; archived?: boolean }) =>
      changeRow(row.id, patch).then(inbox.replace, (e: unknown) => toast.error(e, "The row was not changed")),
    [inbox.replace, toast],
  );

  const approvals = useApprovals(
    (answered: Approval, before: readonly Approval[]) => {
      const row = rows && rowToMarkRead(rows, before, answered);
      if (row) void change(row, { read: true });
    },
    (e: unknown, context: string) => toast.error(e, context),
  );

  const open = useCallback(
    (row: InboxRow) => {
      if (row.readAt === null) void change(row, { read: true });
      const target = openTarget(row);
      if (target) navigate(target);
    },
    [change],
  );

  const archive = useCallback(
    (row: InboxRow) => {
      setSelected((current) => (current === row.id && rows ? moveSelection(rows, row.id, 1) : current));
      void change(row, { archived: true });
    },
    [change, rows],
  );

  // Approve on a schedule or rule an agent made: once approved, its row is read.
  const [approving, setApproving] = useState<ReadonlySet<string>>(new Set());
  const approveFor = (row: InboxRow) => {
    const target = automationApprovalOf(row);
    if (!target) return undefined;
    const run = () => {
      setApproving((all) => new Set(all).add(row.id));
      apiFetch(target.path, { method: "POST" })
        .then(
          () => change(row, { read: true }),
          (e: unknown) => toast.error(e, `The ${target.kind} was not approved`),
        )
        .finally(() =>
          setApproving((all) => {
            const next = new Set(all);
            next.delete(row.id);
            return next;
          }),
        );
    };
    return { label: `Approve the ${target.kind}: ${row.title}`, busy: approving.has(row.id), run };
  };

  const archiveChecked = () => {
    const targets = rows?.filter((r) => checked.has(r.id)) ?? [];
    setChecked(new Set());
    void Promise.all(targets.map((r) => change(r, { archived: true })));
  };

  const markAllRead = () =>
    readAll(tab === "all" ? undefined : tab).catch((e: unknown) => toast.error(e, "The rows were not marked read"));

  const startSession = (row: InboxRow) => {
    const id = row.source.sessionId;
    const fallback = values?.alertSessionDefaultProjectId;
    if (!id) return onStartSession(alertFolder(undefined, fallback));
    apiFetch<Session>(`/sessions/${encodeURIComponent(id)}`).then(
      (s) => onStartSession(alertFolder(s.cwd, fallback)),
      () => onStartSession(alertFolder(undefined, fallback)),
    );
  };

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey || typingIn(event.target)) return;
      if (document.querySelector("dialog[open]") || !rows) return;
      const row = rows.find((r) => r.id === selected);
      if (event.key === "j" || event.key === "k") {
        event.preventDefault();
        setSelected(moveSelection(rows, selected, event.key === "j" ? 1 : -1));
      } else if (event.key === "Enter" && row) {
        event.preventDefault();
        open(row);
      } else if (event.key === "e" && row) {
        event.preventDefault();
        archive(row);
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [rows, selected, open, archive]);

  useEffect(() => {
    if (selected) document.getElementById(`inbox-row-${selected}`)?.scrollIntoView({ block: "nearest" });
  }, [selected]);

  // A push's click opens `/inbox?row=<id>`: that row is selected and focused once, after which the
  // keys move the selection as usual. Adjusted while rendering, as React advises for state that
  // follows another's.
  const wanted = useSearchParam("row");
  const [answered, setAnswered] = useState<string | null>(null);
  if (wanted && rows && answered !== wanted) {
    const step = rowWanted(rows, wanted, tab);
    if (step && "tab" in step) {
      setTab(step.tab);
    } else {
      setAnswered(wanted);
      if (step) setSelected(step.select);
    }
  }
  useEffect(() => {
    if (answered) document.getElementById(`inbox-row-${answered}`)?.focus({ preventScroll: true });
  }, [answered]);

  const toggleCheck = (id: string) =>
    setChecked((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  const pendingFor = (row: InboxRow) => {
    const mail = mailReply?.(row, () => void change(row, { read: true }));
    if (mail) return mail;
    const asker = row.source.sessionId;
    // An agent's question is answered from its row: the reply goes to the session as a follow-up,
    // and the row, answered, is read.
    if (row.category === "session" && row.reason === "question" && asker && row.readAt === null) {
      return <ReplyBox sessionId={asker} to={row.title} onSent={() => void change(row, { read: true })} />;
    }
    const pairing = row.actions.find((action) => action.kind === "approve_pairing");
    if (pairing && row.readAt === null) {
      return <PairingCard code={pairing.code} onAnswered={() => void change(row, { read: true })} />;
    }
    const start = row.actions.find((action) => action.kind === "approve_session_start");
    if (start && row.readAt === null) {
      return <SessionStartCard sessionId={start.sessionId} onAnswered={() => void change(row, { read: true })} />;
    }
    const card = secretCardOf(row);
    if (!card) {
      const session = approvalSessionOf(row);
      return session ? (
        <SessionAnswers sessionId={session} title={row.title} approvals={approvals} requests={[]} reply={false} />
      ) : undefined;
    }
    // Drawn anew when the row turns read, as the server marks it once answered (here, in another
    // tab): the card then reads the request again and shows how it ended.
    const drawn = row.readAt === null ? "unread" : "read";
    return card.kind === "input_request" ? (
      <InputRequestCard key={drawn} requestId={card.requestId} />
    ) : (
      <KeyProposalCard key={drawn} proposalId={card.proposalId} />
    );
  };

  const total = counts ? Object.values(counts).reduce((a, b) => a + (b ?? 0), 0) : undefined;
  const unreadIn = (t: Tab) => (t === "all" ? total : counts?.[t]);
  // Tabs of categories the server does not list (hidden by an inboxShow* setting) are left out.
  const tabs = TABS.filter((t) => t === "all" || !counts || t in counts);

  return (
    <section className="page inbox-page touch">
      <PageHeader
        title="Inbox"
        note={
          <Hint className="muted shortcut-hint">
            <kbd>j</kbd>/<kbd>k</kbd> move, <kbd>Enter</kbd> opens, <kbd>e</kbd> archives
          </Hint>
        }
      />
      {needsYou}
      <TabButtons
        label="Categories"
        tabs={[
          ...tabs.map((t): { key: Tab | "stats"; label: string; count: number | undefined } => ({
            key: t,
            label: TAB_LABEL[t],
            count: unreadIn(t),
          })),
          ...(statsOn ? [{ key: "stats" as const, label: "Stats", count: undefined }] : []),
        ]}
        selected={showingStats ? "stats" : tab}
        onSelect={(t) => {
          setStatsShown(t === "stats");
          if (t === "stats") return;
          setTab(t);
          setSelected(null);
          setChecked(new Set());
        }}
      />
      {showingStats && <InboxStats />}
      {!showingStats && (
        <>
          <div className="inbox-toolbar">
            <button type="button" onClick={markAllRead}>
              Mark all read
            </button>
            <button type="button" disabled={checked.size === 0} onClick={archiveChecked}>
              Archive selected{checked.size > 0 ? ` (${checked.size})` : ""}
            </button>
          </div>
          {inbox.error !== undefined && <ErrorNote error={inbox.error} onRetry={inbox.reload} />}
          {!rows && inbox.error === undefined && <Loading what="the inbox" />}
          {rows?.length === 0 && <EmptyState>Nothing here.</EmptyState>}
          {rows && rows.length > 0 && (
            <ul className="inbox-list" aria-label="Inbox rows">
              {rows.map((row) => (
                <InboxItem
                  key={row.id}
                  row={row}
                  now={now}
                  selected={row.id === selected}
                  checked={checked.has(row.id)}
                  onCheck={() => toggleCheck(row.id)}
                  onSelect={() => setSelected(row.id)}
                  onOpen={() => open(row)}
                  onRead={(read) => void change(row, { read })}
                  onArchive={() => archive(row)}
                  onStartSession={row.category === "alert" ? () => startSession(row) : undefined}
                  approve={approveFor(row)}
                  pending={pendingFor(row)}
                />
              ))}
            </ul>
          )}
          {inbox.more && (
            <button type="button" className="load-more" disabled={inbox.loadingMore} onClick={inbox.loadMore}>
              {inbox.loadingMore ? "Loading…" : "Load more"}
            </button>
          )}
        </>
      )}
      <ChimeHistory />
    </section>
  );
}
