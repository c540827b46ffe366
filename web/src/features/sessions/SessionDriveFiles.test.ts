import { describe, expect, it } from "vitest";
import { attachedWords } from "./SessionDriveFiles";

describe("attachedWords", () => {
  it("names the file as it landed in the folder", () => {
    expect(attachedWords({ path: "budget (2).csv", size: 19 })).toBe(
      "Attached as budget (2).csv in the session's folder (19 bytes).",
    );
  });
});
