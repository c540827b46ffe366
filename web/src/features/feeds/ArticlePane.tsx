/**
 * The open entry: its title, feed, author and date, the buttons of the keys (M, S, O), and its
 * text in a sandboxed frame: the server's sanitized HTML under the frame's own policy (mail's),
 * remote images held back behind a bar with a Show that gives them their `src` in a new document
 * whose policy lets them through. The link to the original opens in a tab of its own.
 */
import { forwardRef, useState } from "react";
import { When } from "../../shared/ui/When";
import { FRAME_SANDBOX, frameDocument } from "../../shared/frames/sandboxedFrame";
import type { FeedEntry } from "./api";
import { safeLink, withImages, type ReaderCommand } from "./reader";

interface Props {
  entry: FeedEntry;
  now: number;
  onCommand: (command: ReaderCommand) => void;
  onBack?: (() => void) | undefined;
}

export const ArticlePane = forwardRef<HTMLDivElement, Props>(function ArticlePane(
  { entry, now, onCommand, onBack },
  ref,
) {
  // Keyed by entry on the page, so a new entry starts with its images held back again.
  const [imagesShown, setImagesShown] = useState(false);
  const held = imagesShown ? 0 : entry.remoteImages;
  const link = safeLink(entry.link);
  const html = imagesShown ? withImages(entry.content) : entry.content;
  const button = (command: ReaderCommand, label: string, key: string) => (
    <button type="button" aria-keyshortcuts={key} title={`${label} (${key})`} onClick={() => onCommand(command)}>
      {label}
    </button>
  );
  return (
    <article className="feeds-article" ref={ref} tabIndex={-1} aria-labelledby="feeds-article-title">
      <div className="feeds-article-bar">
        {onBack && (
          <button type="button" className="feeds-back" onClick={onBack}>
            Back to the list
          </button>
        )}
        <div className="feeds-article-buttons" role="toolbar" aria-label="Entry">
          {button("toggleRead", entry.read ? "Mark unread" : "Mark read", "M")}
          {button("toggleStar", entry.starred ? "Unstar" : "Star", "S")}
          {link && (
            <a
              className="feeds-original touch-link"
              href={link}
              target="_blank"
              rel="noopener noreferrer"
              aria-keyshortcuts="O"
              title="Open the original (O)"
            >
              Open original
            </a>
          )}
        </div>
      </div>
      <h2 id="feeds-article-title" className="feeds-article-title">
        {entry.title || "(untitled)"}
      </h2>
      <p className="muted feeds-article-meta">
        {entry.feedTitle}
        {entry.author && <> · {entry.author}</>}
        {" · "}
        <When at={entry.publishedAt ?? entry.fetchedAt} now={now} />
        {entry.starred && (
          <span className="feeds-star" aria-label="Starred">
            {" "}
            ★
          </span>
        )}
      </p>
      {held > 0 && (
        <div className="feeds-images-bar" role="status">
          <span>
            {held} remote {held === 1 ? "image" : "images"} blocked
          </span>
          <span aria-hidden="true"> — </span>
          <button type="button" onClick={() => setImagesShown(true)}>
            Show<span className="visually-hidden"> remote images of this entry</span>
          </button>
        </div>
      )}
      <iframe
        // A new document when images are let through, so the frame's policy is the new one.
        key={imagesShown ? "images" : "blocked"}
        className="feeds-frame"
        title={`Entry: ${entry.title || "(untitled)"}`}
        sandbox={FRAME_SANDBOX}
        referrerPolicy="no-referrer"
        srcDoc={frameDocument({ html: html || null, text: entry.summary }, window.location.origin, imagesShown)}
      />
    </article>
  );
});
