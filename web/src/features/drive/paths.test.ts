import { describe, expect, it } from "vitest";
import {
  baseName,
  breadcrumbs,
  driveShown,
  join,
  nameProblem,
  normalize,
  parent,
  pathProblem,
  progressWords,
  sheetLink,
  sizeWords,
  slotsOn,
} from "./paths";

describe("drive paths", () => {
  it("joins, normalizes and splits paths", () => {
    expect(normalize("//Docs/a//b/")).toBe("/Docs/a/b");
    expect(normalize("")).toBe("/");
    expect(join("/", "a.txt")).toBe("/a.txt");
    expect(join("/Docs", "Q1 report.txt")).toBe("/Docs/Q1 report.txt");
    expect(parent("/Docs/a.txt")).toBe("/Docs");
    expect(parent("/a.txt")).toBe("/");
    expect(baseName("/Docs/a.txt")).toBe("a.txt");
  });

  it("makes breadcrumbs from the root down", () => {
    expect(breadcrumbs("/Reports/2026", "Nextcloud")).toEqual([
      { label: "Nextcloud", path: "/" },
      { label: "Reports", path: "/Reports" },
      { label: "2026", path: "/Reports/2026" },
    ]);
    expect(breadcrumbs("/", "Drive")).toEqual([{ label: "Drive", path: "/" }]);
  });

  it("refuses the names the server refuses", () => {
    expect(nameProblem("report.txt")).toBeNull();
    expect(nameProblem("..")).not.toBeNull();
    expect(nameProblem("a/b")).not.toBeNull();
    expect(nameProblem("a\\b")).not.toBeNull();
    expect(nameProblem("bell\u0007")).not.toBeNull();
    expect(nameProblem(" ")).not.toBeNull();
    expect(pathProblem("/Archive/../etc")).not.toBeNull();
    expect(pathProblem("/Archive/q1.txt")).toBeNull();
  });

  it("says sizes and progress in words", () => {
    expect(sizeWords(0)).toBe("0 bytes");
    expect(sizeWords(1)).toBe("1 byte");
    expect(sizeWords(999)).toBe("999 bytes");
    expect(sizeWords(1_200_000)).toBe("1.2 MB");
    expect(sizeWords(2_000_000_000)).toBe("2 GB");
    expect(sizeWords(345_000_000)).toBe("345 MB");
    expect(progressWords(300_000_000, 1_200_000_000)).toBe("25% of 1.2 GB");
  });

  it("shows while any drive's switch is on", () => {
    expect(driveShown(undefined)).toBe(false);
    expect(driveShown({ driveEnabled: false, filesyncBEnabled: true })).toBe(true);
    expect(slotsOn({ driveEnabled: true, filesyncBEnabled: true })).toEqual(["main", "filesync-b"]);
  });

  it("links spreadsheet files to the Sheets page while it is on", () => {
    const on = { sheetsEnabled: true };
    expect(sheetLink(on, "main", "/Plans/Launch Q1.XLSX")).toBe("/sheets?driveId=main&path=%2FPlans%2FLaunch+Q1.XLSX");
    expect(sheetLink(on, "filesync-a", "/a.ods")).toBe("/sheets?driveId=filesync-a&path=%2Fa.ods");
    expect(sheetLink(on, "main", "/data.csv")).toBe("/sheets?driveId=main&path=%2Fdata.csv");
    expect(sheetLink(on, "main", "/notes.txt")).toBeNull();
    expect(sheetLink(on, "main", "/xlsx")).toBeNull();
    expect(sheetLink({ sheetsEnabled: false }, "main", "/a.xlsx")).toBeNull();
    expect(sheetLink(undefined, "main", "/a.xlsx")).toBeNull();
  });
});
