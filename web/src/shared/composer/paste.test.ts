import { describe, expect, it } from "vitest";
import { importedText, insertAt, loneUrl, replaceUrl } from "./paste";

describe("a pasted link", () => {
  it("is one http or https address with nothing else", () => {
    expect(loneUrl("https://example.com/doc.md")).toBe("https://example.com/doc.md");
    expect(loneUrl("  http://127.0.0.1:8000/notes.txt\n")).toBe("http://127.0.0.1:8000/notes.txt");
  });

  it("is not text around an address, another scheme, or a path", () => {
    expect(loneUrl("see https://example.com")).toBeNull();
    expect(loneUrl("ftp://example.com/a")).toBeNull();
    expect(loneUrl("javascript:alert(1)")).toBeNull();
    expect(loneUrl("/home/me/file.md")).toBeNull();
    expect(loneUrl("")).toBeNull();
  });
});

const doc = { markdown: "# Notes\n\nHello.\n\n", title: "Notes [draft]", source: "https://example.com/n.md" };

describe("an imported document", () => {
  it("says where it came from, then its Markdown", () => {
    expect(importedText(doc)).toBe("Source: [Notes \\[draft\\]](https://example.com/n.md)\n\n# Notes\n\nHello.\n");
  });

  it("names its source by address when it has no title", () => {
    expect(importedText({ ...doc, title: null })).toMatch(/^Source: <https:\/\/example\.com\/n\.md>\n\n# Notes/);
  });

  it("takes the place of the address pasted, keeping what was typed around it", () => {
    expect(replaceUrl("Summarise https://example.com/n.md please", "https://example.com/n.md", doc)).toBe(
      `Summarise ${importedText(doc)} please`,
    );
  });

  it("is dropped when the address was edited away while it loaded", () => {
    expect(replaceUrl("Summarise this", "https://example.com/n.md", doc)).toBeNull();
  });
});

describe("putting text where the selection is", () => {
  it("replaces the selection and puts the caret after the insertion", () => {
    expect(insertAt("hello world", 6, 11, "there")).toEqual({ text: "hello there", caret: 11 });
    expect(insertAt("ab", 1, 1, "X")).toEqual({ text: "aXb", caret: 2 });
  });

  it("keeps a selection past the end inside the text", () => {
    expect(insertAt("ab", 5, 9, "c")).toEqual({ text: "abc", caret: 3 });
  });
});
