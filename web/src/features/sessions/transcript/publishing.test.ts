import { describe, expect, it } from "vitest";
import { documentName, publicationsBySeq } from "./publishing";

const kept = (seq: number, path: string) => ({ seq, path, url: `https://dav.example${path}`, publishedAt: "t" });

describe("publicationsBySeq", () => {
  it("groups the links by message, in the order kept", () => {
    const bySeq = publicationsBySeq([kept(7, "/a.docx"), kept(9, "/b.docx"), kept(7, "/c.docx")]);
    expect(bySeq.get(7)?.map((p) => p.path)).toEqual(["/a.docx", "/c.docx"]);
    expect(bySeq.get(9)?.map((p) => p.path)).toEqual(["/b.docx"]);
    expect(bySeq.get(8)).toBeUndefined();
  });

  it("names a document by its file", () => {
    expect(documentName("/Reports/Release plan.docx")).toBe("Release plan.docx");
    expect(documentName("plan.docx")).toBe("plan.docx");
  });
});
