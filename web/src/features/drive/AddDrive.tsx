/**
 * Adding a WebDAV account to a free drive: URL, user name and (app) password. The server saves
 * the password as a sealed key and never shows it again; a refused password still adds the
 * account, shown as failing with the server's words, so it can be fixed.
 */
import { useState, type FormEvent } from "react";
import { errorMessage } from "../../shared/api/errorMessage";
import { addDrive, type DriveAccount } from "./api";

export function AddDrive({ slot, onAdded }: { slot: DriveAccount["slot"]; onAdded: (account: DriveAccount) => void }) {
  const [url, setUrl] = useState("");
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const account = await addDrive({
        kind: "webdav",
        url: url.trim(),
        username: username.trim(),
        password,
        name: name.trim() || null,
        slot,
      });
      setPassword("");
      onAdded(account);
    } catch (cause) {
      setError(errorMessage(cause));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="drive-add" onSubmit={(e) => void submit(e)} aria-label="Add a WebDAV drive">
      <p className="muted">
        Any WebDAV server: Nextcloud or ownCloud (<code>https://HOST/remote.php/dav/files/USER/</code>), Fastmail Files,
        Box, a NAS, or <code>rclone serve webdav</code> in front of any store rclone reaches.
      </p>
      <label>
        WebDAV URL
        <input type="url" required value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://" />
      </label>
      <label>
        User name
        <input required autoComplete="username" value={username} onChange={(e) => setUsername(e.target.value)} />
      </label>
      <label>
        Password or app password
        <input
          type="password"
          required
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </label>
      <label>
        Name (optional)
        <input value={name} onChange={(e) => setName(e.target.value)} placeholder="Nextcloud" />
      </label>
      {error && (
        <p className="drive-error" role="alert">
          {error}
        </p>
      )}
      <div>
        <button type="submit" className="primary" disabled={busy}>
          {busy ? "Adding…" : "Add drive"}
        </button>
      </div>
    </form>
  );
}
