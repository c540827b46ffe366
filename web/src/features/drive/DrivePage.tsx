/**
 * `/drive` (issue 70): the WebDAV drives whose switches are on, one tab each. A folder's members
 * (folders first, paged: "Show more"), breadcrumbs back up, uploads by button or by dropping
 * files on the page (each with its progress), downloads as plain links, a new folder, rename,
 * move and delete (WebDAV has no trash: delete asks first); a spreadsheet opens in the Sheets page
 * (by its route, while `sheetsEnabled` is on). A drive not set up yet shows the form
 * to add its account. A phone (390 px) shows one column with the details under each name.
 */
import { useEffect, useRef, useState, type DragEvent } from "react";
import { errorMessage } from "../../shared/api/errorMessage";
import { Link } from "../../shared/router";
import { useSettingValues } from "../../shared/settings";
import { ConfirmDialog, Dialog } from "../../shared/ui/Dialog";
import { EmptyState } from "../../shared/ui/EmptyState";
import { PageHeader } from "../../shared/ui/PageHeader";
import { ErrorNote, Loading } from "../../shared/ui/Status";
import { TabButtons } from "../../shared/ui/Tabs";
import { exactTime } from "../../shared/time";
import { AddDrive } from "./AddDrive";
import {
  deleteEntry,
  downloadUrl,
  listDrives,
  listFolder,
  makeFolder,
  moveEntry,
  uploadFile,
  type DriveAccount,
  type DriveEntry,
} from "./api";
import {
  breadcrumbs,
  join,
  nameProblem,
  normalize,
  parent,
  pathProblem,
  progressWords,
  sheetLink,
  sizeWords,
  slotsOn,
} from "./paths";
import "./drive.css";

type Slot = DriveAccount["slot"];

const SLOT_NAMES: Record<Slot, string> = { main: "Drive", "filesync-a": "File-sync A", "filesync-b": "File-sync B" };

interface UploadRow {
  key: number;
  name: string;
  sent: number;
  total: number;
  state: "sending" | "done" | "failed";
  error?: string;
  cancel: () => void;
}

type Editing = { kind: "rename" | "move" | "delete"; entry: DriveEntry } | { kind: "folder" } | null;

export function DrivePage() {
  const values = useSettingValues();
  const on = slotsOn(values);
  const [accounts, setAccounts] = useState<DriveAccount[] | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [slot, setSlot] = useState<Slot | null>(null);

  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    let live = true;
    listDrives().then(
      (list) => {
        if (!live) return;
        setAccounts(list);
        setLoadError(null);
      },
      (cause: unknown) => live && setLoadError(cause),
    );
    return () => {
      live = false;
    };
  }, [generation]);
  const reload = () => setGeneration((g) => g + 1);

  const chosen: Slot | undefined = slot && on.includes(slot) ? slot : on[0];
  const account = accounts?.find((a) => a.slot === chosen) ?? null;

  return (
    <section className="page drive-page touch">
      <PageHeader title={account ? account.name : "Drive"} tabTitle="Drive" />
      {on.length > 1 && chosen && (
        <TabButtons
          label="Drives"
          tabs={on.map((s) => ({ key: s, label: accounts?.find((a) => a.slot === s)?.name ?? SLOT_NAMES[s] }))}
          selected={chosen}
          onSelect={setSlot}
        />
      )}
      {loadError !== null ? (
        <ErrorNote error={loadError} onRetry={reload} />
      ) : accounts === null ? (
        <Loading what="your drives" />
      ) : !chosen ? (
        <EmptyState>Turn on a drive in Settings (Cloud drive, or file-sync service A or B).</EmptyState>
      ) : account ? (
        <Folder key={account.id} account={account} />
      ) : (
        <AddDrive slot={chosen} onAdded={(added) => setAccounts([...accounts, added])} />
      )}
    </section>
  );
}

function Folder({ account }: { account: DriveAccount }) {
  const values = useSettingValues();
  const [path, setPath] = useState("/");
  const [entries, setEntries] = useState<DriveEntry[] | null>(null);
  const [total, setTotal] = useState(0);
  const [next, setNext] = useState<number | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [uploads, setUploads] = useState<UploadRow[]>([]);
  const [dropping, setDropping] = useState(false);
  const [editing, setEditing] = useState<Editing>(null);
  const picker = useRef<HTMLInputElement>(null);
  const uploadKey = useRef(0);

  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    let live = true;
    listFolder(account.id, path).then(
      (page) => {
        if (!live) return;
        setEntries(page.entries);
        setTotal(page.total);
        setNext(page.next);
        setError(null);
      },
      (cause: unknown) => {
        if (!live) return;
        setEntries([]);
        setError(cause);
      },
    );
    return () => {
      live = false;
    };
  }, [account.id, path, generation]);
  const reload = () => setGeneration((g) => g + 1);

  const open = (to: string) => {
    setEntries(null);
    setProblem(null);
    setPath(normalize(to));
  };

  const more = async () => {
    if (next === null) return;
    try {
      const page = await listFolder(account.id, path, next);
      setEntries((shown) => [...(shown ?? []), ...page.entries]);
      setNext(page.next);
    } catch (cause) {
      setProblem(errorMessage(cause));
    }
  };

  const upload = (files: FileList | File[]) => {
    for (const file of Array.from(files)) {
      const bad = nameProblem(file.name);
      if (bad) {
        setProblem(`${file.name}: ${bad}`);
        continue;
      }
      const key = ++uploadKey.current;
      const change = (patch: Partial<UploadRow>) =>
        setUploads((rows) => rows.map((row) => (row.key === key ? { ...row, ...patch } : row)));
      const sending = uploadFile(account.id, join(path, file.name), file, (sent) => change({ sent }));
      setUploads((rows) => [
        ...rows,
        { key, name: file.name, sent: 0, total: file.size, state: "sending", cancel: sending.cancel },
      ]);
      sending.done.then(
        () => {
          change({ state: "done", sent: file.size });
          reload();
        },
        (cause: unknown) => change({ state: "failed", error: errorMessage(cause) }),
      );
    }
  };

  const act = async (work: () => Promise<unknown>) => {
    setProblem(null);
    try {
      await work();
      setEditing(null);
      reload();
    } catch (cause) {
      setProblem(errorMessage(cause));
    }
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDropping(false);
    if (event.dataTransfer.files.length > 0) upload(event.dataTransfer.files);
  };

  return (
    <section
      className={dropping ? "drive-folder drive-dropping" : "drive-folder"}
      aria-label="Files"
      onDragOver={(event) => {
        if (!event.dataTransfer.types.includes("Files")) return;
        event.preventDefault();
        setDropping(true);
      }}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDropping(false);
      }}
      onDrop={onDrop}
    >
      {account.status === "failing" && (
        <p className="drive-error" role="alert">
          This drive is failing: {account.failure}
        </p>
      )}
      <div className="drive-bar">
        <nav aria-label="Folder path" className="drive-crumbs">
          <ol>
            {breadcrumbs(path, account.name).map((crumb, i, all) => (
              <li key={crumb.path}>
                {i === all.length - 1 ? (
                  <span aria-current="page">{crumb.label}</span>
                ) : (
                  <button type="button" className="link-button" onClick={() => open(crumb.path)}>
                    {crumb.label}
                  </button>
                )}
              </li>
            ))}
          </ol>
        </nav>
        <div className="drive-actions">
          <button type="button" onClick={() => setEditing({ kind: "folder" })}>
            New folder
          </button>
          <button type="button" className="primary" onClick={() => picker.current?.click()}>
            Upload
          </button>
          <input
            ref={picker}
            type="file"
            multiple
            hidden
            aria-label="Files to upload"
            onChange={(event) => {
              if (event.target.files) upload(event.target.files);
              event.target.value = "";
            }}
          />
        </div>
      </div>
      <p className="muted drive-hint">Drop files here to upload them to this folder.</p>
      {uploads.length > 0 && (
        <ul className="drive-uploads" aria-label="Uploads">
          {uploads.map((row) => (
            <li key={row.key} className={`drive-upload drive-upload-${row.state}`}>
              <span className="drive-upload-name">{row.name}</span>
              {row.state === "sending" && (
                <>
                  <progress value={row.sent} max={Math.max(row.total, 1)} aria-label={`Uploading ${row.name}`} />
                  <span className="muted">{progressWords(row.sent, row.total)}</span>
                  <button type="button" className="link-button" onClick={row.cancel}>
                    Cancel
                  </button>
                </>
              )}
              {row.state === "done" && <span className="muted">Uploaded, {sizeWords(row.total)}</span>}
              {row.state === "failed" && <span className="drive-error">{row.error}</span>}
              {row.state !== "sending" && (
                <button
                  type="button"
                  className="link-button"
                  onClick={() => setUploads((rows) => rows.filter((r) => r.key !== row.key))}
                >
                  Dismiss
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {problem && (
        <p className="drive-error" role="alert">
          {problem}
        </p>
      )}
      {error !== null && <ErrorNote error={error} onRetry={reload} />}
      {entries === null ? (
        <Loading what="the folder" />
      ) : entries.length === 0 && error === null ? (
        <EmptyState>This folder is empty. Upload files or drop them here.</EmptyState>
      ) : (
        <>
          <table className="drive-table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col" className="drive-wide">
                  Size
                </th>
                <th scope="col" className="drive-wide">
                  Modified
                </th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.path}>
                  <td className="drive-name">
                    {entry.folder ? (
                      <button type="button" className="link-button" onClick={() => open(entry.path)}>
                        {entry.name}
                        <span aria-hidden="true">/</span>
                      </button>
                    ) : (
                      <a href={downloadUrl(account.id, entry.path)} download={entry.name}>
                        {entry.name}
                      </a>
                    )}
                    <span className="muted drive-narrow">
                      {entry.folder ? "Folder" : sizeWords(entry.size)}
                      {entry.modifiedAt ? ` · ${exactTime(entry.modifiedAt)}` : ""}
                    </span>
                  </td>
                  <td className="drive-wide">{entry.folder ? "—" : sizeWords(entry.size)}</td>
                  <td className="drive-wide">{entry.modifiedAt ? exactTime(entry.modifiedAt) : "—"}</td>
                  <td>
                    <div className="drive-row-actions">
                      {!entry.folder && sheetLink(values, account.id, entry.path) && (
                        <Link className="button-like" to={sheetLink(values, account.id, entry.path) ?? ""}>
                          Open in Sheets
                        </Link>
                      )}
                      {!entry.folder && (
                        <a className="button-like" href={downloadUrl(account.id, entry.path)} download={entry.name}>
                          Download
                        </a>
                      )}
                      <button type="button" onClick={() => setEditing({ kind: "rename", entry })}>
                        Rename
                      </button>
                      <button type="button" onClick={() => setEditing({ kind: "move", entry })}>
                        Move
                      </button>
                      <button type="button" className="danger" onClick={() => setEditing({ kind: "delete", entry })}>
                        Delete
                      </button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="muted">
            {entries.length} of {total}
            {next !== null && (
              <>
                {" "}
                <button type="button" onClick={() => void more()}>
                  Show more
                </button>
              </>
            )}
          </p>
        </>
      )}
      {editing?.kind === "delete" && (
        <ConfirmDialog
          title={`Delete ${editing.entry.name}?`}
          confirmLabel="Delete"
          onClose={() => setEditing(null)}
          onConfirm={() => void act(() => deleteEntry(account.id, editing.entry.path))}
        >
          <p>
            {editing.entry.folder ? "The folder and everything in it" : "The file"} will be deleted from the drive.
            WebDAV has no trash: unless the server keeps one (Nextcloud and ownCloud do), this cannot be undone.
          </p>
          {problem && <p className="drive-error">{problem}</p>}
        </ConfirmDialog>
      )}
      {editing?.kind === "rename" && (
        <PathDialog
          title={`Rename ${editing.entry.name}`}
          label="New name"
          initial={editing.entry.name}
          check={nameProblem}
          problem={problem}
          onClose={() => setEditing(null)}
          onSubmit={(name) =>
            act(() => moveEntry(account.id, editing.entry.path, join(parent(editing.entry.path), name)))
          }
        />
      )}
      {editing?.kind === "move" && (
        <PathDialog
          title={`Move ${editing.entry.name}`}
          label="To (a path on this drive)"
          initial={editing.entry.path}
          check={pathProblem}
          problem={problem}
          onClose={() => setEditing(null)}
          onSubmit={(to) => act(() => moveEntry(account.id, editing.entry.path, normalize(to)))}
        />
      )}
      {editing?.kind === "folder" && (
        <PathDialog
          title="New folder"
          label="Name"
          initial=""
          check={nameProblem}
          problem={problem}
          onClose={() => setEditing(null)}
          onSubmit={(name) => act(() => makeFolder(account.id, join(path, name)))}
        />
      )}
    </section>
  );
}

function PathDialog({
  title,
  label,
  initial,
  check,
  problem,
  onClose,
  onSubmit,
}: {
  title: string;
  label: string;
  initial: string;
  check: (value: string) => string | null;
  problem: string | null;
  onClose: () => void;
  onSubmit: (value: string) => Promise<void>;
}) {
  const [value, setValue] = useState(initial);
  const invalid = check(value);
  return (
    <Dialog title={title} onClose={onClose}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (!invalid) void onSubmit(value);
        }}
      >
        <label>
          {label}
          <input autoFocus value={value} onChange={(e) => setValue(e.target.value)} aria-invalid={invalid !== null} />
        </label>
        {value !== "" && invalid && <p className="drive-error">{invalid}</p>}
        {problem && <p className="drive-error">{problem}</p>}
        <div className="dialog-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={invalid !== null}>
            {title.startsWith("New") ? "Make" : "Save"}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
