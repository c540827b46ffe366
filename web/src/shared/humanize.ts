/**
 * Plain words for the codes engines and the operating system hand a person: Claude Code's result
 * subtypes (`error_max_turns`) and API error codes (`rate_limit`), a session's status and stop
 * reason, an engine's kind, and the operating system's error texts ("No such file or directory
 * (os error 2)"), found inside the messages the server stores. Each gives back the words and the
 * text it stood for, so the page shows the words and keeps the code on hover (`Coded`).
 *
 * Where the codes come from: a failed Claude turn's message is its `result` text, else its
 * `errors`, else its `subtype` (crates/sessions/src/notices.rs); an `assistant` line's `error`
 * becomes "The model's API answered with an error (<code>)."; Codex's `turn.failed` carries a
 * sentence of its own; a program that could not start, or a turn's process, fails with Rust's
 * `std::io::Error` text, which ends "(os error N)".
 */
import type { ActivityKind, Status, StopReason } from "./api/types.generated";

/** Words, and the text they stand for: `raw` is null when the words are that text unchanged. */
export interface Plain {
  words: string;
  raw: string | null;
}

/**
 * Claude Code's `result` subtypes and the `error` of its `assistant` lines, as what happened to the
 * turn. Codex names no such codes: its `turn.failed` and `error` events carry sentences.
 */
export const ENGINE_CODE_WORDS: Readonly<Record<string, string>> = {
  success: "finished",
  error_max_turns: "stopped at its turn limit before it finished",
  error_during_execution: "failed while it was working",
  error_max_budget_usd: "stopped at its spending limit before it finished",
  error_max_structured_output_retries: "could not give its answer in the form it was asked for",
  rate_limit: "the model's rate limit was reached",
  authentication_failed: "the engine is not logged in, or its key was refused",
  billing_error: "the model provider's account needs payment",
  invalid_request: "the model refused the request as invalid",
  server_error: "the model provider's servers had an error",
  max_output_tokens: "the answer was longer than the model may write at once",
  overloaded: "the model provider is overloaded",
};

/** The words for one engine code, or null for a code this page does not know. */
export function engineCodeWords(code: string): string | null {
  return Object.hasOwn(ENGINE_CODE_WORDS, code) ? (ENGINE_CODE_WORDS[code] ?? null) : null;
}

/**
 * The operating system's error texts (strerror, as Rust's `io::Error` prints them before
 * "(os error N)"), by their text: the numbers differ between Linux and macOS, the texts do not.
 */
const OS_ERROR_WORDS: Readonly<Record<string, string>> = {
  "no such file or directory": "the file or folder was not found",
  "permission denied": "permission was denied",
  "operation not permitted": "the operation is not permitted",
  "exec format error": "the file is not a program this machine can run",
  "text file busy": "the program's file is being written to",
  "argument list too long": "the command line is too long",
  "no child processes": "the process had already ended",
  "cannot allocate memory": "the machine ran out of memory",
  "file exists": "it already exists",
  "not a directory": "a part of the path is not a folder",
  "is a directory": "it is a folder, not a file",
  "directory not empty": "the folder is not empty",
  "too many open files": "too many files are open",
  "too many open files in system": "too many files are open on this machine",
  "no space left on device": "the disk is full",
  "disk quota exceeded": "the disk quota is used up",
  "read-only file system": "the disk is read-only",
  "file name too long": "the file name is too long",
  "broken pipe": "the other side stopped reading",
  "address already in use": "the port is already in use",
  "address not available": "the address is not on this machine",
  "connection refused": "nothing answered there (the connection was refused)",
  "connection reset by peer": "the other side dropped the connection",
  "connection timed out": "the connection timed out",
  "network is unreachable": "the network cannot be reached",
  "no route to host": "the host cannot be reached",
  "resource temporarily unavailable": "the system was busy; trying again may work",
  "interrupted system call": "the operation was interrupted",
  "input/output error": "the disk or device reported an error",
};

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/** A known OS error as Rust prints it: its text, then "(os error N)". */
const OS_ERROR = new RegExp(
  `(${Object.keys(OS_ERROR_WORDS)
    .sort((a, b) => b.length - a.length)
    .map(escaped)
    .join("|")}) \\(os error \\d+\\)`,
  "gi",
);

/** The words for an OS error's text ("No such file or directory"), or null when unknown. */
export function osErrorWords(text: string): string | null {
  return OS_ERROR_WORDS[text.trim().toLowerCase()] ?? null;
}

/** Why a program did not start, named: `program` is what the engine's command runs. */
function programProblem(program: string, osText: string): string | null {
  const path = program.includes("/");
  switch (osText.trim().toLowerCase()) {
    case "no such file or directory":
      return path ? `the program \`${program}\` does not exist` : `the program \`${program}\` was not found on PATH`;
    case "permission denied":
      return `the program \`${program}\` may not be run (is it executable?)`;
    case "exec format error":
      return `\`${program}\` is not a program this machine can run`;
    default:
      return null;
  }
}

/** Signals a turn's process is commonly ended by, as what happened to it. */
const SIGNAL_WORDS: Readonly<Record<string, string>> = {
  "1": "hung up on (SIGHUP)",
  "2": "interrupted (SIGINT)",
  "6": "aborted (SIGABRT)",
  "9": "killed (SIGKILL)",
  "11": "crashed (segmentation fault)",
  "13": "stopped by a broken pipe (SIGPIPE)",
  "15": "terminated (SIGTERM)",
};

/** A sentence starts with a capital and ends with a stop. */
export function sentence(text: string): string {
  const trimmed = text.trim();
  if (trimmed === "") return trimmed;
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?…:]$/.test(capital) ? capital : `${capital}.`;
}

/** The codes Claude Code puts in parentheses and Switchboard's notices keep: "(rate_limit)". */
const CODE_IN_PARENTHESES = /\(([a-z]+(?:_[a-z]+)+)\)/g;

/**
 * A message the server stored (a session's `error`, an `error` or `notice` entry) in plain
 * words: a message that is only an engine code becomes a sentence, codes and OS errors inside
 * it become words, and the raw OS error the server appends in parentheses is left to the hover.
 * `raw` is the whole message as stored, whenever anything was changed.
 */
export function plainMessage(message: string): Plain {
  const stored = message.trim();
  const alone = engineCodeWords(stored);
  if (alone !== null) return { words: sentence(`It ${alone}`), raw: stored };
  let words = stored
    // The server's own message keeps the raw OS error at its end, for the hover.
    .replace(/\. \(([^()]*\(os error \d+\))\)$/, ".")
    // Older servers' and runners' form: "could not be started (claude): No such file… (os error 2)".
    .replace(
      /could not be started \(([^()]+)\): ([^():]+) \(os error \d+\)/,
      (whole, program: string, osText: string) => {
        const problem = programProblem(program.replace(/`/g, ""), osText);
        return problem === null ? whole : `could not be started: ${problem}`;
      },
    )
    .replace(OS_ERROR, (whole, osText: string) => osErrorWords(osText) ?? whole)
    .replace(CODE_IN_PARENTHESES, (whole, code: string) => {
      const known = engineCodeWords(code);
      return known === null ? whole : `(${known})`;
    });
  const exited = /^the engine exited with status (\d+)(?::\s*([\s\S]*))?$/i.exec(words);
  const killed = /^the engine was killed by signal (\d+)(?::\s*([\s\S]*))?$/i.exec(words);
  if (exited) {
    const [, status, said] = exited;
    const code = said === undefined ? null : engineCodeWords(said.trim());
    words =
      code !== null
        ? `the engine ${code}`
        : said
          ? `the engine stopped with an error: ${said}`
          : `the engine stopped with exit status ${status}`;
  } else if (killed) {
    const [, signal = "", said] = killed;
    const how = SIGNAL_WORDS[signal] ?? `stopped by signal ${signal}`;
    words = `the engine was ${how}${said ? `: ${said}` : ""}`;
  } else if (/^lost track of the engine process/i.test(words)) {
    words = words.replace(/^lost track of the engine process/i, "Switchboard lost track of the engine's process");
  }
  words = sentence(words);
  return { words, raw: words === stored ? null : stored };
}

/** A session's status as the page says it ("waiting for input"), the code kept for the hover. */
export const STATUS_WORDS: Readonly<Record<Status, string>> = {
  queued: "queued",
  starting: "starting",
  running: "running",
  waiting_for_input: "waiting for input",
  finished: "finished",
  failed: "failed",
  stopped: "stopped",
  interrupted: "interrupted",
  paused: "paused",
};

/** Why a session is not working, when its status does not say it. */
export const STOP_REASON_WORDS: Readonly<Record<StopReason, string>> = {
  finished: "finished cleanly",
  waiting_for_user: "waiting for you",
  stopped: "stopped with Stop",
  closed: "closed by you",
  failed: "failed with an error",
  interrupted: "interrupted from outside",
};

/** A code this build does not know (a newer server's), as its own name in words. */
export const codeAsWords = (code: string) => code.replace(/_/g, " ");

export function statusWords(status: string): string {
  return (STATUS_WORDS as Readonly<Record<string, string>>)[status] ?? codeAsWords(status);
}

/**
 * A session's status as its row says it: a waiting session whose turn did its work (`turnEnd`
 * "done") is "done", not "waiting for input": nobody is waited on, though it can still be answered.
 */
export function sessionStatusWords(session: { status: string; turnEnd?: string | null }): string {
  if (session.status === "waiting_for_input" && session.turnEnd === "done") return "done";
  return statusWords(session.status);
}

export function stopReasonWords(reason: string): string {
  return (STOP_REASON_WORDS as Readonly<Record<string, string>>)[reason] ?? codeAsWords(reason);
}

/** The product an engine's kind runs. */
const ENGINE_KIND_WORDS: Readonly<Record<string, string>> = {
  claude: "Claude Code",
  codex: "Codex",
  command: "a command",
};

export function engineKindWords(kind: string): string {
  return ENGINE_KIND_WORDS[kind] ?? kind;
}

/** What a session is doing, as the start of a line: "Running: cargo test". */
const ACTIVITY_WORDS: Readonly<Record<ActivityKind, string>> = {
  todo: "Planning",
  thinking: "Thinking",
  writing: "Writing",
  reading: "Reading",
  editing: "Editing",
  running: "Running",
  searching: "Searching",
  tool: "Using",
};

export function activityWords(kind: string): string {
  return (ACTIVITY_WORDS as Readonly<Record<string, string>>)[kind] ?? sentence(codeAsWords(kind)).replace(/\.$/, "");
}

/**
 * Why the permission broker decided as it did, by the rule that chose (crates/permissions'
 * `decide`): what a `permission` entry says after "Allowed" or "Denied".
 */
const PERMISSION_RULE_WORDS: Readonly<Record<string, string>> = {
  plan_auto_approved: "plans are approved automatically",
  plan_needs_approval: "plans wait for your approval",
  internal: "Switchboard checks this tool's calls itself",
  switchboard_mcp: "Switchboard's own tool",
  read_only: "the session may only read",
  read_only_reads: "reading is allowed",
  full: "full access allows every call",
  sensitive_path: "it touches a sensitive file",
  config_file_auto_approved: "edits of the engine's own settings are approved automatically",
  config_file_needs_approval: "edits of the engine's own settings wait for your approval",
  guarded_reads: "reading is allowed",
  guarded_edit_inside: "edits inside the session's folder are allowed",
  guarded_edit_outside: "edits outside the session's folder wait for your approval",
  guarded_ask: "it waits for your approval",
  autonomous: "the autonomous level allows it",
};

export function permissionRuleWords(rule: string): string {
  return PERMISSION_RULE_WORDS[rule] ?? codeAsWords(rule);
}

/**
 * An inbox row's title, whose failure the server words as "<session> failed: <error's first
 * line>" (`attention::turn_ended`): the error part said in words, the stored title kept as `raw`
 * when that changed anything. Any other title is its own words.
 */
export function rowTitleWords(title: string): Plain {
  const failed = /^(.*) failed: (.+)$/.exec(title);
  if (!failed) return { words: title, raw: null };
  const [, name = "", stored = ""] = failed;
  const error = plainMessage(stored);
  // A sentence's capital and stop are not a translation: the title stays as stored.
  const bare = (text: string) => text.toLowerCase().replace(/[.!?…]+$/, "");
  if (bare(error.words) === bare(stored)) return { words: title, raw: null };
  return { words: `${name} failed: ${error.words}`, raw: title };
}
