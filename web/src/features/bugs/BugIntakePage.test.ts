import { describe, expect, it } from "vitest";
import { stepsFor } from "./BugIntakePage";

describe("stepsFor", () => {
  it("offers what the server takes in each state", () => {
    expect(stepsFor("new")).toEqual(["hold", "release", "dismiss"]);
    expect(stepsFor("held")).toEqual(["release", "dismiss"]);
    expect(stepsFor("unrouted")).toEqual(["release", "dismiss"]);
    expect(stepsFor("triaging")).toEqual(["dismiss"]);
    expect(stepsFor("triaged")).toEqual(["dismiss"]);
    expect(stepsFor("dismissed")).toEqual([]);
  });
});
