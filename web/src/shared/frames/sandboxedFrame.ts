/**
 * The document a message's sandboxed frame shows: the server's sanitized HTML under a
 * Content-Security-Policy of its own, so that even HTML the sanitizer let through loads no remote
 * image, font or style until the person asks, runs no script and posts no form. The frame's
 * sandbox (no allow-scripts, allow-forms or allow-same-origin) is the second wall.
 */

/** The policy: this server's parts (`cid:` images, rewritten to its URLs) and data: always; remote images only when allowed. */
export function framePolicy(origin: string, remoteImages: boolean): string {
  const images = ["data:", origin, ...(remoteImages ? ["https:", "http:"] : [])].join(" ");
  return [
    "default-src 'none'",
    `img-src ${images}`,
    "style-src 'unsafe-inline'",
    "font-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
  ].join("; ");
}

const escapeAttribute = (text: string) => text.replace(/&/g, "&amp;").replace(/"/g, "&quot;");
const escapeText = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * The frame's whole document: the policy first (a meta policy binds only what follows it), links
 * opening in a new tab, then the body; a message without HTML shows its text as written.
 */
export function frameDocument(message: { html: string | null; text: string }, origin: string, remoteImages: boolean) {
  const body = message.html ?? `<pre class="plain">${escapeText(message.text)}</pre>`;
  return `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${escapeAttribute(
    framePolicy(origin, remoteImages),
  )}"><base target="_blank"><style>body{margin:0;padding:8px;font:15px/1.5 system-ui,sans-serif;color:#1a1a1a;background:#fff;overflow-wrap:anywhere}img{max-width:100%;height:auto}pre.plain{white-space:pre-wrap;font:inherit}</style></head><body>${body}</body></html>`;
}

/** The sandbox: links may open a tab of their own; nothing else of what a page can do. */
export const FRAME_SANDBOX = "allow-popups allow-popups-to-escape-sandbox";

/**
 * How tall a message's frame starts: the frame cannot be measured from outside its sandbox, so
 * its height is guessed from the text's length (about 90 characters a line), between a short
 * note's and most of the window.
 */
export function frameHeight(text: string): number {
  const lines = text.split("\n").reduce((sum, line) => sum + Math.max(1, Math.ceil(line.length / 90)), 0);
  return Math.min(640, Math.max(140, lines * 24 + 48));
}

const PART_SOURCE = /\bsrc\s*=\s*"((?:\/api)?\/mail\/messages\/[^"/]+\/parts\/[^"]+)"/g;

/**
 * The message's own parts its HTML shows (`cid:` images, rewritten by the server to their
 * `/mail/messages/{id}/parts/{part}` URLs): the sandboxed frame has no origin to send the session
 * cookie from, so the page reads them and hands them in as `data:` URLs.
 */
export function partSources(html: string): string[] {
  return [...new Set([...html.matchAll(PART_SOURCE)].map((match) => match[1] ?? ""))].filter(Boolean);
}

/** The API path a part source is read from (the page's calls add `/api` themselves). */
export const partApiPath = (source: string) => source.replace(/^\/api(?=\/)/, "").replace(/&amp;/g, "&");

/** The HTML with each part source replaced by what `inlined` holds for it; the others left as they are. */
export function withSources(html: string, inlined: ReadonlyMap<string, string>): string {
  return html.replace(PART_SOURCE, (whole, source: string) => {
    const data = inlined.get(source);
    return data === undefined ? whole : `src="${data}"`;
  });
}
