/**
 * Boards whose read answers 404. The server refuses a config naming a board that no longer
 * exists, so such a board is dropped from the draft (one autosave), and the page keeps saying
 * so under the name the board had when it was last read in this page's life.
 */
import { useEffect, useState } from "react";
import type { DashboardConfig } from "./api";
import type { BoardMeta, BoardStatus } from "./worker/dashboardCore";

export interface DisconnectedBoard {
  id: string;
  /** Undefined when the board was never read in this page's life. */
  name: string | undefined;
}

const NO_NAMES: ReadonlyMap<string, string> = new Map();
const NONE: readonly DisconnectedBoard[] = [];

export function useDisconnectedBoards(
  loads: readonly BoardStatus[],
  metas: readonly BoardMeta[],
  editConfig: (change: (config: DashboardConfig) => DashboardConfig) => void,
): readonly DisconnectedBoard[] {
  // Names and the list grow as new board states arrive, so they are adjusted while rendering.
  const [known, setKnown] = useState({ metas: [] as readonly BoardMeta[], names: NO_NAMES });
  let names = known.names;
  if (known.metas !== metas) {
    const more = new Map(names);
    for (const { board } of metas) more.set(board.id, board.name);
    names = more;
    setKnown({ metas, names });
  }

  const [shown, setShown] = useState({ loads: [] as readonly BoardStatus[], boards: NONE });
  let boards = shown.boards;
  if (shown.loads !== loads) {
    const fresh = loads.filter((l) => l.state === "missing" && !boards.some((b) => b.id === l.id));
    if (fresh.length > 0) boards = [...boards, ...fresh.map((l) => ({ id: l.id, name: names.get(l.id) }))];
    setShown({ loads, boards });
  }

  useEffect(() => {
    const missing = new Set(loads.filter((l) => l.state === "missing").map((l) => l.id));
    if (missing.size === 0) return;
    editConfig((c) =>
      c.boardIds.some((id) => missing.has(id)) ? { ...c, boardIds: c.boardIds.filter((id) => !missing.has(id)) } : c,
    );
  }, [loads, editConfig]);

  return boards;
}
