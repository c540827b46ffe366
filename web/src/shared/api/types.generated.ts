// Generated from the Rust wire types by `cargo test -p server --test typescript`. Do not edit.

export type JsonValue = number | string | boolean | null | Array<JsonValue> | { [key in string]?: JsonValue };

export type ErrorBody = { error: ErrorDetail, };

export type ErrorDetail = { code: string, message: string, 
/**
 * The request field a 400 is about (`cron`, `timeZone`, `values`…),
 * when it is about one.
 */
field?: string, 
/**
 * Every bad field of the request, when a form's check found several
 * (the first is `field` and `message`); a field may appear more than
 * once.
 */
fields?: Array<FieldMessage>, };

export type FieldMessage = { field: string, message: string, };

export type Me = { accountId: string, isOwner: boolean, 
/**
 * `cli`, `agent` or `ui`.
 */
tokenKind: string, sessionId: string | null, 
/**
 * The account's own member (`"self": true` in `GET /members`).
 */
memberId: string | null, };

export type NewFeedback = { 
/**
 * 1 to 10,000 characters.
 */
text: string, };

export type BrowserSession = { signedIn: boolean, me: Me | null, };

export type SettingView = { key: string, value: JsonValue, default: JsonValue, 
/**
 * The catalog's type label: text, toggle, number, select, list, map,
 * object or unknown.
 */
type: string, };

export type SettingChanged = { key: string, value: JsonValue, };

export type OutputEvent = { sessionId: string, turn: number, seq: number, 
/**
 * When the entry was stored (RFC 3339, UTC): its `at` in the transcript.
 */
at: string, entry: EntryBody, };

export type BoardChanged = { boardId: string, etag: string | null, };

export type NewAccount = { name: string, };

export type CreatedAccount = { id: string, name: string, token: string, };

export type RunnerToken = { id: string, name: string, createdAt: string, };

export type CreatedRunnerToken = { id: string, name: string, createdAt: string, token: string, listener: RunnerListener, };

export type RunnerListener = { 
/**
 * Whether `runners.toml` has a `[listener]`.
 */
configured: boolean, 
/**
 * Where it listens, while it does.
 */
address: string | null, 
/**
 * Its certificate's SHA-256, lowercase hex.
 */
fingerprint: string | null, 
/**
 * Why it does not listen although configured.
 */
error: string | null, };

export type NewAlert = { title: string, body?: string, 
/**
 * Also push it to the user's devices (held by quiet hours and focus).
 */
push: boolean, };

export type Named = { name: string, };

export type Titled = { title: string, };

export type Order = { ids: Array<string>, };

export type ColumnChange = { title?: string, settings?: JsonValue, };

export type ItemMove = { groupId: string, index?: number, };

export type ItemBatch = { items: Array<NewItem>, 
/**
 * `true` when the items are (part of) an import: no item events are
 * recorded, as nobody is to be notified of what a file brought in.
 */
import?: boolean, };

export type BatchCreated = { ids: Array<string>, };

export type SessionMessage = { text: string, 
/**
 * Images of `POST /attachments`, by id: the engine reads them, or a
 * vision model's brief of each (`imageBridgeMode`, docs/attachments.md).
 */
attachments?: Array<string>, };

export type RenameSession = { title: string | null, };

export type UtilitySpend = { features: Array<UtilityFeatureSpend>, };

export type UtilityFeatureSpend = { feature: UtilityFeature, 
/**
 * The cap its setting gives (`weeklySummaryDailyCostCapUsd`,
 * `sessionForensicsDailyCostCapUsd`); null for a feature the catalog
 * gives no cap, and 0 is no limit.
 */
capUsd: number | null, spentTodayUsd: number, callsToday: number, };

export type UtilityCall = { id: string, feature: UtilityFeature, 
/**
 * The engine's name in `engines.toml`; null when none was configured.
 */
engine: string | null, 
/**
 * The model asked for, else the one the CLI reported using.
 */
model: string | null, inputTokens: number, outputTokens: number, 
/**
 * As the CLI reported it; null where it reports no price (Codex).
 */
costUsd: number | null, durationMs: number, outcome: UtilityOutcome, error: string | null, at: string, };

export type UtilityFeature = "title" | "catches" | "weekly_summary" | "archive_digest" | "forensics_deep" | "email_prescreen" | "review" | "image_bridge" | "email_summary" | "daily_briefing" | "rss_digest" | "mail_summary" | "alarm_words";

export type UtilityOutcome = "ok" | "invalid" | "failed" | "capped" | "no_engine";

export type Summary = { id: string, kind: SummaryKind, periodStart: string, periodEnd: string, 
/**
 * Markdown, as the utility model wrote it.
 */
text: string, createdAt: string, };

export type DigestKind = "rss" | "daily";

export type DigestRun = { id: string, };

export type EmailSummaries = { summaries: Array<EmailSummary>, 
/**
 * The cursor of the next page, absent on the last.
 */
next: string | null, 
/**
 * The summarizer's watcher: `off`, `connecting`, `idling`, `polling`
 * or `retrying: <why>`.
 */
watcher: string, };

export type EmailSummary = { id: string, from: string, subject: string, 
/**
 * The original's Message-ID, without angle brackets.
 */
messageId: string | null, 
/**
 * `pending`, `waiting` (the day's cap was reached: summarized the next
 * day), `done`, `no_text` or `failed`.
 */
state: string, summary: string | null, 
/**
 * Why it could not be summarized.
 */
failure: string | null, 
/**
 * The inbox row (category `email_summary`) that tells it.
 */
inboxRowId: string | null, 
/**
 * Moved to the server's Archive mailbox after its summary.
 */
archived: boolean, createdAt: string, summarizedAt: string | null, };

export type SummaryKind = "weekly" | "archive_daily" | "archive_weekly" | "forensics_weekly";

export type FrictionReport = { lastScanAt: string | null, findings: Array<FrictionFinding>, };

export type FrictionFinding = { id: string, kind: FrictionKind, sessionId: string, sessionTitle: string | null, detail: string, count: number, firstSeenAt: string, lastSeenAt: string, };

export type FrictionKind = "repeated_failing_command" | "loop_broken" | "stall" | "denied_tool_call" | "slow_approval" | "no_final_message";

export type Task = { id: string, 
/**
 * The workspace whose list holds it; `null` for the personal list.
 */
workspaceId: string | null, parentId: string | null, 
/**
 * Its place among its siblings, from 0, without gaps.
 */
position: number, text: string, notes: string, state: TaskState, 
/**
 * `YYYY-MM-DD`.
 */
due: string | null, 
/**
 * RFC 3339 in UTC with milliseconds.
 */
snoozedUntil: string | null, 
/**
 * The agent session that made it (an agent's write, or a kept catch).
 */
sourceSessionId: string | null, 
/**
 * True on the copy a conflicting tasks.md edit produced, beside the
 * database's version.
 */
conflict: boolean, createdAt: string, updatedAt: string, doneAt: string | null, };

export type TaskState = "open" | "done" | "dropped";

export type NewTask = { text: string, parentId?: string, 
/**
 * Absent for the personal list.
 */
workspaceId?: string, due?: string, notes?: string, 
/**
 * Its place among its siblings; absent puts it last.
 */
index?: number, };

export type TaskPatch = { text?: string, notes?: string, state?: TaskState, due?: string | null, snoozedUntil?: string | null, };

export type TaskMove = { id: string, 
/**
 * The new parent, in the same list; `null` for the top level.
 */
parentId: string | null, index: number, };

export type Caught = { id: string, sessionId: string, sessionTitle: string | null, text: string, 
/**
 * The sentence it came from.
 */
quote: string, createdAt: string, };

export type TaskMirror = { workspaceId: string | null, path: string, folder: string | null, };

export type MirrorFolder = { workspaceId: string | null, 
/**
 * An absolute path to an existing directory; `null` stops mirroring there.
 */
folder: string | null, };

export type StopSession = { tree?: boolean, };

export type LifecycleDeferred = { 
/**
 * The approval it waits for: an agent at `read_only` asked.
 */
approval?: Approval, 
/**
 * `true`: the session archives itself once the turn it asked from ends.
 */
archiveAtTurnEnd?: boolean, };

export type StartDecision = { 
/**
 * `true` starts it; `false` stops it without its ever running.
 */
approve: boolean, };

export type UsageRange = { from?: string, to?: string, };

export type PublishedLink = { token: string, url: string, };

export type PublicationState = { published: boolean, publishedAt: string | null, };

export type Workspace = { id: string, name: string, };

export type Member = { id: string, name: string, email?: string | null, 
/**
 * The account's own member, made with the account: who "assigned to
 * me" means. One per account; it cannot be deleted.
 */
self: boolean, };

export type NewMember = { name: string, email?: string, };

export type MemberPatch = { name?: string, email?: string | null, };

export type ColumnType = "text" | "number" | "status" | "people" | "date" | "timeline" | "checkbox" | "dropdown";

export type Column = { id: string, title: string, type: ColumnType, 
/**
 * Always an object, `{}` for a column without settings.
 */
settings: JsonValue, };

export type Group = { id: string, title: string, };

export type View = { name: string, 
/**
 * table, kanban, calendar, timeline, gantt, chart, form, gallery or workload.
 */
kind: string, };

export type Board = { id: string, workspaceId: string, name: string, columns: Array<Column>, groups: Array<Group>, views: Array<View>, createdAt: string, updatedAt: string, };

export type NewColumn = { id?: string, title: string, type: string, settings?: JsonValue, };

export type NewGroup = { id?: string, title: string, };

export type NewBoard = { workspaceId: string, name: string, columns: Array<NewColumn>, groups: Array<NewGroup>, preset?: string, };

export type Item = { id: string, boardId: string, groupId: string, name: string, values: { [key in string]: JsonValue }, createdAt: string, updatedAt: string, };

export type NewItem = { groupId?: string, name: string, values: { [key in string]: JsonValue }, };

export type ItemPatch = { name?: string, groupId?: string, values?: { [key in string]: JsonValue }, };

export type FullBoardBody = { board: FullBoardHeader, items: Array<FullItem>, };

export type FullBoardHeader = { id: string, workspaceId: string, name: string, columns: Array<Column>, groups: Array<Group>, };

export type FullItem = { id: string, groupId: string, name: string, values: { [key in string]: JsonValue }, createdAt: string, updatedAt: string, };

export type ColumnsBoardBody = { 
/**
 * Exactly the JSON read's `board`.
 */
board: FullBoardHeader, items: ItemColumns, };

export type ItemColumns = { count: number, id?: StringColumn, groupId?: StringColumn, name?: StringColumn, createdAt?: StringColumn, updatedAt?: StringColumn, 
/**
 * One column per key found in any item's `values`; on the wire the keys
 * come in first-appearance order (items in order, each item's keys sorted).
 */
values?: { [key in string]: ValueColumn }, };

export type StringColumn = Array<string> | { dict: Array<string>, codes: CodeList, };

export type CodeList = Array<number> | string;

export type ValueColumn = { dict: Array<JsonValue>, codes: CodeList, };

export type EventKind = "assigned" | "status_changed" | "due_date_set" | "due_date_changed" | "group_changed";

export type ItemEvent = { seq: number, boardId: string, itemId: string, actor: string, kind: EventKind, columnId: string, memberId?: string | null, before: JsonValue, after: JsonValue, createdAt: string, };

export type ImportReport = { board: Board, items: number, 
/**
 * Member ids found in people values that the account does not know; they
 * were left out of the imported values.
 */
droppedMembers: Array<string>, };

export type InferredColumn = { title: string, id: string, type: ColumnType, };

export type CsvImportReport = { board: Board, rows: number, 
/**
 * The CSV column that became the item names.
 */
nameColumn: string, 
/**
 * The CSV column whose values became the groups, if one is titled "Group".
 */
groupColumn?: string | null, 
/**
 * Every other CSV column, with the type inferred for it.
 */
columns: Array<InferredColumn>, };

export type Dashboard = { id: string, workspaceId: string, name: string, config: JsonValue, createdAt: string, updatedAt: string, };

export type NewDashboard = { workspaceId: string, name: string, config: JsonValue, };

export type DashboardPatch = { name?: string, config?: JsonValue, };

export type PublicDashboardBody = { dashboard: PublicDashboard, boards: Array<PublicBoard>, members: Array<PublicMember>, };

export type PublicDashboard = { id: string, name: string, config: JsonValue, };

export type PublicBoard = { board: PublicBoardHeader, items: Array<FullItem>, };

export type PublicBoardHeader = { id: string, name: string, columns: Array<Column>, groups: Array<Group>, };

export type PublicMember = { id: string, name: string, };

export type Status = "queued" | "starting" | "running" | "waiting_for_input" | "finished" | "failed" | "stopped" | "interrupted" | "paused";

export type Session = { id: string, accountId: string, engine: string, engineKind: string, 
/**
 * The version its engine's `--version` printed (`2.1.330` for Claude
 * Code, `0.169.0` for Codex), read once per binary; `None` until read,
 * when it cannot be read, and for `command` engines.
 */
engineVersion: string | null, title: string | null, 
/**
 * Whose the title is: `user` (typed at spawn or with `PATCH`, never
 * replaced) or `ai` (the utility model's); `None` while untitled.
 */
titleSource: TitleSource | null, 
/**
 * The AI titles this one replaced, oldest first.
 */
titleHistory: Array<string>, cwd: string, prompt: string, status: Status, archived: boolean, 
/**
 * When it was archived; `null` while it is not.
 */
archivedAt: string | null, 
/**
 * Where its engine runs, for life: `local` or a runner named in
 * `runners.toml` (docs/runners.md).
 */
runner: string, 
/**
 * Started by a session on a runner (`cloudStartedSessionsEnabled`):
 * queued until the user approves it from its inbox card.
 */
awaitingApproval: boolean, 
/**
 * What its process tree used, from its cgroup (docs/resources.md):
 * on `GET /sessions/{id}`, for a session run here while cgroups are
 * in force; `null` otherwise.
 */
resources: SessionResources | null, agentDriven: boolean, 
/**
 * The session that spawned this one: the agent token's own session, or
 * the live session `X-App-Source-Session-Id` named.
 */
parentId: string | null, 
/**
 * The session whose conversation this one continued as a copy (`forkFrom`).
 */
forkedFrom: string | null, 
/**
 * The sessions this one spawned (direct children only), oldest first.
 */
children: Array<string>, 
/**
 * Turns run so far (the first prompt is turn 1).
 */
turns: number, 
/**
 * How its latest turn ended, while it waits for input: `asked` (it
 * asked the user something: "Needs you") or `done` (it did its work:
 * answerable, nobody is waited on), as the attention rule read the
 * turn (docs/sessions.md, "Needs you"); `null` in any other status and
 * until the rule has read the turn.
 */
turnEnd: TurnEnd | null, 
/**
 * Turns the engine itself reports (Claude's `num_turns`, summed).
 */
engineTurns: number, 
/**
 * What the engine conversation cost so far, as the engine reported it
 * (Claude Code's total is cumulative across `--resume`: taken, not
 * added); `None` until an engine reports a cost (Codex and `command`
 * engines never do).
 */
costUsd: number | null, 
/**
 * The session's and all its descendants' cost; `None` when none of them reported one.
 */
treeCostUsd: number | null, 
/**
 * Summed over the session's turns; zero while no engine reported any.
 */
tokens: Tokens, engineSessionId: string | null, 
/**
 * When a queued session starts (or started); `None` for the user's own sessions.
 */
startsAt: string | null, 
/**
 * When an interrupted session resumes by itself (a usage limit's reset),
 * when that is known.
 */
resumeAt: string | null, 
/**
 * The last failure's message, as the engine gave it.
 */
error: string | null, 
/**
 * Follow-ups accepted and not yet started.
 */
pendingMessages: number, 
/**
 * The ceilings in force when the session was spawned: stored and shown;
 * this crate never enforces them (the application stops a recipe run's
 * session at its dollar ceiling, docs/automations.md).
 */
maxDollarsPerSession: number, maxTurnsPerSession: number, createdAt: string, updatedAt: string, 
/**
 * The git worktree the session runs in, when it was spawned with `isolation: worktree`.
 */
worktree: Worktree | null, 
/**
 * Why the session is not working now; `None` while it is.
 */
stopReason: StopReason | null, 
/**
 * What it is doing now (or did last), from its transcript's entries.
 */
activity: Activity | null, 
/**
 * What started it from outside, when not a person or a script: `email`
 * sessions run read-only whatever the level and may not spawn or write
 * settings, boards or dashboards; `messenger` (a chat with the bot) and
 * `bug_intake` (a bug report's triage) run as any agent-driven session.
 */
trigger: Trigger | null, 
/**
 * The project it belongs to: `ask` for a conversation with the Ask
 * tutor (kept off the agent board), `null` for every other session.
 */
project: string | null, 
/**
 * The permission level its starter pinned at spawn (a recipe's
 * `permissionLevel`): `read_only`, `guarded`, `autonomous` or `full`,
 * in force for its whole life whatever `agentPermissionLevel` says;
 * `null`: its engine's own level, else `agentPermissionLevel`. An
 * `email` session is read-only whatever this says.
 */
permissionLevel: Level | null, };

export type TitleSource = "user" | "ai";

export type Worktree = { path: string, 
/**
 * `switchboard/<short id>`; it stays after the worktree is removed.
 */
branch: string, 
/**
 * The commit the branch started from (the repository's `HEAD` at spawn).
 */
base: string, 
/**
 * The root of the checkout the session was asked to run in.
 */
repository: string, 
/**
 * True once archiving removed the folder (it had no uncommitted changes).
 */
removed: boolean, 
/**
 * Why archiving kept the folder (uncommitted changes, or git refused); `null` when removed or not yet archived.
 */
keptReason: string | null, };

export type Isolation = "worktree";

export type SpawnRequest = { 
/**
 * Defaults to `primary`.
 */
engine?: string, prompt: string, cwd?: string, title?: string, 
/**
 * Absent: the session runs in `cwd` itself.
 */
isolation?: Isolation, 
/**
 * `email`: the session is locked down (cli token or the user only).
 * The other triggers are the application's own: a request that names
 * one is refused.
 */
trigger?: Trigger, 
/**
 * A session of the caller's to fork: the new session starts with a
 * copy of that session's engine conversation (which stays as it was),
 * on its engine and in its folder (its repository, isolated again,
 * when it ran in a worktree) unless `engine`, `cwd` or `isolation` say
 * otherwise. The engine must be of the source's kind.
 */
forkFrom?: string, 
/**
 * `local`, a runner of `runners.toml`, or `auto` (the connected runner
 * with room and the most memory free). Defaults to `local`.
 */
runner?: string, };

export type Transcript = { sessionId: string, turns: Array<Turn>, events: Array<StatusEvent>, };

export type Turn = { turn: number, 
/**
 * `prompt` (the first), `message` (a follow-up) or `nudge` (crash recovery).
 */
kind: string, 
/**
 * What the caller sent.
 */
input: string, 
/**
 * What Switchboard put in front of it (the composed prompt presets); `None` when nothing.
 */
added: string | null, 
/**
 * The reply as it streams (for `command` engines, stdout verbatim).
 */
output: string, stderr: string, 
/**
 * `running`, `done`, `failed` or `stopped`.
 */
status: string, error: string | null, exitCode: number | null, engineSessionId: string | null, 
/**
 * What this turn itself spent: how much its conversation's reported
 * total grew (the whole total when it started a new conversation).
 */
costUsd: number | null, startedAt: string, endedAt: string | null, };

export type StatusEvent = { at: string, from: Status | null, to: Status, reason: string, };

export type EngineInfo = { name: string, kind: string, command: Array<string>, 
/**
 * Whether a session may be forked on it (`forkFrom`): `claude` and
 * `codex` can copy a conversation, `command` engines have none.
 */
canFork: boolean, 
/**
 * How to show it, when its name and kind would mislead: the built-in
 * demo engine is kind `claude` but runs no model.
 */
label?: string, };

export type Tokens = { input: number, output: number, cachedInput: number, };

export type Usage = { days: Array<UsageDay>, };

export type StopReason = "finished" | "waiting_for_user" | "stopped" | "closed" | "failed" | "interrupted";

export type Entry = { 
/**
 * The entry's place in the session's transcript: it only grows.
 */
seq: number, turn: number, 
/**
 * When the entry was stored (RFC 3339, UTC); `null` for entries stored
 * before entries had times.
 */
at: string | null, } & ({ "kind": "input", text: string, source: InputSource, } | { "kind": "stdout", text: string, } | { "kind": "stderr", text: string, } | { "kind": "text", text: string, } | { "kind": "thinking", text: string, } | { "kind": "tool_call", toolId: string | null, name: string, input: JsonValue, } | { "kind": "tool_result", toolId: string | null, output: string, isError: boolean, } | { "kind": "todo", items: Array<TodoItem>, } | { "kind": "error", message: string, } | { "kind": "final", text: string, } | { "kind": "permission", tool: string, target: string | null, level: string, rule: string, decision: string, } | { "kind": "notice", text: string, 
/**
 * Who wrote it; entries stored before engines had notices read as
 * Switchboard's.
 */
source: NoticeSource, });

export type EntryBody = { "kind": "input", text: string, source: InputSource, } | { "kind": "stdout", text: string, } | { "kind": "stderr", text: string, } | { "kind": "text", text: string, } | { "kind": "thinking", text: string, } | { "kind": "tool_call", toolId: string | null, name: string, input: JsonValue, } | { "kind": "tool_result", toolId: string | null, output: string, isError: boolean, } | { "kind": "todo", items: Array<TodoItem>, } | { "kind": "error", message: string, } | { "kind": "final", text: string, } | { "kind": "permission", tool: string, target: string | null, level: string, rule: string, decision: string, } | { "kind": "notice", text: string, 
/**
 * Who wrote it; entries stored before engines had notices read as
 * Switchboard's.
 */
source: NoticeSource, };

export type EntryPage = { entries: Array<Entry>, 
/**
 * Whether entries exist beyond this page in the direction read: with
 * `after` (the default), later ones (ask again with `after` = the last
 * `seq`); with `before` or `tail=true`, earlier ones (ask again with
 * `before` = the first `seq`).
 */
more: boolean, };

export type InputSource = "prompt" | "message" | "nudge";

export type NoticeSource = "switchboard" | "engine";

export type TodoItem = { text: string, status: TodoStatus, };

export type TodoStatus = "pending" | "in_progress" | "completed";

export type Activity = { kind: ActivityKind, 
/**
 * The to-do item, the file, the command or the tool, shortened for one line.
 */
text: string, at: string, };

export type ActivityKind = "todo" | "thinking" | "writing" | "reading" | "editing" | "running" | "searching" | "tool";

export type UsageDay = { 
/**
 * `YYYY-MM-DD`, UTC.
 */
date: string, 
/**
 * The engine's name in `engines.toml`.
 */
engine: string, 
/**
 * Sessions with at least one turn ending that day.
 */
sessions: number, turns: number, 
/**
 * `None` when no turn of that day and engine reported a price (Codex never does).
 */
costUsd: number | null, tokens: Tokens, };

export type Trigger = "email" | "messenger" | "bug_intake" | "ask";

export type TurnEnd = "asked" | "done";

export type SessionChanges = { 
/**
 * The commit the worktree started from (the session's `worktree.base`).
 */
base: string, 
/**
 * By path.
 */
files: Array<ChangedFile>, };

export type ChangedFile = { 
/**
 * Relative to the worktree's root, `/`-separated.
 */
path: string, status: ChangeStatus, 
/**
 * Lines added and removed; both 0 for a binary file.
 */
additions: number, deletions: number, 
/**
 * Where a renamed file was; `null` otherwise.
 */
oldPath: string | null, binary: boolean, };

export type ChangeStatus = "added" | "modified" | "deleted" | "renamed";

export type ChangedFileDiff = { path: string, 
/**
 * `git diff` output against the base (an untracked file against nothing).
 */
diff: string, 
/**
 * The diff was longer than 1 MiB and stops at the last whole line before it.
 */
truncated: boolean, };

export type Approval = { id: string, sessionId: string, tool: string, target: string | null, 
/**
 * The tool's input as the engine sent it (an `ExitPlanMode` call's `plan`).
 */
input: unknown, 
/**
 * Why it asks.
 */
reason: string, rule: string, state: ApprovalState, remember: Remember | null, createdAt: string, decidedAt: string | null, };

export type ApprovalState = "pending" | "allowed" | "denied" | "expired";

export type Remember = "once" | "session";

export type PermissionRecord = { id: number, tool: string, target: string | null, level: string, rule: string, 
/**
 * `allow` or `deny`: what the engine was told.
 */
decision: string, approvalId: string | null, at: string, };

export type Level = "read_only" | "guarded" | "autonomous" | "full";

export type Verdict = "allow" | "deny" | "ask";

export type Check = { at: string, 
/**
 * Sessions queued, starting or running when the check began.
 */
running: number, target: number, 
/**
 * Dormant sessions the check looked at.
 */
candidates: number, revived: Array<string>, skipped: Array<Skipped>, 
/**
 * What revived turns cost since local midnight, before this check.
 */
spentTodayUsd: number, };

export type Skipped = { id: string, reason: SkipReason, };

export type SkipReason = "paused" | "closed" | "recovering" | "too_old" | "cooldown" | "daily_limit" | "spend_cap" | "target_reached";

export type DoctorReport = { 
/**
 * Whether a session could start: an engine is found, and the sandbox
 * can confine it or the engine may run unconfined.
 */
canStart: boolean, 
/**
 * Why no session could start; empty when one can.
 */
blockers: Array<string>, 
/**
 * What works but deserves a look (an uncovered version, loose
 * permissions, a port another program holds).
 */
warnings: Array<string>, enginesFile: EnginesFile, 
/**
 * The engines in force, by name.
 */
engines: Array<Engine>, sandbox: Sandbox, ports: Ports, dataDir: DataDir, 
/**
 * The runners `runners.toml` declares (not `local`: the rest of the
 * report is this machine's), each as reached just now: `connected`
 * with its engines, their versions and its sandbox there, else
 * `unreachable` (ssh's own message) or `invalid` (the file's line and
 * column). A runner that cannot be used is a warning, never a blocker.
 * Empty, and nothing reached, without the file.
 */
runners: Array<Runner>, 
/**
 * How session trees share this machine: the mode and why.
 */
resources: DoctorResources, };

export type Runner = { name: string, kind: RunnerKind, state: RunnerState, 
/**
 * Why it is not connected (ssh's own message, the file's line and
 * column); `null` when it is.
 */
reason: string | null, 
/**
 * Running sessions placed on it.
 */
sessions: number, 
/**
 * `max_sessions` from `runners.toml`; `null` for no limit.
 */
maxSessions: number | null, 
/**
 * The host's one-minute load average, when last seen.
 */
load: number | null, memory: Memory | null, engines: Array<RunnerEngine>, 
/**
 * How engines are confined there: `namespaces`, `landlock` or
 * `unavailable`; `null` until reached.
 */
sandbox: string | null, 
/**
 * The helper's version on that host.
 */
switchboardVersion: string | null, labels: Array<string>, 
/**
 * The `ssh` destination; `null` for `local`.
 */
destination: string | null, 
/**
 * When it was last reached (RFC 3339); `null` when never.
 */
lastSeen: string | null, };

export type RunnerKind = "local" | "ssh" | "pool";

export type RunnerState = "connected" | "connecting" | "unreachable" | "invalid";

export type Memory = { totalMb: number, availableMb: number, };

export type RunnerEngine = { name: string, 
/**
 * What `<program> --version` printed there; `null` when the program
 * is missing or said nothing.
 */
version: string | null, };

export type EnginesFile = { path: string, 
/**
 * Without it, the engines are `claude` (as `primary`) and `codex` (as
 * `second`), each where it is found on PATH.
 */
present: boolean, 
/**
 * Why it cannot be read; then no engine is in force.
 */
error: string | null, };

export type Engine = { name: string, 
/**
 * `claude`, `codex` or `command`.
 */
kind: string, 
/**
 * The program and the arguments every turn starts with.
 */
command: Array<string>, 
/**
 * Where the program is (searched on the engine's `PATH`, else the
 * server's); `null` when it is not found.
 */
path: string | null, 
/**
 * Whether that file may be executed.
 */
executable: boolean, 
/**
 * What `<program> --version` printed; `null` for `command` engines and
 * when it could not be read.
 */
version: string | null, 
/**
 * The version the conformance suite covers for this kind.
 */
coveredVersion: string | null, coverage: Coverage, unsafeAllowUnsandboxed: boolean, 
/**
 * Why a session on this engine could not start.
 */
blockers: Array<string>, 
/**
 * What deserves a look before starting one.
 */
warnings: Array<string>, };

export type Coverage = "covered" | "not_covered" | "unknown" | "not_applicable";

export type Sandbox = { mode: SandboxMode, 
/**
 * The kernel's Landlock ABI (0 or less: none).
 */
landlockAbi: number, 
/**
 * Whether an unprivileged user namespace with mounts could be made.
 */
userNamespaces: boolean, 
/**
 * What the kernel said when it refused one.
 */
userNamespacesError: string | null, 
/**
 * Whether locked-down (email-triggered) sessions can be kept off the
 * network (Landlock ABI 4).
 */
networkControl: boolean, 
/**
 * Why the policy that hides the data directory could not be prepared;
 * `null` when it can, so engines run confined.
 */
error: string | null, };

export type SandboxMode = "namespaces" | "landlock" | "unavailable";

export type Ports = { 
/**
 * The process serving this data directory; `null` when none runs.
 */
serverPid: number | null, control: Port, ui: Port, 
/**
 * The pid of a server that left `server.json` behind and no longer
 * runs (it did not shut down cleanly).
 */
staleServerPid: number | null, };

export type Port = { 
/**
 * `null` when the listener is off.
 */
port: number | null, state: PortState, };

export type PortState = "switchboard" | "free" | "in_use" | "off";

export type DataDir = { path: string, 
/**
 * `false` until the first `switchboard serve` creates it.
 */
exists: boolean, 
/**
 * Its mode, as `0700`.
 */
mode: string | null, 
/**
 * Owned by this user and closed to everyone else.
 */
ownerOnly: boolean | null, files: Array<DataFile>, };

export type DataFile = { name: string, present: boolean, mode: string | null, ownerOnly: boolean | null, };

export type DoctorResources = { mode: ResourceMode, 
/**
 * What was found, or why no cgroup can be used.
 */
why: string, 
/**
 * Controllers not available here: the settings that need them
 * (`cpu`: the CPU cap; `pids`: the process ceiling; `io`: low disk
 * priority; `cpuset`: the reserved core) do nothing.
 */
unavailable: Array<string>, 
/**
 * Whether `keepAwakeWhileSessionsRunning` can hold this machine awake:
 * a logind on the system bus to take a sleep inhibitor from.
 */
keepAwake: DoctorKeepAwake, };

export type DoctorKeepAwake = { available: boolean, 
/**
 * Where the inhibitor comes from, or why none can be taken.
 */
why: string, };

export type ResourceMode = "cgroup-v2" | "cgroup-v1" | "nice";

export type SessionResources = { cpuSeconds: number, peakMemoryMb: number, processes: number, readBytes: number, writtenBytes: number, };

export type InputRequest = { id: string, sessionId: string, 
/**
 * The variable's name, as written in the file.
 */
name: string, prompt: string, 
/**
 * The dotenv file the value goes to (absolute).
 */
file: string, state: RequestState, createdAt: string, expiresAt: string, answeredAt: string | null, };

export type RequestState = "pending" | "saved" | "declined" | "expired";

export type KeyProposal = { id: string, sessionId: string, name: string, state: ProposalState, createdAt: string, decidedAt: string | null, };

export type ProposalState = "pending" | "saved" | "discarded";

export type Reviewed = { 
/**
 * Absent once the proposal is decided: the value is dropped then.
 */
value: string | null, id: string, sessionId: string, name: string, state: ProposalState, createdAt: string, decidedAt: string | null, };

export type SavedKey = { name: string, createdAt: string, updatedAt: string, };

export type NewInputRequest = { name: string, prompt: string, 
/**
 * The dotenv file, relative to the session's folder (`.env` when absent).
 */
file?: string, sessionId?: string, };

export type InputAnswer = { value?: string, key?: string, remember?: boolean, decline?: boolean, };

export type NewKeyProposal = { name: string, value: string, sessionId?: string, };

export type KeyDecision = { decision: KeyDecisionKind, name?: string, value?: string, };

export type KeyDecisionKind = "save" | "discard";

export type KeyValue = { value: string, };

export type NavigateEvent = { 
/**
 * The web app's address for the view.
 */
path: string, 
/**
 * Switch at once (`allowAgentDirectNavigation`), or offer a click-to-go toast.
 */
direct: boolean, 
/**
 * Who asks: the session's title (or id), or "a script".
 */
from: string, sessionId: string | null, };

export type ForegroundEvent = { reason: string, from: string, sessionId: string | null, };

export type NavigationView = "boards" | "board" | "dashboard" | "inbox" | "sessions" | "session" | "settings";

export type Delivery = "toast" | "navigated" | "notification" | "already_in_front" | "inbox";

export type Artifact = { id: string, kind: ArtifactKind, title: string, 
/**
 * The interview session it came from.
 */
sessionId: string | null, createdAt: string, updatedAt: string, 
/**
 * The write-up (Markdown); left out of lists.
 */
body?: string, };

export type ArtifactKind = "weekly_report" | "interview";

export type Weekly = { 
/**
 * The window, as stored timestamps: the last seven days up to now.
 */
from: string, to: string, sessions: number, turns: number, 
/**
 * Turns the watchdog restarted (stalls and loops).
 */
stalls: number, 
/**
 * Sessions that ended failed, and turns that failed.
 */
failedSessions: number, failedTurns: number, 
/**
 * `None` when no engine reported a dollar cost.
 */
costUsd: number | null, followUpsPerSession: number, 
/**
 * The folders with the most sessions, most first: `(folder, sessions)`.
 */
topFolders: Array<[string, number]>, 
/**
 * The report as Markdown, for reading as is.
 */
markdown: string, };

export type Bookmark = { id: string, title: string, kind: BookmarkKind, 
/**
 * A `url` bookmark's address.
 */
url: string | null, 
/**
 * A `session` bookmark's recipe; the engine and folder default as a spawn's do.
 */
engine: string | null, cwd: string | null, prompt: string | null, 
/**
 * Its place in the account's order, from 0.
 */
position: number, createdAt: string, updatedAt: string, };

export type BookmarkKind = "url" | "session";

export type TeamPerson = { id: string, name: string, 
/**
 * An IANA zone name, such as `Europe/Berlin`.
 */
zone: string, 
/**
 * When their working day starts, in minutes after their local midnight.
 */
startMinute: number, 
/**
 * When it ends (after `startMinute`, at most 1440).
 */
endMinute: number, 
/**
 * The ISO weekdays they work, 1 (Monday) to 7 (Sunday), ascending.
 */
workdays: Array<number>, 
/**
 * Set for a workspace member: their account; such a person is always
 * listed and takes their name from the account.
 */
memberAccountId: string | null, createdAt: string, updatedAt: string, };

export type TeamPersonFields = { name?: string, zone?: string, startMinute?: number, endMinute?: number, workdays?: Array<number>, };

export type MeetingRoom = { id: string, name: string, url: string, provider: MeetingRoomProvider, createdAt: string, updatedAt: string, };

export type MeetingRoomFields = { name?: string, 
/**
 * The room's http(s) link.
 */
url?: string, 
/**
 * Make a new Jitsi room (`https://meet.jit.si/<random>`) instead of `url`.
 */
jitsi?: boolean, };

export type MeetingRoomProvider = "jitsi" | "meet" | "zoom" | "other";

export type Feed = { id: string, 
/**
 * The feed's own title, else its URL.
 */
title: string, url: string, siteUrl: string | null, status: FeedStatus, 
/**
 * Why the last poll failed, while it is failing.
 */
failure: string | null, 
/**
 * When the feed last answered (200 or 304).
 */
lastFetchedAt: string | null, 
/**
 * When it is polled next.
 */
nextPollAt: string, unread: number, };

export type FeedStatus = "pending" | "ok" | "failing";

export type FeedEntry = { id: number, feedId: string, feedTitle: string, title: string, 
/**
 * The original article.
 */
link: string | null, author: string | null, publishedAt: string | null, 
/**
 * Plain text, at most 280 characters.
 */
summary: string, 
/**
 * Sanitized HTML: no script, frame or form; each remote image's URL in
 * `data-blocked-src`/`data-blocked-srcset`, to rename when the reader
 * asks to load images.
 */
content: string, remoteImages: number, read: boolean, starred: boolean, fetchedAt: string, };

export type FeedEntryPage = { entries: Array<FeedEntry>, next: string | null, };

export type NewFeed = { url: string, };

export type OpmlImport = { opml: string, };

export type OpmlImported = { added: number, skipped: number, };

export type MarkedRead = { marked: number, };

export type VapidPublicKey = { 
/**
 * The uncompressed P-256 point, base64url without padding.
 */
key: string, };

export type PushSubscription = { id: string, name: string, 
/**
 * The push service's origin, e.g. `https://fcm.googleapis.com`.
 */
service: string, createdAt: string, lastDeliveredAt: string | null, 
/**
 * Why the last push failed, until one succeeds.
 */
lastFailure: string | null, 
/**
 * This device also gets each daily briefing, as the user chose on it.
 */
dailyBriefing: boolean, };

export type NewPushSubscription = { endpoint: string, keys: PushSubscriptionKeys, name: string, };

export type PushSubscriptionChoice = { dailyBriefing: boolean, };

export type DiagnosticReport = { id: string, kind: DiagnosticKind, subject: string, body: string, createdAt: string, 
/**
 * When it was sent; `null` while it waits (sending off, no address,
 * or the mail server refused: `lastFailure` says why).
 */
sentAt: string | null, lastFailure: string | null, };

export type AttachDriveFile = { 
/**
 * The drive's id (`main`, `filesync-a`, `filesync-b`).
 */
drive: string, 
/**
 * The file's path from the drive's root.
 */
path: string, };

export type PublishMessage = { 
/**
 * The message's first line (its heading marks dropped) when absent.
 */
title?: string, driveId?: string, folder?: string, };

export type MessagePublication = { seq: number, url: string, path: string, publishedAt: string, };

export type SaveToDrive = { 
/**
 * A path inside the session's folder.
 */
file: string, drive: string, 
/**
 * Where on the drive, from its root.
 */
path: string, 
/**
 * Replace a file already there (else 409).
 */
overwrite: boolean, };

export type AttachedFile = { 
/**
 * The file's name in the session's folder (numbered when the drive
 * file's own name was taken).
 */
path: string, size: number, };

export type DiagnosticKind = "feedback" | "crash" | "digest";

export type PushSubscriptionKeys = { 
/**
 * The device's P-256 public key, base64url.
 */
p256dh: string, 
/**
 * The 16-byte authentication secret, base64url.
 */
auth: string, };

export type PushOutcome = { "state": "delivered" } | { "state": "retrying", status: number | null, at: string, } | { "state": "gone" } | { "state": "failed", status: number | null, reason: string, };

export type PushPayload = { title: string, body: string, 
/**
 * The page a click opens (a path on this server).
 */
url: string, 
/**
 * A device shows one notification per tag: a newer push replaces it.
 */
tag: string, };

export type DeviceLoad = { 
/**
 * The device's random id, kept in its `localStorage`.
 */
device: string, stage: LoadStage, };

export type LoadStage = "started" | "finished";

export type SmsMessage = { id: string, 
/**
 * The other side's number (or a business's sender name).
 */
number: string, direction: SmsDirection, text: string, state: SmsDeliveryState, 
/**
 * Why an outgoing text failed.
 */
failure: string | null, 
/**
 * Held in Spam by `spamFilterSmsEnabled`.
 */
spam: boolean, createdAt: string, };

export type SmsThread = { number: string, 
/**
 * The saved contact's name.
 */
name: string | null, spam: boolean, lastAt: string, lastText: string, count: number, unread: number, };

export type SmsDirection = "in" | "out";

export type SmsDeliveryState = "received" | "pending" | "sent" | "delivered" | "failed";

export type SendSms = { to: string, text: string, };

export type SmsContact = { name: string, };

export type MatrixRoom = { id: string, 
/**
 * `m.room.name`, else the room id.
 */
name: string, lastAt: string, lastText: string | null, };

export type MatrixMessage = { eventId: string, roomId: string, sender: string, body: string, sentAt: string, 
/**
 * Sent by this account (from here or another of its devices).
 */
own: boolean, };

export type NewMatrixMessage = { text: string, };

export type DriveAccount = { 
/**
 * The slot's id: `main`, `filesync-a` or `filesync-b`.
 */
id: string, slot: DriveSlot, kind: string, name: string, url: string, username: string, status: DriveStatus, failure: string | null, };

export type DriveSlot = "main" | "filesync-a" | "filesync-b";

export type DriveStatus = "pending" | "ok" | "failing";

export type DriveEntry = { name: string, 
/**
 * From the drive's root: `/Reports/q1.xlsx`.
 */
path: string, 
/**
 * Bytes; 0 for a folder unless the server sums it.
 */
size: number, 
/**
 * RFC 3339, when the server says.
 */
modifiedAt: string | null, 
/**
 * Quoted, as in HTTP; what a conditional write names.
 */
etag: string | null, folder: boolean, };

export type NewDrive = { 
/**
 * `webdav`.
 */
kind: string, url: string, username: string, 
/**
 * Saved as a sealed key; never returned.
 */
password: string, name: string | null, 
/**
 * The first free slot when absent.
 */
slot: DriveSlot | null, };

export type DriveMove = { from: string, to: string, 
/**
 * Replace what is at `to` (otherwise a conflict when something is).
 */
overwrite: boolean, };

export type NewDriveFolder = { path: string, };

export type SheetFormat = "xlsx" | "ods" | "csv";

export type SheetCellValue = number | string | boolean;

export type SheetCell = { 
/**
 * `null` for an empty cell.
 */
value: SheetCellValue | null, 
/**
 * The formula without its leading `=`, when the cell has one.
 */
formula?: string, };

export type SheetInfo = { name: string, 
/**
 * Rows up to the last used one (from the sheet's own dimension record
 * in `.xlsx`, which a writer may leave out: then 0 until paged).
 */
rows: number, columns: number, };

export type SheetRowsPage = { sheet: string, 
/**
 * The 0-based index of `rows[0]`.
 */
offset: number, 
/**
 * `rows[i]` is row `offset + i`, its cells from column 0 to its last
 * non-empty one (an empty row is `[]`).
 */
rows: Array<Array<SheetCell>>, 
/**
 * The offset of the next page, `null` after the last row.
 */
next: number | null, };

export type SheetCellEdit = { row: number, column: number, value: SheetCellValue | null, };

export type SheetsBook = { sheets: Array<SheetInfo>, etag: string | null, format: SheetFormat, 
/**
 * 0-based; empty when the spreadsheet is not in `trustedSheets` (or
 * its format is read-only).
 */
editableColumns: Array<number>, };

export type SheetCellsPatch = { driveId: string, path: string, sheet: string, 
/**
 * The ETag `GET /sheets` gave; a file changed since → 409.
 */
etag: string, cells: Array<SheetCellEdit>, };

export type SheetCellsSaved = { etag: string | null, };

export type SheetImport = { 
/**
 * The column whose text names each item.
 */
nameColumn: number, 
/**
 * Rows before the data (the header); their first row titles unmapped
 * columns' defaults. Usually 1.
 */
headerRows: number, columns: Array<ColumnMapping>, };

export type ColumnMapping = { 
/**
 * 0-based sheet column.
 */
column: number, 
/**
 * The board column's title; the header cell's text when left out.
 */
title?: string, type: ColumnType, };

export type BoardSheetImport = { driveId: string, path: string, 
/**
 * The sheet's name (`Sheet1` for a `.csv`).
 */
sheet: string, workspaceId: string, 
/**
 * The new board's name.
 */
name: string, 
/**
 * The column whose text names each item.
 */
nameColumn: number, 
/**
 * Rows before the data (the header); their first row titles unmapped
 * columns' defaults. Usually 1.
 */
headerRows: number, columns: Array<ColumnMapping>, };

export type BoardSheetImported = { boardId: string, items: number, 
/**
 * `C7: "soon" is not a date (YYYY-MM-DD)`, one per skipped cell.
 */
skipped: Array<string>, };

export type PublishRequest = { markdown: string, title: string, 
/**
 * `main` when absent.
 */
driveId?: string, 
/**
 * The folder on the drive; `docsDestFolderId` when absent, else `/`.
 */
folder?: string, };

export type Published = { url: string, path: string, };

export type WorkEntry = { 
/**
 * Stable for the account, repository and branch.
 */
id: string, 
/**
 * The latest session on it.
 */
sessionId: string, 
/**
 * Every session on it, newest first.
 */
sessions: Array<string>, 
/**
 * What a person calls it: the title of the session that started it
 * (else of the oldest one that has one).
 */
title: string | null, repository: string, branch: string, state: WorkState, 
/**
 * Why it is in that state, where that says more than the state.
 */
reason: string | null, 
/**
 * Where it was worked on (a session's worktree or a plain folder),
 * while that still exists.
 */
checkout: string | null, 
/**
 * The default branch it is compared against.
 */
defaultBranch: string | null, 
/**
 * Commits not in the default branch, and the default branch's commits
 * not in it.
 */
ahead: number, behind: number, 
/**
 * Commits since the work started.
 */
commits: number, 
/**
 * Of those, the ones no remote has.
 */
unpushed: number, landedBy: WorkLanding | null, lastCommit: WorkCommit | null, uncommitted: WorkUncommitted | null, 
/**
 * The remote branch it was pushed to.
 */
upstream: string | null, 
/**
 * When its last session ended (RFC 3339); `null` while one runs.
 */
since: string | null, actions: Array<WorkAction>, 
/**
 * The newest review of each reviewer (`cloudSessionReviewsEnabled`).
 */
reviews: Array<WorkReview>, 
/**
 * Its pull request, as the code host last said.
 */
pullRequest: PullRequest | null, 
/**
 * The code host its pull request was last looked up on (one
 * configured with a token).
 */
codeHost: string | null, 
/**
 * Where a pull request of it is opened: the code host its remote is
 * on (`codehosts.toml`, or github.com and gitlab.com), by name, or the
 * GitHub or GitLab its remote's address names. `null` when it has no
 * upstream or its remote is on no such host: then `pull-request` is
 * never among its actions.
 */
pullRequestHost: string | null, 
/**
 * The runner its checkout is on; `null` on this machine. Work on a
 * runner is read there through its helper, and acted on there.
 */
runner: string | null, 
/**
 * Set only when the facts could not be read now (its runner away):
 * when they last were (RFC 3339).
 */
lastRead: string | null, };

export type WorkState = "in_progress" | "stranded" | "waiting_on_review" | "landed" | "turned_down" | "unknown";

export type WorkAction = "open" | "diff" | "continue" | "push" | "pull-request" | "prune" | "discard";

export type WorkLanding = "merge" | "rebase" | "squash";

export type WorkCommit = { sha: string, subject: string, at: string, };

export type WorkUncommitted = { files: number, 
/**
 * Changed lines (added and removed; an untracked file's all count).
 */
lines: number, };

export type WorkReview = { 
/**
 * The reviewer engine's name in `engines.toml`.
 */
reviewer: string, 
/**
 * The commit reviewed.
 */
head: string, 
/**
 * When it was done (RFC 3339).
 */
at: string, findings: Array<ReviewFinding>, 
/**
 * Why the review could not be done (the reviewer failed or answered
 * nothing usable); `findings` is empty then.
 */
error: string | null, };

export type ReviewFinding = { file: string, 
/**
 * The line in the new version of the file, when the finding has one.
 */
line: number | null, severity: ReviewSeverity, text: string, };

export type ReviewSeverity = "high" | "medium" | "low";

export type Recipe = { id: string, 
/**
 * Unique in the account (letter case aside).
 */
name: string, engine: string, 
/**
 * May hold `{{name}}` placeholders, filled at each run.
 */
prompt: string, 
/**
 * The placeholders the prompt names, in order of first use.
 */
placeholders: Array<string>, 
/**
 * The folder the session starts in (absolute).
 */
cwd: string, isolation: RecipeIsolation | null, 
/**
 * The pool runner to start on; `null`: this machine.
 */
runner: string | null, 
/**
 * One of `read_only`, `guarded`, `autonomous`, `full`: the level each
 * run's session runs at for its whole life (for a run an agent had a
 * hand in, no higher than `agentPermissionLevel`); `null`: the
 * account's `agentPermissionLevel`.
 */
permissionLevel: string | null, 
/**
 * The most one run may spend, in US dollars (with
 * `agentDrivenMaxDollarsPerSession` set, the smaller of the two); a run
 * whose session reaches it is stopped and ends `incomplete`. `null`: no cap.
 */
spendCapUsd: number | null, 
/**
 * Made with an agent's token: its runs never get a level above
 * `agentPermissionLevel`. Only the user makes recipes today, so it is
 * `false` on every recipe the API made.
 */
createdByAgent: boolean, createdAt: string, updatedAt: string, };

export type RecipeFields = { name: string, engine: string, prompt: string, cwd: string, isolation?: RecipeIsolation, runner?: string, permissionLevel?: string, spendCapUsd?: number, };

export type RecipeIsolation = "worktree";

export type RecipeRun = { id: string, recipeId: string, 
/**
 * The schedule that started it; `null`: by hand (or the schedule is gone).
 */
scheduleId: string | null, 
/**
 * The tick it stands for (RFC 3339, UTC), for a scheduled run.
 */
scheduledFor: string | null, 
/**
 * It stands for ticks missed while the server was down.
 */
catchUp: boolean, 
/**
 * Its session, once one was started.
 */
sessionId: string | null, state: RecipeRunState, 
/**
 * Why it failed, stalled or ended incomplete.
 */
reason: string | null, 
/**
 * The most its session may spend, in US dollars, as fixed when the
 * session started; `null`: no cap (or no session yet).
 */
spendCapUsd: number | null, startedAt: string, endedAt: string | null, };

export type RecipeRunState = "started" | "failed" | "finished" | "stalled" | "incomplete";

export type RecipeSchedule = { id: string, recipeId: string, 
/**
 * The IANA zone the rule is read in.
 */
timeZone: string, missed: ScheduleMissed, state: ScheduleState, 
/**
 * Made with an agent's token (so it waited for approval).
 */
createdByAgent: boolean, 
/**
 * The values of the recipe prompt's placeholders for every run.
 */
values: { [key in string]: string }, 
/**
 * The next tick it waits for (RFC 3339, UTC); `null` unless active, or
 * once the rule has no more ticks.
 */
nextAt: string | null, 
/**
 * When it last started a run.
 */
lastRunAt: string | null, createdAt: string, updatedAt: string, } & ({ "cron": string } | { "rrule": string });

export type RecipeScheduleFields = { recipeId: string, 
/**
 * Five fields; give this or `rrule`.
 */
cron?: string, 
/**
 * An RFC 5545 RRULE (`FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0`),
 * optionally after a `DTSTART` line; give this or `cron`.
 */
rrule?: string, 
/**
 * An IANA zone such as `Europe/Berlin`.
 */
timeZone: string, 
/**
 * Default `run_once`.
 */
missed?: ScheduleMissed, 
/**
 * Values for the recipe prompt's placeholders.
 */
values?: { [key in string]: string }, };

export type ScheduleSpec = { "cron": string } | { "rrule": string };

export type ScheduleMissed = "run_once" | "skip";

export type ScheduleState = "active" | "pending" | "paused";

export type RecipeList = { recipes: Array<Recipe>, };

export type RecipeRunList = { runs: Array<RecipeRun>, };

export type RecipeScheduleList = { schedules: Array<RecipeSchedule>, };

export type RecipeRunRequest = { values?: { [key in string]: string }, };

export type RecipeRunStarted = { runId: string, sessionId: string, };

export type ScheduledMessage = { id: string, markdown: string, 
/**
 * Its first line without heading marks: the inbox row's title.
 */
title: string, lastDeliveredAt: string | null, 
/**
 * How many times it has been delivered.
 */
deliveries: number, 
/**
 * The agent session whose token made it; `null` for the user's own.
 */
createdBySession: string | null, createdAt: string, updatedAt: string, 
/**
 * A one-off's moment (RFC 3339, UTC); `null` for a recurring one (and
 * always for a drip, which repeats).
 */
at: string | null, 
/**
 * A five-field cron pattern.
 */
cron: string | null, 
/**
 * An RRULE, with the DTSTART line it was given or got.
 */
rrule: string | null, 
/**
 * The IANA zone the rule (or a local `at`) is read in.
 */
timeZone: string, state: CadenceState, 
/**
 * The next tick (RFC 3339, UTC); `null` unless active.
 */
nextAt: string | null, };

export type ScheduledMessageFields = { 
/**
 * The note, at most 10,000 characters; its first line is the title.
 */
markdown: string, 
/**
 * Once: RFC 3339 with an offset, or a local `YYYY-MM-DDTHH:MM` read in
 * `timeZone`.
 */
at?: string, 
/**
 * Recurring: five fields (minute hour day-of-month month day-of-week).
 */
cron?: string, 
/**
 * Recurring: an RFC 5545 RRULE (`FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0`),
 * optionally after a `DTSTART` line.
 */
rrule?: string, 
/**
 * An IANA zone such as `Europe/Berlin`; may be left out only with an
 * `at` that carries its offset.
 */
timeZone?: string, };

export type CadenceState = "active" | "paused" | "done";

export type Timing = { 
/**
 * A one-off's moment (RFC 3339, UTC); `null` for a recurring one (and
 * always for a drip, which repeats).
 */
at: string | null, 
/**
 * A five-field cron pattern.
 */
cron: string | null, 
/**
 * An RRULE, with the DTSTART line it was given or got.
 */
rrule: string | null, 
/**
 * The IANA zone the rule (or a local `at`) is read in.
 */
timeZone: string, state: CadenceState, 
/**
 * The next tick (RFC 3339, UTC); `null` unless active.
 */
nextAt: string | null, };

export type Drip = { id: string, name: string, 
/**
 * The folder its items are the files of; `null` when they are added
 * in the app.
 */
folder: string | null, lastReleasedAt: string | null, 
/**
 * Items released so far.
 */
released: number, 
/**
 * Items waiting, in order.
 */
remaining: number, 
/**
 * Nothing is left to release: its ticks release nothing until an item
 * is added (its first empty tick said so in the inbox).
 */
exhausted: boolean, 
/**
 * Ticks that released nothing because `dripGlobalPause` was on.
 */
skipped: number, 
/**
 * Why its folder cannot be read now, when it cannot.
 */
problem: string | null, createdAt: string, updatedAt: string, 
/**
 * A one-off's moment (RFC 3339, UTC); `null` for a recurring one (and
 * always for a drip, which repeats).
 */
at: string | null, 
/**
 * A five-field cron pattern.
 */
cron: string | null, 
/**
 * An RRULE, with the DTSTART line it was given or got.
 */
rrule: string | null, 
/**
 * The IANA zone the rule (or a local `at`) is read in.
 */
timeZone: string, state: CadenceState, 
/**
 * The next tick (RFC 3339, UTC); `null` unless active.
 */
nextAt: string | null, };

export type DripFields = { 
/**
 * 1 to 100 characters.
 */
name: string, 
/**
 * An absolute path to a folder whose `.md`, `.html` and `.txt` files
 * are the items, released in name order (numbers as numbers). Leave
 * it out to add items in the app (`POST /drips/{id}/items`).
 */
folder?: string, 
/**
 * Five fields (minute hour day-of-month month day-of-week); give this
 * or `rrule`.
 */
cron?: string, 
/**
 * An RFC 5545 RRULE, optionally after a `DTSTART` line; give this or
 * `cron`.
 */
rrule?: string, 
/**
 * An IANA zone such as `Europe/Berlin`.
 */
timeZone: string, };

export type DripItem = { id: string, 
/**
 * A folder item's file name; an app item's name.
 */
name: string, kind: DripItemKind, 
/**
 * When it went to the inbox; `null` while it waits.
 */
releasedAt: string | null, 
/**
 * Its place in the queue (1 is released next); `null` once released.
 */
position: number | null, createdAt: string, };

export type DripItemContent = { 
/**
 * As released, or (a folder item still waiting) as its file reads now.
 */
content: string, id: string, 
/**
 * A folder item's file name; an app item's name.
 */
name: string, kind: DripItemKind, 
/**
 * When it went to the inbox; `null` while it waits.
 */
releasedAt: string | null, 
/**
 * Its place in the queue (1 is released next); `null` once released.
 */
position: number | null, createdAt: string, };

export type DripItemKind = "markdown" | "html" | "text";

export type DripItemFields = { 
/**
 * 1 to 200 characters.
 */
name: string, 
/**
 * At most 256 KiB.
 */
content: string, 
/**
 * Default: the kind the name's extension names, else `markdown`.
 */
kind?: DripItemKind, };

export type ScheduledMessageList = { messages: Array<ScheduledMessage>, };

export type DripList = { drips: Array<Drip>, };

export type DripItemList = { items: Array<DripItem>, };

export type FocusState = { on: boolean, 
/**
 * When it was turned on; `null` while off.
 */
since: string | null, by: FocusBy | null, };

export type FocusBy = "user" | "pomodoro";

export type FocusEvent = { 
/**
 * Set when focus mode just went off.
 */
released: Released | null, on: boolean, 
/**
 * When it was turned on; `null` while off.
 */
since: string | null, by: FocusBy | null, };

export type Released = { since: string, 
/**
 * Unread rows that need the user, arrived while focus mode was on.
 */
count: number, 
/**
 * The same, by category (`session`, `alarm`, …).
 */
categories: { [key in string]: number }, };

export type PomodoroState = { run: RunState | null, rules: Array<PomodoroRule>, };

export type RunState = { plan: Plan, phase: Phase, block: number, phaseStartedAt: string, phaseEndsAt: string, managesFocus: boolean, ruleId: string | null, };

export type Plan = { focusMinutes: number, shortBreakMinutes: number, longBreakMinutes: number, 
/**
 * Focus blocks in the run; it ends when the last one does.
 */
blocks: number, 
/**
 * A long break follows every this many blocks.
 */
longBreakEvery: number, };

export type Phase = "focus" | "short_break" | "long_break";

export type PomodoroRule = { 
/**
 * Made by the server when the rule is new.
 */
id: string, 
/**
 * `mon` … `sun`.
 */
weekdays: Array<string>, 
/**
 * `HH:MM`, wall time in `time_zone`.
 */
start: string, 
/**
 * An IANA zone such as `Europe/Berlin`.
 */
timeZone: string, plan: Plan, };

export type FocusChangeBody = { on: boolean, };

export type RunningApp = { 
/**
 * Its name under `.localhost` (`web.fix-login`).
 */
name: string, 
/**
 * Where the proxy serves it: `http://<name>.localhost:<proxy port>/`.
 */
url: string, sessionId: string, 
/**
 * `local` or the runner the session runs on.
 */
runner: string, command: string, 
/**
 * The port it listens on, where it runs.
 */
port: number, pid: number | null, state: RunningAppState, startedAt: string, 
/**
 * How it ended (128 + the signal for one a signal ended); `null` while
 * it runs and for a found one that went.
 */
exitStatus: number | null, 
/**
 * `started` by Switchboard (`POST /apps`), or `detected`: found
 * listening among the session's processes.
 */
origin: RunningAppOrigin, sessionTitle: string | null, 
/**
 * The session's folder.
 */
worktree: string | null, 
/**
 * The branch of the session's worktree, when it has one.
 */
branch: string | null, };

export type Skill = { 
/**
 * What the engine calls it (`deploy`, `plugin:skill`); empty on the
 * one entry that says why the engine could not list.
 */
name: string, description: string, 
/**
 * What it takes after its name (`[file] [--fix]`); often empty.
 */
argumentHint: string, scope: SkillScope, 
/**
 * The text the composer puts in: `/name` for Claude Code, `$name` for
 * Codex; empty on the reason entry.
 */
insert: string, 
/**
 * Why its skill file is broken, or why the engine could not list.
 */
error?: string, };

export type ImportUrl = { 
/**
 * An http:// or https:// address: a web page, a Markdown or text file,
 * a PDF, a Google Docs or Slides link, a GitHub file or issue.
 */
url: string, };

export type ImportedDocument = { 
/**
 * The document's text as Markdown; the composer heads it with `source`.
 */
markdown: string, 
/**
 * The page's title, the first heading, or the file's name.
 */
title: string, 
/**
 * The URL as it was pasted.
 */
source: string, };

export type Attachment = { 
/**
 * The content's SHA-256 in hex: what a turn's `attachments` names.
 */
id: string, 
/**
 * Where the file is on the server's machine: the engine reads it there.
 */
path: string, 
/**
 * `image/png`, `image/jpeg`, `image/gif` or `image/webp`.
 */
mediaType: string, size: number, };

export type SpawnWithAttachments = { 
/**
 * Images of `POST /attachments`, by id, for the first turn.
 */
attachments?: Array<string>, 
/**
 * Defaults to `primary`.
 */
engine?: string, prompt: string, cwd?: string, title?: string, 
/**
 * Absent: the session runs in `cwd` itself.
 */
isolation?: Isolation, 
/**
 * `email`: the session is locked down (cli token or the user only).
 * The other triggers are the application's own: a request that names
 * one is refused.
 */
trigger?: Trigger, 
/**
 * A session of the caller's to fork: the new session starts with a
 * copy of that session's engine conversation (which stays as it was),
 * on its engine and in its folder (its repository, isolated again,
 * when it ran in a worktree) unless `engine`, `cwd` or `isolation` say
 * otherwise. The engine must be of the source's kind.
 */
forkFrom?: string, 
/**
 * `local`, a runner of `runners.toml`, or `auto` (the connected runner
 * with room and the most memory free). Defaults to `local`.
 */
runner?: string, };

export type AskQuestion = { question: string, };

export type AskStarted = { sessionId: string, };

export type SkillScope = "user" | "project" | "plugin" | "builtin";

export type RunningAppState = "running" | "exited" | "failing";

export type RunningAppOrigin = "started" | "detected";

export type AppsProxy = { port: number, 
/**
 * `http://localhost:<port>`.
 */
url: string, };

export type AppOutput = { name: string, lines: Array<string>, };

export type DeclaredApp = { name: string, command: string, };

export type StartApp = { sessionId: string, 
/**
 * The app's name (`[a-z0-9-]`, at most 40): the declared one's, or a
 * new one with `command`.
 */
name: string, 
/**
 * What to run (`sh -c`); omitted, the command `apps.toml` declares.
 */
command?: string, };

export type PomodoroAction = "start" | "stop" | "skip";

export type PomodoroChange = { action?: PomodoroAction, 
/**
 * For `start`: the phases' lengths (each field defaults to the classic
 * 25/5/15 minutes, 4 blocks, a long break after the fourth).
 */
plan?: Plan, 
/**
 * For `start`: whether the run turns focus mode on for blocks and off
 * for breaks; by default `pomodoroAutoEnableFocusModeDefault`.
 */
managesFocus?: boolean, 
/**
 * Replaces the weekday rules that start runs (while
 * `pomodoroScheduleEnabled` is on).
 */
rules?: Array<PomodoroRule>, };

export type CalendarKind = "caldav" | "ics";

export type CalendarStatus = "pending" | "ok" | "failing";

export type CalendarAccount = { id: string, kind: CalendarKind, name: string, url: string, username: string | null, hasPassword: boolean, status: CalendarStatus, failure: string | null, 
/**
 * What the last successful sync could not read (an unknown time
 * zone, a rule it could not walk), one sentence each.
 */
warnings: Array<string>, lastSyncAt: string | null, createdAt: string, calendars: Array<CalendarInfo>, };

export type CalendarInfo = { name: string, color: string | null, };

export type Occurrence = { uid: string, title: string, location: string | null, 
/**
 * RFC 3339 UTC. For an all-day event, midnight UTC of its first day.
 */
start: string, 
/**
 * Exclusive; for an all-day event, midnight UTC after its last day.
 */
end: string, allDay: boolean, 
/**
 * Part of a series (an RRULE, RDATEs or overrides).
 */
recurring: boolean, source: CalendarSource, };

export type CalendarSource = { "kind": "caldav" } & AccountSource | { "kind": "ics" } & AccountSource | { "kind": "item" } & ItemSource | { "kind": "sprint" } & SprintSource;

export type AccountSource = { accountId: string, account: string, calendar: string, color: string | null, 
/**
 * A CalDAV event's ORGANIZER address (lower case): who invited the
 * user, or the user themselves; `None` for an event without one and
 * for a subscription's.
 */
organizer: string | null, 
/**
 * The organizer is not one of the user's own addresses: an invitation,
 * which may be marked spam. Told only while the calendar's spam filter
 * is on (it knows the user's addresses); `false` otherwise.
 */
invitation: boolean, };

export type ItemSource = { boardId: string, board: string, itemId: string, 
/**
 * The date column read as the item's due date.
 */
columnId: string, 
/**
 * The board's color on the calendar, the same for all its entries.
 */
color: string, };

export type SprintSource = { boardId: string, board: string, sprint: string, color: string, };

export type SyncReport = { 
/**
 * Calendars the account has now.
 */
calendars: number, 
/**
 * Events (CalDAV resources, or a subscription's UIDs) downloaded.
 */
fetched: number, 
/**
 * Events removed because the server no longer has them.
 */
removed: number, 
/**
 * A subscription whose file had not changed (304).
 */
notModified: boolean, };

export type NewCalendar = { kind: CalendarKind, 
/**
 * The server's address (its root is enough for CalDAV), or the `.ics`
 * file's (`webcal://` is read as `https://`).
 */
url: string, username?: string, 
/**
 * A password or an app token; written to the secrets store, never
 * returned.
 */
password?: string, 
/**
 * Shown in lists; the URL's host when absent.
 */
name?: string, };

export type CalendarSpamRequest = { accountId: string, uid: string, };

export type CalendarOrganizationEntries = { added: Array<string>, };

export type CalendarSpamMarked = { 
/**
 * The organizer's address, now on the spam list.
 */
sender: string, 
/**
 * Their invitations deleted on the server and put in the trash.
 */
trashed: number, 
/**
 * Why one could not be deleted (it is tried again after each sync).
 */
failure: string | null, };

export type CalendarSpamSender = { address: string, markedAt: string, };

export type CalendarTrashedInvite = { id: string, accountId: string, account: string, uid: string, title: string, 
/**
 * Its first start the calendar had, RFC 3339 UTC.
 */
start: string | null, organizer: string, deletedAt: string, 
/**
 * When it is forgotten for good.
 */
purgeAt: string, };

export type CalendarOwnDomain = { domain: string, address: string, };

export type CalendarOrganization = { 
/**
 * The domains of the user's own addresses (free mail's left out).
 */
domains: Array<CalendarOwnDomain>, 
/**
 * The user's own addresses at free-mail domains: each only itself.
 */
freeMail: Array<string>, 
/**
 * The domains and addresses the user added.
 */
added: Array<string>, };

export type CalendarReminder = { kind: CalendarNoticeKind, 
/**
 * Minutes until the start, rounded up: `calendarReminderMinutes` when
 * told on time, fewer when the server caught up late, 0 at the start.
 */
minutesBefore: number, event: Occurrence, };

export type CalendarNoticeKind = "reminder";

export type MailAccount = { id: string, name: string, address: string, username: string, imap: MailServer, smtp: MailServer, status: MailStatus, 
/**
 * The server's words when `failing`.
 */
failure: string | null, source: MailAccountSource, };

export type MailServer = { host: string, port: number, tls: MailTls, };

export type MailTls = "tls" | "starttls" | "none";

export type MailStatus = "pending" | "ok" | "failing";

export type MailAccountSource = "toml" | "added";

export type MailFolder = { name: string, 
/**
 * `inbox`, `sent`, `drafts`, `archive`, `spam`, `trash`, `snoozed`,
 * `all`, `flagged`, or none.
 */
role: string | null, total: number, unread: number, };

export type MailThreadSummary = { id: string, subject: string, 
/**
 * Senders, first appearance first.
 */
participants: Array<string>, snippet: string, 
/**
 * Its messages in this folder.
 */
count: number, unread: number, starred: boolean, 
/**
 * Its latest message's date (RFC 3339), when that has one.
 */
date: string | null, };

export type MailThreadPage = { threads: Array<MailThreadSummary>, 
/**
 * Pass as `cursor` for the next page; none after the last.
 */
next: string | null, };

export type MailThread = { id: string, accountId: string, subject: string, messages: Array<MailMessage>, };

export type MailCatchUp = { summary: string, };

export type MailMessage = { 
/**
 * For `GET /mail/messages/{id}/parts/{part}` and `/frame`.
 */
id: string, folder: string, uid: number, messageId: string | null, from: string, to: Array<string>, cc: Array<string>, subject: string, date: string | null, unread: boolean, starred: boolean, text: string, 
/**
 * Sanitized HTML (no script, no form, remote images blocked while
 * `emailBlockRemoteImages` is on): show it in a sandboxed frame, as
 * `frameUrl` serves it with its Content-Security-Policy.
 */
html: string, frameUrl: string, attachments: Array<MailAttachment>, 
/**
 * Remote images held back; `frameUrl` with `?images=1` shows them.
 */
remoteImages: number, 
/**
 * Why the message could not be read whole (shown as text then).
 */
malformed: string | null, };

export type MailAttachment = { 
/**
 * The part's id for `GET /mail/messages/{id}/parts/{part}`.
 */
part: string, name: string | null, contentType: string, size: number, 
/**
 * Shown in the body (a `cid:` image) rather than listed.
 */
inline: boolean, };

export type MailActionKind = "archive" | "star" | "unstar" | "read" | "unread" | "spam" | "not_spam" | "snooze" | "move";

export type NewMailAccountBody = { 
/**
 * Shown in the sidebar (1 to 80 characters).
 */
name: string, 
/**
 * The address mail goes from.
 */
address: string, 
/**
 * The login name on both servers.
 */
username: string, 
/**
 * Written to the saved keys; never returned.
 */
password: string, imap: MailServer, smtp: MailServer, };

export type MailActionBody = { action: MailActionKind, 
/**
 * For `snooze`: when the thread comes back (RFC 3339, in the future).
 */
until?: string, 
/**
 * For `move`: the folder's name or role.
 */
folder?: string, };

export type MailSendBody = { accountId: string, to: MailRecipients, cc?: MailRecipients, bcc?: MailRecipients, subject: string, markdown: string, 
/**
 * The message this answers: a thread's `messages[].id`.
 */
inReplyTo?: string, attachments?: Array<MailAttachmentBody>, };

export type MailRecipients = string | Array<string>;

export type MailAttachmentBody = { name: string, contentType: string, 
/**
 * The bytes, base64.
 */
content: string, };

export type MailSent = { 
/**
 * The new message's Message-ID, bare.
 */
messageId: string, 
/**
 * Whether a copy was appended to Sent (false where the server files it).
 */
savedToSent: boolean, };

export type MailCleanup = { senders: Array<MailCleanupSender>, };

export type MailCleanupSender = { address: string, name: string | null, domain: string, count: number, unread: number, lastDate: string | null, listId: string | null, unsubscribe: MailUnsubscribe | null, };

export type MailUnsubscribe = { method: string, url: string | null, to: string | null, };

export type MailCleanupAction = "archive_all" | "unsubscribe" | "keep";

export type MailCleanupDone = { 
/**
 * Messages archived (`archive_all`).
 */
archived: number, 
/**
 * How the unsubscribe went out (`unsubscribe`).
 */
method: string | null, 
/**
 * For `link`: the page the person must open to finish.
 */
openUrl: string | null, };

export type MailCleanupBody = { accountId: string, 
/**
 * The sender's address, as `GET /mail/cleanup` lists it.
 */
sender: string, action: MailCleanupAction, };

export type Rule = { id: string, name: string, state: RuleState, createdByAgent: boolean, when: RuleTrigger, then: Array<RuleAction>, createdAt: string, updatedAt: string, lastFiredAt: string | null, };

export type NewRule = { name: string, when: RuleTrigger, then: Array<RuleAction>, };

export type RuleTrigger = { "kind": "webhook", webhookId: string, match?: { [key in string]: string }, } | { "kind": "item_status", boardId: string, status: string, column?: string, } | { "kind": "item_group", boardId: string, groupId: string, } | { "kind": "session_end", outcome: RuleSessionOutcome, recipeId?: string, } | { "kind": "schedule", scheduleId: string, };

export type RuleSessionOutcome = "finished" | "failed" | "needs_user";

export type RuleAction = { "kind": "start_recipe", recipeId: string, values?: { [key in string]: string }, 
/**
 * For an item trigger: how the item follows the session.
 */
item?: ItemFollowUp, } | { "kind": "update_item", values: Record<string, unknown>, } | { "kind": "move_item", groupId: string, } | { "kind": "inbox", title: string, body?: string, };

export type ItemFollowUp = { sessionColumn?: string, summaryColumn?: string, statusColumn?: string, 
/**
 * The status the item moves to as the session starts.
 */
runningStatus?: string, 
/**
 * The status the item moves to when the session finishes.
 */
finishedStatus?: string, 
/**
 * The status the item moves to when the session fails or stops.
 */
failedStatus?: string, };

export type RuleState = "active" | "pending" | "paused";

export type RuleFiring = { id: string, ruleId: string, at: string, 
/**
 * The event, in one line.
 */
event: string, outcome: FiringOutcome, reason: string | null, sessionId: string | null, runId: string | null, itemId: string | null, };

export type RuleDryRun = { 
/**
 * The event it waits for, in words.
 */
when: string, 
/**
 * One sentence for each action, in order.
 */
would: Array<string>, 
/**
 * What would make a firing fail now; empty when nothing would.
 */
problems: Array<string>, };

export type FiringOutcome = "started" | "done" | "skipped" | "failed";

export type RuleList = { rules: Array<Rule>, };

export type RuleFiringList = { firings: Array<RuleFiring>, };

export type PullRequest = { 
/**
 * GitHub's number, GitLab's `iid` (the `!7` of its project).
 */
number: number, 
/**
 * Its page on the host.
 */
url: string, state: PullRequestState, title: string, 
/**
 * When it last changed (RFC 3339, as the host wrote it).
 */
updatedAt: string | null, };

export type PullRequestState = "open" | "merged" | "closed";

export type BookmarkFields = { title?: string, kind?: BookmarkKind, url?: string, engine?: string, cwd?: string, prompt?: string, };

export type NewAlarm = { label: string, at: string, repeat?: AlarmRepeat, };

export type AlarmChanged = { id: string, alarm: Alarm | null, deleted: boolean, };

export type TasksChanged = { view: TasksView, workspaceId: string | null, };

export type TasksView = "tasks" | "caught";

export type Alarm = { id: string, label: string, 
/**
 * When it rings next, or rang (RFC 3339, UTC).
 */
at: string, repeat: AlarmRepeat | null, 
/**
 * The local time of day (`HH:MM:SS`) a repeating alarm rings at, in the
 * server's time zone; `null` for a one-time alarm.
 */
timeOfDay: string | null, status: AlarmStatus, 
/**
 * Snoozes since it last began ringing on schedule.
 */
snoozes: number, 
/**
 * When it began ringing, while `status` is `ringing`.
 */
ringingSince: string | null, createdAt: string, updatedAt: string, };

export type AlarmStatus = "scheduled" | "ringing" | "snoozed" | "dismissed" | "missed";

export type AlarmRepeat = "daily" | "weekdays";

export type FleetLogin = { 
/**
 * Its name in `engines.toml`.
 */
name: string, 
/**
 * Its sessions queued, starting or running now.
 */
running: number, 
/**
 * `max_sessions` in `engines.toml`; `None` when not set.
 */
limit: number | null, };

export type WatchingRecap = { 
/**
 * The week's Monday, `YYYY-MM-DD`.
 */
week: string, totalSeconds: number, 
/**
 * Days with any watching.
 */
days: number, 
/**
 * The day with the most, `YYYY-MM-DD`, and its seconds.
 */
busiestDay: string, busiestSeconds: number, };

export type BalanceVendor = "a" | "b";

export type Balance = { vendor: BalanceVendor, balanceUsd: number, 
/**
 * When it was entered (the clock's stored form).
 */
setAt: string, };

export type BalanceForecast = { vendor: BalanceVendor, vendorName: string, 
/**
 * The balance entered; `None` when none was.
 */
balanceUsd: number | null, setAt: string | null, spentSinceUsd: number, remainingUsd: number | null, 
/**
 * Dollars an hour over the last seven days.
 */
burnUsdPerHour: number, 
/**
 * When the remainder runs out at that rate; `None` with no balance or
 * no spend.
 */
runsOutAt: string | null, rechargeUrl: string, };

export type SetBalance = { balanceUsd: number, };

export type AlarmWordsInput = { text: string, };

export type Category = "alert" | "session" | "cli_pending" | "pm_event" | "digest" | "webhook" | "alarm" | "note" | "recipes" | "cron" | "automations" | "calendar" | "email_summary" | "mail" | "sms" | "messenger";

export type InboxRow = { id: string, category: Category, title: string, body: string | null, 
/**
 * When the first of the `count` occurrences arrived.
 */
createdAt: string, 
/**
 * When the latest occurrence arrived (`createdAt` while `count` is 1).
 */
updatedAt: string, readAt: string | null, archivedAt: string | null, 
/**
 * How many times this source raised this while the row was unread.
 */
count: number, 
/**
 * Why the source raised it, when the source says (a `session` row:
 * `question`, `failed` or `routine`); the newest occurrence's.
 */
reason?: string, source: Source, actions: Array<Action>, };

export type Source = { sessionId?: string, boardId?: string, itemId?: string, webhookId?: string, alarmId?: string, 
/**
 * The input request or key proposal the row asks the user to answer.
 */
requestId?: string, };

export type Action = { "kind": "open_session", sessionId: string, } | { "kind": "open_item", boardId: string, itemId: string, } | { "kind": "open_board", boardId: string, } | { "kind": "open_path", path: string, } | { "kind": "approve_pairing", code: string, } | { "kind": "approve_session_start", sessionId: string, } | { "kind": "approve_schedule", scheduleId: string, } | { "kind": "approve_rule", ruleId: string, } | { "kind": "open_setting", key: string, label: string, };

export type StateFilter = "unread" | "read" | "archived" | "open" | "all";

export type RowChange = { read?: boolean, archived?: boolean, };

export type ViewReport = { category: Category, 
/**
 * Rows that were on screen long enough to be read.
 */
looks: number, 
/**
 * Of those, rows that left the screen with nothing done to them.
 */
idleLooks: number, 
/**
 * Time the inbox's rows of this category were visible, in milliseconds.
 */
visibleMs: number, };

export type StatsDay = { 
/**
 * `YYYY-MM-DD`, UTC.
 */
day: string, category: Category, 
/**
 * Rows first read, archived or answered that day.
 */
actions: number, 
/**
 * Their waits since arrival, summed, in milliseconds.
 */
waitMs: number, looks: number, idleLooks: number, visibleMs: number, 
/**
 * Unread rows at the day's last sample; `null` when none was taken.
 */
unread: number | null, };

export type StatsWeek = { days: Array<string>, rows: Array<StatsDay>, };

export type InboxStatsPage = { enabled: boolean, week: StatsWeek, };

export type ViewsRecorded = { recorded: boolean, };

export type Announcement = { version: string, title: string, body: string, };

export type InboxEvent = { "change": "created" } & InboxRow | { "change": "repeated" } & InboxRow | { "change": "updated" } & InboxRow | { "change": "read_all", category: Category | null, count: number, };

export type ReadAll = { category?: Category, 
/**
 * Hidden categories too.
 */
hidden?: boolean, };

export type ReadAllDone = { count: number, };

export type NewWebhook = { name: string, signingSecret?: string, 
/**
 * `inbox` (the default: each delivery is a `webhook` row) or
 * `bug_intake` (each delivery is a Bug Intake report).
 */
purpose?: WebhookPurpose, };

export type CreatedWebhook = { id: string, name: string, url: string, };

export type MetricsToken = { id: string, name: string, createdAt: string, };

export type CreatedMetricsToken = { id: string, token: string, name: string, createdAt: string, };

export type Webhook = { id: string, name: string, createdAt: string, 
/**
 * Deliveries must carry a matching `X-Hub-Signature-256`.
 */
signed: boolean, purpose: WebhookPurpose, };

export type WebhookPurpose = "inbox" | "bug_intake";

export type BugReport = { id: string, source: BugReportSource, title: string, body: string, url: string | null, externalId: string | null, reporter: string | null, 
/**
 * The repository, Sentry project, `project` or address it came with.
 */
origin: string | null, labels: Array<string>, 
/**
 * The project folder it was routed to.
 */
folder: string | null, engine: string | null, state: BugReportState, reason: BugReportReason | null, sessionId: string | null, 
/**
 * How many times it arrived within the deduplication window.
 */
count: number, createdAt: string, lastSeenAt: string, };

export type BugReportState = "new" | "held" | "triaging" | "triaged" | "dismissed" | "unrouted";

export type BugReportReason = "intake_off" | "held" | "unrouted" | "start_failed";

export type BugReportSource = "github" | "sentry" | "generic" | "email" | "form";

export const SETUP_PRESETS = ["tasks", "projects", "operations", "first-agent-board", "trello", "jira", "asana", "linear", "notion", "clickup", "airtable", "engineering-linear", "engineering-jira"] as const;

export type SetupPreset = (typeof SETUP_PRESETS)[number];

export const WIDGET_TYPES = ["numbers", "chart", "velocity", "plannedVsUnplanned", "burndown", "battery", "table", "apps"] as const;

export type WidgetType = (typeof WIDGET_TYPES)[number];

export const FILTER_OPS = ["is", "is_not", "contains", "gt", "gte", "lt", "lte", "is_empty", "is_not_empty"] as const;

export type FilterOp = (typeof FILTER_OPS)[number];
