/** The account's member directory, which people cells draw and pick from. */
import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import { useToast } from "../../shared/ui/toasts";
import { listMembers } from "../../shared/api/members";
import type { Member } from "./types";

export interface Directory {
  members: Member[];
  byId: Map<string, Member>;
}

const EMPTY: Directory = { members: [], byId: new Map() };
const MembersContext = createContext<Directory>(EMPTY);

export function MembersProvider({ children }: { children: ReactNode }) {
  const [members, setMembers] = useState<Member[]>([]);
  const toast = useToast();
  useEffect(() => {
    listMembers().then(setMembers, (error: unknown) => toast.error(error, "The member directory could not be loaded"));
  }, [toast]);
  const directory = useMemo(() => ({ members, byId: new Map(members.map((m) => [m.id, m])) }), [members]);
  return <MembersContext.Provider value={directory}>{children}</MembersContext.Provider>;
}

export function useMembers(): Directory {
  return useContext(MembersContext);
}
