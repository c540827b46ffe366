/**
 * The account's pending input requests, kept live. Requests have no event of their own: each one
 * opens (and, once answered, reads) a `cli_pending` inbox row, so an `inbox` event of that
 * category, a `reset` or a reconnect reads the list again.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { apiFetch } from "../api/client";
import type { InboxEvent, InputRequest } from "../api/types.generated";
import { useStreamEvent, useStreamLifecycle } from "../stream/useStream";

export function usePendingRequests(): readonly InputRequest[] {
  const [requests, setRequests] = useState<readonly InputRequest[]>([]);
  // Only the newest read may land: an older answer must not undo a newer one.
  const generation = useRef(0);
  const reload = useCallback(() => {
    const mine = ++generation.current;
    apiFetch<{ inputRequests: InputRequest[] }>("/input-requests").then(
      ({ inputRequests }) => {
        if (mine === generation.current) setRequests(inputRequests.filter((r) => r.state === "pending"));
      },
      // The list is a hint on the board; the inbox row that asks stays the place to answer.
      () => undefined,
    );
  }, []);
  useEffect(reload, [reload]);
  useStreamLifecycle("reset", reload);
  useStreamLifecycle("open", reload);
  useStreamEvent<InboxEvent>("inbox", (event) => {
    if (
      event.change === "read_all"
        ? event.category === null || event.category === "cli_pending"
        : event.category === "cli_pending"
    ) {
      reload();
    }
  });
  return requests;
}
