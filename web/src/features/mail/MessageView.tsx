/**
 * One message of a thread: who wrote to whom and when, its body in a sandboxed frame (the
 * server's sanitized HTML under the frame's own policy), a bar saying how many remote images were
 * held back with a Show that asks the server for this message with them, and its attachments.
 */
import { useEffect, useState } from "react";
import { errorMessage } from "../../shared/api/errorMessage";
import { htmlWithImages, partAsDataUrl, partPath, type MailMessage } from "./api";
import { sizeText } from "./folders";
import {
  FRAME_SANDBOX,
  frameDocument,
  frameHeight,
  partApiPath,
  partSources,
  withSources,
} from "../../shared/frames/sandboxedFrame";

/** The HTML with its own parts read by the page and inlined; the HTML as it came until then, or when one cannot be read. */
function useInlinedParts(html: string): string {
  const [done, setDone] = useState<{ from: string; html: string } | null>(null);
  useEffect(() => {
    const sources = partSources(html);
    if (sources.length === 0) return;
    let live = true;
    Promise.all(sources.map(async (source) => [source, await partAsDataUrl(partApiPath(source))] as const)).then(
      (pairs) => live && setDone({ from: html, html: withSources(html, new Map(pairs)) }),
      () => live && setDone({ from: html, html }),
    );
    return () => {
      live = false;
    };
  }, [html]);
  return done?.from === html ? done.html : html;
}

/** Older messages of a thread start folded to a line, the last one open: the thread reads from its end. */
export function MessageView({ message: first, folded: startFolded }: { message: MailMessage; folded: boolean }) {
  const message = first;
  const [folded, setFolded] = useState(startFolded);
  const [withImages, setWithImages] = useState<string | null>(null);
  const imagesShown = withImages !== null;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const held = imagesShown ? 0 : message.remoteImages;

  const showImages = async () => {
    setBusy(true);
    setError(null);
    try {
      setWithImages(await htmlWithImages(message));
    } catch (cause) {
      setError(errorMessage(cause));
    } finally {
      setBusy(false);
    }
  };

  // A folded message reads none of its parts until it is opened.
  const html = useInlinedParts(folded ? "" : (withImages ?? message.html));
  const files = message.attachments.filter((part) => !part.inline);
  const when = message.date ?? undefined;
  if (folded) {
    return (
      <article className="mail-message folded" aria-label={`From ${message.from}`}>
        <button type="button" className="mail-unfold" aria-expanded="false" onClick={() => setFolded(false)}>
          <strong className="mail-from">{message.from}</strong>{" "}
          <span className="muted">{message.text.slice(0, 160)}</span>
        </button>
      </article>
    );
  }
  return (
    <article className="mail-message" aria-label={`From ${message.from}`}>
      <header className="mail-message-head">
        <strong className="mail-from">{message.from}</strong>
        {when && (
          <time className="muted" dateTime={when}>
            {new Date(when).toLocaleString()}
          </time>
        )}
        <div className="muted mail-to">
          to {message.to.join(", ")}
          {message.cc.length > 0 && <> · cc {message.cc.join(", ")}</>}
        </div>
      </header>
      {message.malformed !== null && (
        <p className="mail-malformed" role="note">
          This message is not well-formed MIME ({message.malformed}); it is shown as text with its parts listed.
        </p>
      )}
      {held > 0 && (
        <div className="mail-images-bar" role="status">
          <span>
            {held} remote {held === 1 ? "image" : "images"} blocked
          </span>
          <span aria-hidden="true"> — </span>
          <button type="button" onClick={() => void showImages()} disabled={busy} aria-busy={busy || undefined}>
            Show<span className="visually-hidden"> remote images of this message</span>
          </button>
          {error && (
            <span className="mail-error" role="alert">
              {error}
            </span>
          )}
        </div>
      )}
      <iframe
        // A new document when images are let through, so the frame's policy is the new one.
        key={imagesShown ? "images" : "blocked"}
        className="mail-frame"
        style={{ height: frameHeight(message.text) }}
        title={`Message from ${message.from}`}
        sandbox={FRAME_SANDBOX}
        referrerPolicy="no-referrer"
        srcDoc={frameDocument({ html: html || null, text: message.text }, window.location.origin, imagesShown)}
      />
      {files.length > 0 && (
        <ul className="mail-files" aria-label="Attachments">
          {files.map((part) => {
            const name = part.name ?? `Part ${part.part}`;
            return (
              <li key={part.part}>
                <a href={`/api${partPath(message.id, part.part)}`} download={name}>
                  {name}
                </a>{" "}
                <span className="muted">
                  {part.contentType}, {sizeText(part.size)}
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </article>
  );
}
