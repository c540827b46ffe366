/**
 * What a paste puts in the composer, apart from the clipboard: whether the text is one link to
 * import (`docImportEnabled`), how an imported document reads with its source noted, and the box's
 * text with something put where the selection was.
 */

/** `POST /imports/url`'s answer (issue 65): the document as Markdown, its title and where it came from. */
export interface ImportedDocument {
  markdown: string;
  title: string | null;
  source: string;
}

/** The pasted text when it is a single http(s) address and nothing else; null otherwise. */
export function loneUrl(pasted: string): string | null {
  const text = pasted.trim();
  if (!text || /\s/.test(text)) return null;
  try {
    const url = new URL(text);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname ? text : null;
  } catch {
    return null;
  }
}

/** The document as it goes in the box: a line naming its source (a link titled by the document), then its text. */
export function importedText(document: ImportedDocument): string {
  const title = document.title?.trim();
  const source = title ? `[${title.replace(/([[\]])/g, "\\$1")}](${document.source})` : `<${document.source}>`;
  return `Source: ${source}\n\n${document.markdown.trim()}\n`;
}

/** `text` with `insertion` in place of the characters from `start` to `end`; the caret goes after it. */
export function insertAt(text: string, start: number, end: number, insertion: string): { text: string; caret: number } {
  const from = Math.max(0, Math.min(start, text.length));
  const to = Math.max(from, Math.min(end, text.length));
  return { text: text.slice(0, from) + insertion + text.slice(to), caret: from + insertion.length };
}

/**
 * The box's text once the import arrived: the pasted address, where it still stands, replaced by
 * the document; null when the address was edited away meanwhile (nothing is put back then).
 */
export function replaceUrl(text: string, url: string, document: ImportedDocument): string | null {
  const at = text.indexOf(url);
  if (at < 0) return null;
  return text.slice(0, at) + importedText(document) + text.slice(at + url.length);
}
