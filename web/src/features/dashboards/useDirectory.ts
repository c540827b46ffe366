/**
 * What the dashboard page offers to connect and to filter by: the workspace's boards (read again
 * when the Connect dialog opens) and the account's members (grown by an invitation).
 */
import { useCallback, useEffect, useState } from "react";
import { listBoards } from "../../shared/api/boards";
import type { Board, Member } from "../../shared/api/types.generated";
import { takeMembers } from "./membersAhead";

export interface Directory {
  /** Null until the first list arrives. */
  boards: Board[] | null;
  members: Member[];
  /** The last failed read's message. */
  error: string | null;
  refreshBoards(): void;
  addMember(member: Member): void;
}

export function useDirectory(workspaceId: string): Directory {
  const [boards, setBoards] = useState<Board[] | null>(null);
  const [members, setMembers] = useState<Member[]>([]);
  const [error, setError] = useState<string | null>(null);
  const refreshBoards = useCallback(() => {
    listBoards(workspaceId).then(setBoards, (e: Error) => setError(e.message));
  }, [workspaceId]);
  useEffect(() => {
    refreshBoards();
    takeMembers().then(setMembers, (e: Error) => setError(e.message));
  }, [refreshBoards]);
  const addMember = useCallback((member: Member) => setMembers((all) => [...all, member]), []);
  return { boards, members, error, refreshBoards, addMember };
}
