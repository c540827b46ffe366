/**
 * A forgiving reader of the HTML a clipboard carries, into a small tree: tags, attributes, text
 * with its entities decoded. Clipboard HTML is a fragment (a `<meta>`, `<!--StartFragment-->`
 * markers, inline styles) rather than a document, and the same code must run in the browser and in
 * the unit tests, so this reads it directly instead of through the DOM.
 */

export interface HtmlElement {
  kind: "element";
  tag: string;
  attrs: Readonly<Record<string, string>>;
  children: HtmlNode[];
}

export interface HtmlText {
  kind: "text";
  text: string;
}

export type HtmlNode = HtmlElement | HtmlText;

/** Elements that never have content: their end tag, if written, is ignored. */
const VOID = new Set([
  "area",
  "base",
  "br",
  "col",
  "embed",
  "hr",
  "img",
  "input",
  "link",
  "meta",
  "param",
  "source",
  "track",
  "wbr",
]);

/** Elements whose content is text up to their end tag, never markup. */
const RAW_TEXT = new Set(["script", "style", "textarea", "title"]);

/** An open `<p>`, `<li>` or cell ends where another of its kind (or a block) starts, as browsers read it. */
const CLOSED_BY: Record<string, readonly string[]> = {
  p: ["p", "div", "ul", "ol", "table", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "blockquote", "hr"],
  li: ["li"],
  td: ["td", "th", "tr"],
  th: ["td", "th", "tr"],
  tr: ["tr"],
};

const NAMED_ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: "\u00a0",
  ndash: "\u2013",
  mdash: "\u2014",
  hellip: "\u2026",
  lsquo: "\u2018",
  rsquo: "\u2019",
  ldquo: "\u201c",
  rdquo: "\u201d",
  bull: "\u2022",
  middot: "\u00b7",
  copy: "\u00a9",
  reg: "\u00ae",
  trade: "\u2122",
  times: "\u00d7",
  rarr: "\u2192",
  larr: "\u2190",
  zwj: "\u200d",
  zwnj: "\u200c",
};

/** The text with `&amp;`, `&#39;`, `&#x2014;` and the common named entities decoded; others left as written. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z][a-z0-9]*);/gi, (whole, name: string) => {
    if (name.startsWith("#")) {
      const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[name.toLowerCase()] ?? whole;
  });
}

const ATTRIBUTE = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

function readAttributes(source: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const match of source.matchAll(ATTRIBUTE)) {
    const name = (match[1] ?? "").toLowerCase();
    if (name) attrs[name] = decodeEntities(match[2] ?? match[3] ?? match[4] ?? "");
  }
  return attrs;
}

/** The clipboard's HTML as a tree under one root; comments, doctypes and processing instructions dropped. */
export function parseHtml(html: string): HtmlElement {
  const root: HtmlElement = { kind: "element", tag: "#root", attrs: {}, children: [] };
  const open: HtmlElement[] = [root];
  const current = () => open[open.length - 1] ?? root;
  const addText = (text: string) => {
    if (text) current().children.push({ kind: "text", text: decodeEntities(text) });
  };
  let at = 0;
  while (at < html.length) {
    const lt = html.indexOf("<", at);
    if (lt < 0) {
      addText(html.slice(at));
      break;
    }
    addText(html.slice(at, lt));
    if (html.startsWith("<!--", lt)) {
      const end = html.indexOf("-->", lt + 4);
      at = end < 0 ? html.length : end + 3;
      continue;
    }
    if (html[lt + 1] === "!" || html[lt + 1] === "?") {
      const end = html.indexOf(">", lt);
      at = end < 0 ? html.length : end + 1;
      continue;
    }
    const tag = /^<(\/?)([a-zA-Z][a-zA-Z0-9:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/.exec(html.slice(lt));
    if (!tag) {
      addText("<");
      at = lt + 1;
      continue;
    }
    at = lt + tag[0].length;
    const closing = tag[1] === "/";
    const name = (tag[2] ?? "").toLowerCase();
    if (closing) {
      const index = open.map((e) => e.tag).lastIndexOf(name);
      if (index > 0) open.length = index;
      continue;
    }
    for (;;) {
      const top = current();
      if (top === root || !CLOSED_BY[top.tag]?.includes(name)) break;
      open.pop();
    }
    const element: HtmlElement = { kind: "element", tag: name, attrs: readAttributes(tag[3] ?? ""), children: [] };
    current().children.push(element);
    if (VOID.has(name) || (tag[3] ?? "").trimEnd().endsWith("/")) continue;
    if (RAW_TEXT.has(name)) {
      const end = html.toLowerCase().indexOf(`</${name}`, at);
      const body = html.slice(at, end < 0 ? html.length : end);
      element.children.push({
        kind: "text",
        text: name === "textarea" || name === "title" ? decodeEntities(body) : body,
      });
      const close = end < 0 ? -1 : html.indexOf(">", end);
      at = close < 0 ? html.length : close + 1;
      continue;
    }
    open.push(element);
  }
  return root;
}
