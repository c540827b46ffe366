/**
 * Pasted rich text as Markdown (`pasteRichTextAsMarkdown`): headings, paragraphs, bold and
 * italic, links, inline code and code blocks, lists (nested, numbered), block quotes, images and
 * tables, from what a browser or a document editor puts on the clipboard. Editors mark bold and
 * italic with inline styles (Google Docs wraps the whole paste in a `<b style="font-weight:normal">`
 * that is not bold at all), so styles are read as well as tags; what carries no meaning (styles,
 * scripts, `<meta>`) is dropped.
 */
import { parseHtml, type HtmlElement, type HtmlNode } from "./htmlTree";

const BLOCKS = new Set([
  "address",
  "article",
  "aside",
  "blockquote",
  "dd",
  "div",
  "dl",
  "dt",
  "figcaption",
  "figure",
  "footer",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "header",
  "hr",
  "li",
  "main",
  "nav",
  "ol",
  "p",
  "pre",
  "section",
  "table",
  "ul",
]);

const DROPPED = new Set(["head", "meta", "link", "script", "style", "title", "template", "noscript", "button", "svg"]);

/** One style property's value as written (`font-weight:700` → "700"), lower-cased. */
function styleOf(element: HtmlElement, property: string): string | null {
  const style = element.attrs.style;
  if (!style) return null;
  for (const declaration of style.split(";")) {
    const colon = declaration.indexOf(":");
    if (colon < 0) continue;
    if (declaration.slice(0, colon).trim().toLowerCase() === property) {
      return declaration
        .slice(colon + 1)
        .replace(/!important/i, "")
        .trim()
        .toLowerCase();
    }
  }
  return null;
}

function isBold(element: HtmlElement): boolean {
  const weight = styleOf(element, "font-weight");
  if (weight !== null) return weight === "bold" || weight === "bolder" || Number(weight) >= 600;
  return element.tag === "b" || element.tag === "strong";
}

function isItalic(element: HtmlElement): boolean {
  const style = styleOf(element, "font-style");
  if (style !== null) return style === "italic" || style === "oblique";
  return element.tag === "i" || element.tag === "em";
}

function isMonospace(element: HtmlElement): boolean {
  if (element.tag === "code" || element.tag === "kbd" || element.tag === "samp" || element.tag === "tt") return true;
  const family = styleOf(element, "font-family");
  return family !== null && /mono|courier|consolas/.test(family);
}

function textOf(node: HtmlNode): string {
  return node.kind === "text" ? node.text : node.children.map(textOf).join("");
}

/** Markdown's own characters in plain text, escaped where they would start markup. */
function escapeText(text: string): string {
  return text.replace(/([\\`*_[\]])/g, "\\$1");
}

/** Inline content on one line: runs of whitespace (newlines too) are one space, as the browser drew them. */
function inline(nodes: readonly HtmlNode[]): string {
  return nodes.map(inlineNode).join("");
}

/** Wraps `body` in `mark` on both sides, keeping the spaces at its edges outside (`** bold**` is not bold). */
function wrap(body: string, mark: string): string {
  const match = /^(\s*)([\s\S]*?)(\s*)$/.exec(body);
  const [, lead = "", core = "", trail = ""] = match ?? [];
  return core ? `${lead}${mark}${core}${mark}${trail}` : body;
}

/** Google Docs sends its links through its redirector (`google.com/url?q=…`): the link is the page it names. */
function linkTarget(href: string): string {
  const redirect = /^https:\/\/www\.google\.com\/url\?(.*)$/.exec(href);
  const named = redirect ? new URLSearchParams(redirect[1]).get("q") : null;
  return (named ?? href).replace(/ /g, "%20");
}

function codeSpan(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  const pad = text.startsWith("`") || text.endsWith("`") ? " " : "";
  return `${fence}${pad}${text}${pad}${fence}`;
}

function inlineNode(node: HtmlNode): string {
  if (node.kind === "text") return escapeText(node.text.replace(/\s+/g, " "));
  const element = node;
  if (DROPPED.has(element.tag)) return "";
  if (element.tag === "br") return "\n";
  if (element.tag === "img") {
    const src = element.attrs.src ?? "";
    return src && !src.startsWith("data:") ? `![${escapeText(element.attrs.alt ?? "")}](${src})` : "";
  }
  if (isMonospace(element)) {
    const code = textOf(element).replace(/\s+/g, " ");
    return code.trim() ? codeSpan(code) : code;
  }
  let body = inline(element.children);
  if (element.tag === "a") {
    const href = element.attrs.href ?? "";
    const label = body.trim();
    if (href && !href.startsWith("javascript:") && !href.startsWith("#")) {
      return label ? `[${label}](${linkTarget(href)})` : "";
    }
    return body;
  }
  if (element.tag === "del" || element.tag === "s" || element.tag === "strike") body = wrap(body, "~~");
  if (isItalic(element)) body = wrap(body, "*");
  if (isBold(element)) body = wrap(body, "**");
  return body;
}

/** A paragraph's inline text tidied: no space at line starts or ends, at most one blank line. */
function tidyLines(text: string): string {
  return text
    .split("\n")
    .map((line) => line.replace(/[ \t\u00a0]+$/g, "").replace(/^[ \u00a0]+/, ""))
    .join("\n")
    .trim();
}

/** Whether the element holds any block (a `<p>` in a list item, a `<div>` around a table). */
function hasBlock(element: HtmlElement): boolean {
  return element.children.some((child) => child.kind === "element" && (BLOCKS.has(child.tag) || hasBlock(child)));
}

/** The Markdown blocks of `nodes`: inline runs between blocks are paragraphs of their own. */
function blocks(nodes: readonly HtmlNode[]): string[] {
  const out: string[] = [];
  let run: HtmlNode[] = [];
  const flush = () => {
    const text = tidyLines(inline(run));
    if (text) out.push(text);
    run = [];
  };
  for (const node of nodes) {
    if (node.kind === "element" && DROPPED.has(node.tag)) continue;
    if (node.kind === "element" && (BLOCKS.has(node.tag) || hasBlock(node))) {
      flush();
      out.push(...block(node));
    } else {
      run.push(node);
    }
  }
  flush();
  return out;
}

function block(element: HtmlElement): string[] {
  const tag = element.tag;
  const heading = /^h([1-6])$/.exec(tag);
  if (heading) {
    const text = tidyLines(inline(element.children)).replace(/\n/g, " ");
    // A heading is bold already: an editor's bold style on it says nothing more.
    return text ? [`${"#".repeat(Number(heading[1]))} ${text.replace(/^\*\*(.*)\*\*$/, "$1")}`] : [];
  }
  switch (tag) {
    case "hr":
      return ["---"];
    case "pre":
      return [codeBlock(element)];
    case "ul":
    case "ol":
      return [list(element, 0)];
    case "blockquote":
      return [
        blocks(element.children)
          .join("\n\n")
          .split("\n")
          .map((line) => (line ? `> ${line}` : ">"))
          .join("\n"),
      ];
    case "table":
      return table(element);
    default:
      return blocks(element.children);
  }
}

function codeBlock(element: HtmlElement): string {
  const code = element.children.find((c): c is HtmlElement => c.kind === "element" && c.tag === "code");
  const classes = `${code?.attrs.class ?? ""} ${element.attrs.class ?? ""}`;
  const language = /(?:language|lang)-([\w+#-]+)/.exec(classes)?.[1] ?? "";
  const text = textOf(element).replace(/\n$/, "");
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  return `${fence}${language}\n${text}\n${fence}`;
}

/** A list with its items' marks; a nested list is indented under its item by the mark's width. */
function list(element: HtmlElement, depth: number): string {
  const ordered = element.tag === "ol";
  let number = Number(element.attrs.start ?? "1");
  if (!Number.isFinite(number)) number = 1;
  const lines: string[] = [];
  for (const item of element.children) {
    if (item.kind !== "element") continue;
    if (item.tag === "ul" || item.tag === "ol") {
      lines.push(indent(list(item, depth + 1), "  "));
      continue;
    }
    if (item.tag !== "li") continue;
    const mark = ordered ? `${number}. ` : "- ";
    number += 1;
    const parts: string[] = [];
    let run: HtmlNode[] = [];
    const flush = () => {
      const text = tidyLines(inline(run));
      if (text) parts.push(text);
      run = [];
    };
    for (const child of item.children) {
      if (child.kind === "element" && (child.tag === "ul" || child.tag === "ol")) {
        flush();
        parts.push(list(child, depth + 1));
      } else if (child.kind === "element" && (BLOCKS.has(child.tag) || hasBlock(child))) {
        flush();
        parts.push(...block(child));
      } else {
        run.push(child);
      }
    }
    flush();
    const body = parts.join("\n");
    lines.push(`${mark}${indent(body, " ".repeat(mark.length)).trimStart()}`);
  }
  return lines.join("\n");
}

function indent(text: string, by: string): string {
  return text
    .split("\n")
    .map((line) => (line ? by + line : line))
    .join("\n");
}

function rowsOf(element: HtmlElement): HtmlElement[] {
  const rows: HtmlElement[] = [];
  for (const child of element.children) {
    if (child.kind !== "element") continue;
    if (child.tag === "tr") rows.push(child);
    else if (child.tag === "thead" || child.tag === "tbody" || child.tag === "tfoot") rows.push(...rowsOf(child));
  }
  return rows;
}

function cell(element: HtmlElement): string {
  return blocks(element.children).join(" ").replace(/\n+/g, " ").replace(/\|/g, "\\|").trim();
}

/** A GitHub table: the first row is the header (Markdown has no table without one). */
function table(element: HtmlElement): string[] {
  const rows = rowsOf(element).map((row) =>
    row.children.filter((c): c is HtmlElement => c.kind === "element" && (c.tag === "td" || c.tag === "th")).map(cell),
  );
  const width = Math.max(0, ...rows.map((row) => row.length));
  if (width === 0) return [];
  const line = (cells: readonly string[]) =>
    `| ${Array.from({ length: width }, (_, i) => cells[i] ?? "").join(" | ")} |`;
  const [rawHead = [], ...body] = rows;
  // A header row is bold already: an editor's bold style on its cells says nothing more.
  const head = rawHead.map((text) => text.replace(/^\*\*(.*)\*\*$/, "$1"));
  return [[line(head), line(Array.from({ length: width }, () => "---")), ...body.map(line)].join("\n")];
}

/** The clipboard's HTML as Markdown; "" when it holds no text. */
export function htmlToMarkdown(html: string): string {
  return blocks(parseHtml(html).children)
    .filter((b) => b.trim() !== "")
    .join("\n\n")
    .replace(/\u00a0/g, " ")
    .trim();
}
