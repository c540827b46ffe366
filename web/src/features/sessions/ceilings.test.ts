import { describe, expect, it } from "vitest";
import { costGauge, dollars, turnsGauge } from "./ceilings";

describe("ceiling gauges", () => {
  it("measures cost against the stored ceiling and warns past it", () => {
    expect(costGauge({ costUsd: 1.25, maxDollarsPerSession: 5 })).toEqual({
      label: "$1.25",
      ceilingLabel: "$5.00",
      fraction: 0.25,
      over: false,
    });
    expect(costGauge({ costUsd: 7.5, maxDollarsPerSession: 5 })).toMatchObject({ fraction: 1, over: true });
  });

  it("has no cost gauge without a price and no fraction without a ceiling", () => {
    expect(costGauge({ costUsd: null, maxDollarsPerSession: 5 })).toBeNull();
    expect(turnsGauge({ turns: 3, maxTurnsPerSession: 0 })).toEqual({
      label: "3",
      ceilingLabel: null,
      fraction: null,
      over: false,
    });
    expect(turnsGauge({ turns: 51, maxTurnsPerSession: 50 }).over).toBe(true);
  });

  it("writes dollars with cents below ten", () => {
    expect(dollars(0.004)).toBe("$0.00");
    expect(dollars(12.345)).toBe("$12.3");
  });
});
