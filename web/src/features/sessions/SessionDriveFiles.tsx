/**
 * The session page's files and drives (docs/files.md "A session's files and the drives"): a drive
 * file attached to the session (copied into its folder, never over a file there) and a file of its
 * folder saved to a drive. Shown while the drives are on, for a session run on this machine.
 */
import { useState } from "react";
import type { AttachedFile, DriveAccount, DriveEntry, Session } from "../../shared/api/types.generated";
import { apiFetch } from "../../shared/api/client";
import { errorMessage } from "../../shared/api/errorMessage";
import { useApi } from "../../shared/hooks/useApi";
import { useSettings } from "../../shared/settings";
import { Button } from "../../shared/ui/Button";

/** What an attach did, in words. */
export function attachedWords(attached: AttachedFile): string {
  return `Attached as ${attached.path} in the session's folder (${attached.size} bytes).`;
}

export function SessionDriveFiles({ session }: { session: Session }) {
  const { values } = useSettings();
  const on = values?.driveEnabled === true && session.runner === "local";
  const drives = useApi<DriveAccount[]>(on ? "/drives" : null);
  const [drive, setDrive] = useState("main");
  const [from, setFrom] = useState("");
  const [file, setFile] = useState("");
  const [to, setTo] = useState("");
  const [overwrite, setOverwrite] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  if (!on || !drives.data || drives.data.length === 0) return null;
  const base = `/sessions/${encodeURIComponent(session.id)}`;
  const run = async (work: () => Promise<string>) => {
    try {
      setNote(await work());
    } catch (error) {
      setNote(errorMessage(error));
    }
  };
  const attach = () =>
    run(async () =>
      attachedWords(
        await apiFetch<AttachedFile>(`${base}/attach-drive-file`, { method: "POST", body: { drive, path: from } }),
      ),
    );
  const save = () =>
    run(async () => {
      const saved = await apiFetch<DriveEntry>(`${base}/save-to-drive`, {
        method: "POST",
        body: { file, drive, path: to, overwrite },
      });
      return `Saved to ${saved.path}.`;
    });
  return (
    <details className="session-drive-files">
      <summary>Files and drives</summary>
      <label>
        Drive
        <select value={drive} onChange={(event) => setDrive(event.target.value)}>
          {drives.data.map((d) => (
            <option key={d.id} value={d.id}>
              {d.name}
            </option>
          ))}
        </select>
      </label>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void attach();
        }}
      >
        <label>
          Drive file to attach
          <input value={from} placeholder="/Reports/q1.csv" onChange={(event) => setFrom(event.target.value)} />
        </label>
        <Button type="submit" disabled={from.trim() === ""}>
          Attach to this session
        </Button>
      </form>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <label>
          File of the session&rsquo;s folder
          <input value={file} placeholder="report.md" onChange={(event) => setFile(event.target.value)} />
        </label>
        <label>
          Save as (on the drive)
          <input value={to} placeholder="/Reports/report.md" onChange={(event) => setTo(event.target.value)} />
        </label>
        <label className="session-drive-overwrite">
          <input type="checkbox" checked={overwrite} onChange={(event) => setOverwrite(event.target.checked)} />
          Replace a file already there
        </label>
        <Button type="submit" disabled={file.trim() === "" || to.trim() === ""}>
          Save to drive
        </Button>
      </form>
      {note !== null && <p role="status">{note}</p>}
    </details>
  );
}
