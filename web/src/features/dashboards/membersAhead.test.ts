import { afterEach, describe, expect, it, vi } from "vitest";
import type { Member } from "../../shared/api/types.generated";

const listMembers = vi.fn<() => Promise<Member[]>>();
vi.mock("../../shared/api/members", () => ({ listMembers: () => listMembers() }));
const { readMembersAhead, takeMembers } = await import("./membersAhead");

const ada = { id: "m1", name: "Ada" } as Member;

afterEach(() => {
  listMembers.mockReset();
});

describe("the members read ahead of the dashboard page", () => {
  it("gives the page the read started ahead, once, then reads again", async () => {
    listMembers.mockResolvedValueOnce([ada]).mockResolvedValueOnce([]);
    readMembersAhead();
    expect(listMembers).toHaveBeenCalledTimes(1);
    await expect(takeMembers()).resolves.toEqual([ada]);
    expect(listMembers).toHaveBeenCalledTimes(1);
    await expect(takeMembers()).resolves.toEqual([]);
    expect(listMembers).toHaveBeenCalledTimes(2);
  });

  it("hands a failed read to the page that takes it", async () => {
    listMembers.mockRejectedValueOnce(new Error("offline"));
    readMembersAhead();
    await expect(takeMembers()).rejects.toThrow("offline");
  });
});
