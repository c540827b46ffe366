import { describe, expect, test } from "vitest";
import type { Bookmark } from "../../shared/api/types.generated";
import { createBody, draftOf, moveItem, patchBody, validateDraft } from "./bookmarks";

const link: Bookmark = {
  id: "b1",
  title: "Docs",
  kind: "url",
  url: "https://example.com/docs",
  engine: null,
  cwd: null,
  prompt: null,
  position: 0,
  createdAt: "2026-01-01T00:00:00Z",
  updatedAt: "2026-01-01T00:00:00Z",
};
const recipe: Bookmark = {
  ...link,
  id: "b2",
  title: "Review",
  kind: "session",
  url: null,
  engine: "claude",
  cwd: "/repo",
  prompt: "Review the open PRs",
};

describe("moveItem", () => {
  test("moves down and up, keeping the rest in order", () => {
    expect(moveItem(["a", "b", "c", "d"], 0, 2)).toEqual(["b", "c", "a", "d"]);
    expect(moveItem(["a", "b", "c", "d"], 3, 0)).toEqual(["d", "a", "b", "c"]);
    expect(moveItem(["a", "b", "c"], 1, 2)).toEqual(["a", "c", "b"]);
  });

  test("a drop in place or out of range changes nothing, and the input is not mutated", () => {
    const items = ["a", "b"];
    expect(moveItem(items, 1, 1)).toEqual(["a", "b"]);
    expect(moveItem(items, -1, 0)).toEqual(["a", "b"]);
    expect(moveItem(items, 0, 2)).toEqual(["a", "b"]);
    expect(moveItem(items, 0, 1)).not.toBe(items);
    expect(items).toEqual(["a", "b"]);
  });
});

describe("validateDraft", () => {
  const url = { ...draftOf(), title: "Docs", url: "https://example.com" };
  const session = { ...draftOf(), kind: "session" as const, title: "Run", prompt: "Do it" };

  test("accepts whole drafts of either kind", () => {
    expect(validateDraft(url)).toBeNull();
    expect(validateDraft({ ...url, url: "http://x.y/a?b=c" })).toBeNull();
    expect(validateDraft(session)).toBeNull();
    expect(validateDraft({ ...session, cwd: "/work", engine: "codex" })).toBeNull();
  });

  test("refuses what the server would refuse", () => {
    expect(validateDraft({ ...url, title: "   " })).toMatch(/title/);
    expect(validateDraft({ ...url, title: "x".repeat(201) })).toMatch(/title/);
    for (const bad of ["", "example.com", "ftp://x", "http://", "https://a b", `https://${"x".repeat(2000)}`]) {
      expect(validateDraft({ ...url, url: bad }), bad).toMatch(/URL/);
    }
    expect(validateDraft({ ...session, prompt: " \n" })).toMatch(/prompt/);
    expect(validateDraft({ ...session, cwd: "relative/dir" })).toMatch(/absolute/);
  });
});

describe("createBody", () => {
  test("sends the kind's fields trimmed and leaves out blank optional ones", () => {
    expect(createBody({ ...draftOf(), title: " Docs ", url: " https://e.com ", prompt: "ignored" })).toEqual({
      title: "Docs",
      kind: "url",
      url: "https://e.com",
    });
    expect(createBody({ ...draftOf(), kind: "session", title: "Run", prompt: "Go", engine: " ", cwd: "/w" })).toEqual({
      title: "Run",
      kind: "session",
      prompt: "Go",
      cwd: "/w",
    });
  });
});

describe("patchBody", () => {
  test("an unchanged draft sends nothing", () => {
    expect(patchBody(link, draftOf(link))).toEqual({});
    expect(patchBody(recipe, draftOf(recipe))).toEqual({});
  });

  test("sends only the changed fields, a blanked one as empty", () => {
    expect(patchBody(link, { ...draftOf(link), title: "New docs " })).toEqual({ title: "New docs" });
    expect(patchBody(recipe, { ...draftOf(recipe), engine: "", prompt: "Other" })).toEqual({
      engine: "",
      prompt: "Other",
    });
  });

  test("a kind change clears the old kind's fields", () => {
    expect(patchBody(link, { ...draftOf(link), kind: "session", prompt: "Go" })).toEqual({
      kind: "session",
      url: "",
      prompt: "Go",
    });
    expect(patchBody(recipe, { ...draftOf(recipe), kind: "url", url: "https://e.com" })).toEqual({
      kind: "url",
      url: "https://e.com",
      prompt: "",
      engine: "",
      cwd: "",
    });
  });
});
