import { describe, expect, it } from "vitest";
import { isRoomsShortcut, roomsShown } from "./shortcut";

const press = (over: Partial<Parameters<typeof isRoomsShortcut>[0]> = {}) => ({
  key: "Z",
  ctrlKey: true,
  metaKey: false,
  shiftKey: true,
  altKey: false,
  target: null,
  ...over,
});

describe("the meeting rooms shortcut", () => {
  it("is Ctrl+Shift+Z or Cmd+Shift+Z while the setting is on", () => {
    expect(isRoomsShortcut(press(), {})).toBe(true);
    expect(isRoomsShortcut(press({ ctrlKey: false, metaKey: true, key: "z" }), {})).toBe(true);
    expect(isRoomsShortcut(press({ shiftKey: false }), {})).toBe(false);
    expect(isRoomsShortcut(press({ altKey: true }), {})).toBe(false);
    expect(isRoomsShortcut(press({ key: "k" }), {})).toBe(false);
  });

  it("does nothing with meetingRoomsEnabled off, and the rooms leave the sidebar", () => {
    expect(isRoomsShortcut(press(), { meetingRoomsEnabled: false })).toBe(false);
    expect(roomsShown({ meetingRoomsEnabled: false })).toBe(false);
    expect(roomsShown({ meetingRoomsEnabled: true })).toBe(true);
  });

  it("waits for the settings: a press before they are read opens nothing", () => {
    expect(isRoomsShortcut(press(), undefined)).toBe(false);
    expect(roomsShown(undefined)).toBe(true);
  });
});
