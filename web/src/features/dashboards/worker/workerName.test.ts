import { describe, expect, it } from "vitest";
import { dashboardOfWorkerName, dashboardWorkerName } from "./workerName";

describe("the dashboard a worker's name gives", () => {
  it("reads back the dashboard a name was made for", () => {
    expect(dashboardOfWorkerName(dashboardWorkerName("01a21bc79d9f7593"))).toBe("01a21bc79d9f7593");
  });

  it("gives none for a worker not named for a dashboard, or named for none", () => {
    expect(dashboardOfWorkerName("")).toBeNull();
    expect(dashboardOfWorkerName("search")).toBeNull();
    expect(dashboardOfWorkerName(dashboardWorkerName(""))).toBeNull();
  });
});
