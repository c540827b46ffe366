import { describe, expect, it } from "vitest";
import { bytes, cpuFigure, cpuTime, memory, processCount, resourceUse } from "./resourceUse";
import { session } from "./fixtures";

const USED = { cpuSeconds: 12.43, peakMemoryMb: 412, processes: 7, readBytes: 1_234_567, writtenBytes: 340_120 };

describe("what a session used", () => {
  it("shows nothing when the session reports no figures (a runner, no cgroups)", () => {
    expect(resourceUse(null)).toBeNull();
    expect(cpuFigure(session("s"))).toBeNull();
  });

  it("says each figure in words", () => {
    expect(resourceUse(USED)).toEqual({
      cpu: "12.4 s CPU",
      memory: "412 MB peak",
      processes: "7 processes",
      disk: "1.2 MB read, 340 kB written",
    });
    expect(cpuFigure(session("s", { resources: USED }))).toBe("12.4 s");
  });

  it("shows a session that has not run yet as zeros, not as nothing", () => {
    expect(resourceUse({ cpuSeconds: 0, peakMemoryMb: 0, processes: 0, readBytes: 0, writtenBytes: 0 })).toEqual({
      cpu: "0.0 s CPU",
      memory: "0 MB peak",
      processes: "0 processes",
      disk: "0 B read, 0 B written",
    });
  });
});

describe("the units", () => {
  it("says CPU time in seconds, then minutes, then hours", () => {
    expect(cpuTime(0.04)).toBe("0.0 s");
    expect(cpuTime(0.36)).toBe("0.4 s");
    expect(cpuTime(59.9)).toBe("59.9 s");
    expect(cpuTime(59.96)).toBe("1 min");
    expect(cpuTime(182)).toBe("3 min 2 s");
    expect(cpuTime(3599.4)).toBe("59 min 59 s");
    expect(cpuTime(3600)).toBe("1 h");
    expect(cpuTime(3900)).toBe("1 h 5 min");
    expect(cpuTime(93_600)).toBe("26 h");
    expect(cpuTime(-1)).toBe("0.0 s");
  });

  it("says memory in MB, then GB", () => {
    expect(memory(412)).toBe("412 MB");
    expect(memory(1023)).toBe("1023 MB");
    expect(memory(1024)).toBe("1.0 GB");
    expect(memory(3482)).toBe("3.4 GB");
    expect(memory(64_000)).toBe("63 GB");
  });

  it("says bytes in decimal units, one decimal below 10", () => {
    expect(bytes(0)).toBe("0 B");
    expect(bytes(999)).toBe("999 B");
    expect(bytes(1000)).toBe("1.0 kB");
    expect(bytes(340_120)).toBe("340 kB");
    expect(bytes(999_960)).toBe("1.0 MB");
    expect(bytes(1_234_567)).toBe("1.2 MB");
    expect(bytes(27_400_000_000)).toBe("27 GB");
    expect(bytes(5e15)).toBe("5000 TB");
  });

  it("counts processes", () => {
    expect(processCount(1)).toBe("1 process");
    expect(processCount(7)).toBe("7 processes");
    expect(processCount(1200)).toBe("1,200 processes");
  });
});
