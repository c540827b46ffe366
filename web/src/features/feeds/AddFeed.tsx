/**
 * Adding feeds: a feed's or a site's URL (the server discovers a site's feed, and its 400 says
 * what it found instead, shown as it came), an OPML file read in the browser and sent as text,
 * and the subscriptions downloaded as OPML.
 */
import { useRef, useState, type FormEvent } from "react";
import { errorMessage } from "../../shared/api/errorMessage";
import { addFeed, exportOpml, importOpml, type Feed } from "./api";
import { opmlFileName } from "./reader";

interface Props {
  onAdded: (feed: Feed | null) => void;
}

export function AddFeed({ onAdded }: Props) {
  const [url, setUrl] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const file = useRef<HTMLInputElement>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const wanted = url.trim();
    if (!wanted) return;
    setBusy(true);
    setError(null);
    setNote(null);
    try {
      const feed = await addFeed(wanted);
      setUrl("");
      setNote(`Subscribed to ${feed.title}.`);
      onAdded(feed);
    } catch (cause) {
      setError(errorMessage(cause));
    } finally {
      setBusy(false);
    }
  };

  const importFile = async (chosen: File | undefined) => {
    if (!chosen) return;
    setBusy(true);
    setError(null);
    setNote(null);
    try {
      const done = await importOpml(await chosen.text());
      setNote(`Imported ${done.added} ${done.added === 1 ? "feed" : "feeds"}; ${done.skipped} skipped.`);
      onAdded(null);
    } catch (cause) {
      setError(errorMessage(cause));
    } finally {
      setBusy(false);
      if (file.current) file.current.value = "";
    }
  };

  const download = async () => {
    setError(null);
    try {
      const blob = await exportOpml();
      const href = URL.createObjectURL(blob);
      const link = document.createElement("a");
      link.href = href;
      link.download = opmlFileName(new Date());
      link.click();
      URL.revokeObjectURL(href);
    } catch (cause) {
      setError(errorMessage(cause));
    }
  };

  return (
    <div className="feeds-add">
      <form className="feeds-add-form" aria-label="Add a feed" onSubmit={(e) => void submit(e)}>
        <label htmlFor="feeds-url">Feed or site URL</label>
        <input
          id="feeds-url"
          type="url"
          inputMode="url"
          placeholder="https://example.com/"
          value={url}
          required
          onChange={(e) => setUrl(e.target.value)}
        />
        <button type="submit" disabled={busy} aria-busy={busy || undefined}>
          Add feed
        </button>
      </form>
      <div className="feeds-opml">
        <label className="feeds-file">
          Import OPML
          <input
            ref={file}
            type="file"
            accept=".opml,.xml,text/x-opml,text/xml,application/xml"
            disabled={busy}
            onChange={(e) => void importFile(e.target.files?.[0])}
          />
        </label>
        <button type="button" onClick={() => void download()}>
          Export OPML
        </button>
      </div>
      {error && (
        <p className="feeds-error" role="alert">
          {error}
        </p>
      )}
      {note && (
        <p className="muted" role="status">
          {note}
        </p>
      )}
    </div>
  );
}
