/**
 * Publishing an agent's message as a document from the session page (docs/files.md "Documents"):
 * the session page provides what the transcript's messages need (whether publishing is on, the
 * links kept per message, the action), so a message row shows its documents and the button.
 */
import { createContext, useCallback, useContext, useMemo } from "react";
import type { MessagePublication } from "../../../shared/api/types.generated";
import { apiFetch } from "../../../shared/api/client";
import { useApi } from "../../../shared/hooks/useApi";

export interface Publishing {
  /** `docsExportEnabled`: the button shows only then; links kept show always. */
  enabled: boolean;
  bySeq: ReadonlyMap<number, readonly MessagePublication[]>;
  publish: (seq: number) => Promise<void>;
}

export const PublishingContext = createContext<Publishing | null>(null);

export function usePublishing(): Publishing | null {
  return useContext(PublishingContext);
}

/** The links kept, by the message they were published from, oldest first. */
export function publicationsBySeq(list: readonly MessagePublication[]): Map<number, MessagePublication[]> {
  const bySeq = new Map<number, MessagePublication[]>();
  for (const publication of list) {
    const kept = bySeq.get(publication.seq) ?? [];
    kept.push(publication);
    bySeq.set(publication.seq, kept);
  }
  return bySeq;
}

/** A document's name for its link: the file name without its folder. */
export function documentName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** What the session page provides: the session's kept links, read again after each publish. */
export function useMessagePublishing(
  sessionId: string,
  enabled: boolean,
  onError: (error: unknown) => void,
): Publishing {
  const kept = useApi<MessagePublication[]>(`/sessions/${encodeURIComponent(sessionId)}/publications`);
  const list = kept.data;
  const bySeq = useMemo(() => publicationsBySeq(list ?? []), [list]);
  const reload = kept.reload;
  const publish = useCallback(
    async (seq: number) => {
      try {
        await apiFetch<MessagePublication>(`/sessions/${encodeURIComponent(sessionId)}/entries/${seq}/publish`, {
          method: "POST",
          body: {},
        });
        reload();
      } catch (error) {
        onError(error);
      }
    },
    [sessionId, reload, onError],
  );
  return useMemo(() => ({ enabled, bySeq, publish }), [enabled, bySeq, publish]);
}
