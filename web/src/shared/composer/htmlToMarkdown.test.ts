import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { htmlToMarkdown } from "./htmlToMarkdown";
import { decodeEntities, parseHtml } from "./htmlTree";

/**
 * Real clipboard samples. `chrome-docs-page.clipboard` is what Chromium's paste event carried after
 * copying a documentation page's article (Ctrl+C on a selection, Ctrl+V into a textarea): its
 * computed styles inlined on every block. `google-docs.clipboard` is written in the shape a
 * Google Docs copy takes (no Google Docs runs here): the `<b style="font-weight:normal"
 * id="docs-internal-guid-…">` wrapper, bold and italic as span styles, lists nested as siblings,
 * links through Google's redirector, a table in a `<div>`. The `.clipboard` name keeps the
 * formatter off them: they stay byte for byte as the clipboard held them.
 */
const fixture = (name: string) => readFileSync(join(import.meta.dirname, "fixtures", name), "utf8");

describe("a page copied in Chrome", () => {
  const markdown = htmlToMarkdown(fixture("chrome-docs-page.clipboard"));

  it("becomes the same document in Markdown", () => {
    expect(markdown).toBe(
      [
        "## Rate limits",
        "",
        "Every token may make **5,000 requests per hour**. The remaining budget is in the `X-RateLimit-Remaining` header; see [the error reference](https://docs.example.com/api/errors#429) for what a *429* means.",
        "",
        "### When you hit the limit",
        "",
        "1. Read `Retry-After`.",
        "2. Wait that many seconds, then retry:",
        "   - with the same token",
        "   - never in a tight loop",
        "3. Log the request id.",
        "",
        "```bash",
        "curl -i https://api.example.com/v1/items \\",
        '  -H "Authorization: Bearer $TOKEN"',
        "```",
        "",
        "| Plan | Requests per hour |",
        "| --- | --- |",
        "| Free | 60 |",
        "| Team | 5,000 |",
        "",
        "> Limits are per token, not per IP address.",
      ].join("\n"),
    );
  });

  it("keeps none of the inlined styles", () => {
    expect(markdown).not.toMatch(/style|rgb\(|font-/);
  });
});

describe("a Google Docs copy", () => {
  const markdown = htmlToMarkdown(fixture("google-docs.clipboard"));

  it("reads bold and italic from styles, and the whole-paste <b> wrapper as not bold", () => {
    expect(markdown).toContain("We ship on **Thursday**, after the");
    expect(markdown).toContain("- *Tag* the release");
    expect(markdown.startsWith("# Launch plan\n")).toBe(true);
  });

  it("links to the page Google's redirector names", () => {
    expect(markdown).toContain("[release checklist](https://example.com/checklist)");
  });

  it("nests a list written as a sibling of its parent item", () => {
    expect(markdown).toContain("- Freeze the branch\n- *Tag* the release\n  - Sign the tag");
  });

  it("makes its table a Markdown table with a plain header, escaping a pipe in a cell", () => {
    expect(markdown).toContain("| Owner | Task |\n| --- | --- |\n| Ana | Changelog \\| notes |");
  });

  it("reads a monospace font as code", () => {
    expect(markdown.endsWith("`make release`")).toBe(true);
  });
});

describe("smaller pastes", () => {
  it("ignores Windows' fragment markers and the document around them", () => {
    const html =
      "<html><body>\r\n<!--StartFragment--><p>One <b>two</b></p><p>three &amp; <i>four</i></p><!--EndFragment-->\r\n</body>\r\n</html>";
    expect(htmlToMarkdown(html)).toBe("One **two**\n\nthree & *four*");
  });

  it("keeps line breaks, drops scripts and styles, escapes Markdown's characters in text", () => {
    expect(htmlToMarkdown("<style>p{}</style><p>a_b *c*<br>next</p><script>alert(1)</script>")).toBe(
      "a\\_b \\*c\\*\nnext",
    );
  });

  it("writes an image with its alt text and a numbered list from its start", () => {
    expect(htmlToMarkdown('<img src="https://x.test/a.png" alt="chart"><ol start="4"><li>d</li><li>e</li></ol>')).toBe(
      "![chart](https://x.test/a.png)\n\n4. d\n5. e",
    );
  });

  it("keeps spaces outside the bold marks, and a code span around a backtick", () => {
    expect(htmlToMarkdown("<p>a<strong> bold </strong>b <code>x`y</code></p>")).toBe("a **bold** b ``x`y``");
  });

  it("says nothing for HTML with no text", () => {
    expect(htmlToMarkdown("<meta charset='utf-8'><br>")).toBe("");
  });
});

describe("the HTML reader", () => {
  it("decodes entities, numeric and named, and leaves unknown ones", () => {
    expect(decodeEntities("&lt;a&gt; &#39;x&#x27; &mdash; &nosuch;")).toBe("<a> 'x' \u2014 &nosuch;");
  });

  it("closes an open paragraph or item where the next begins, as browsers do", () => {
    const root = parseHtml("<ul><li>a<li>b</ul><p>one<p>two");
    const tags = root.children.map((n) => (n.kind === "element" ? n.tag : "#text"));
    expect(tags).toEqual(["ul", "p", "p"]);
    const list = root.children[0];
    expect(list?.kind === "element" ? list.children.length : 0).toBe(2);
  });
});
