import { describe, expect, it } from "vitest";
import { columnIndex, parseColumns } from "./sheetImport";

describe("sheet import columns", () => {
  it("reads column letters", () => {
    expect(columnIndex("A")).toBe(0);
    expect(columnIndex(" d ")).toBe(3);
    expect(columnIndex("AA")).toBe(26);
    expect(columnIndex("1")).toBeNull();
    expect(columnIndex("")).toBeNull();
  });

  it("reads letter:type pairs into mappings", () => {
    expect(parseColumns("B:number, c:Checkbox,D : status")).toEqual({
      columns: [
        { column: 1, type: "number" },
        { column: 2, type: "checkbox" },
        { column: 3, type: "status" },
      ],
    });
    expect(parseColumns("")).toEqual({ columns: [] });
  });

  it("names the part it cannot read", () => {
    expect(parseColumns("B:people")).toHaveProperty("problem", expect.stringContaining("B:people"));
    expect(parseColumns("7:number")).toHaveProperty("problem", expect.stringContaining("column letter"));
    expect(parseColumns("B:number, b:text")).toEqual({ problem: "Column B is named twice." });
  });
});
