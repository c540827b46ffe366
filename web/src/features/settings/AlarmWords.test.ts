import { describe, expect, it } from "vitest";
import { ApiError } from "../../shared/api/client";
import { fieldsReason } from "./AlarmWords";
import { forecastWords } from "./BalanceWatch";

describe("alarms in words", () => {
  it("asks for the fields on the three codes that mean the words were not read", () => {
    for (const code of ["alarm_words_capped", "alarm_words_unavailable", "alarm_words_unreadable"]) {
      expect(fieldsReason(new ApiError(409, code, "no"))).not.toBeNull();
    }
    expect(fieldsReason(new ApiError(403, "alarms_disabled", "off"))).toBeNull();
    expect(fieldsReason(new Error("network"))).toBeNull();
  });
});

describe("balance forecast", () => {
  const base = {
    vendor: "a" as const,
    vendorName: "Anthropic",
    spentSinceUsd: 0.3,
    burnUsdPerHour: 0,
    rechargeUrl: "https://console.anthropic.com/settings/billing",
  };
  it("says when nothing is watched, when nothing is spent, and the run-out", () => {
    expect(forecastWords({ ...base, balanceUsd: null, setAt: null, remainingUsd: null, runsOutAt: null })).toMatch(
      /not watched/,
    );
    expect(forecastWords({ ...base, balanceUsd: 1, setAt: "x", remainingUsd: 0.7, runsOutAt: null })).toBe(
      "$0.70 left of $1.00; no spend in the last seven days.",
    );
    expect(
      forecastWords({
        ...base,
        balanceUsd: 1,
        setAt: "x",
        remainingUsd: 0.7,
        burnUsdPerHour: 0.1,
        runsOutAt: "2030-01-07T16:00:00Z",
      }),
    ).toMatch(/^\$0\.70 left of \$1\.00, spending \$0\.10 an hour: runs out around /);
  });
});
