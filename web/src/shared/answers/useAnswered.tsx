/**
 * One thing a person answers in place (an input request, a key proposal): it is loaded, answered
 * once with a POST to its own address, and shown as the server says it ended. When another tab
 * answered first (`already_answered`), it is read again to show how.
 */
import { useState, type ReactNode } from "react";
import { ApiError, apiFetch } from "../api/client";
import { useApi } from "../hooks/useApi";
import { ErrorNote, Loading } from "../ui/Status";

export interface Answered<T, Body> {
  /** What to show: the server's reply to our answer once there is one, else what was loaded. */
  item: T | undefined;
  busy: boolean;
  /** Why the last answer failed. */
  error: unknown;
  send(body: Body): void;
  /** While nothing is loaded: the error or the loading note. */
  placeholder: ReactNode;
}

/**
 * `shown` turns the server's reply into what the card shows; `reloadAfter` reads the item again
 * after a successful answer (a proposal's loaded copy still holds its value, the reply does not).
 */
export function useAnswered<T, Body, Reply>(
  path: string,
  what: string,
  shown: (reply: Reply) => T,
  reloadAfter: boolean,
): Answered<T, Body> {
  const loaded = useApi<T>(path);
  const [answered, setAnswered] = useState<T>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const send = (body: Body) => {
    setBusy(true);
    setError(undefined);
    apiFetch<Reply>(path, { method: "POST", body })
      .then(
        (reply) => {
          setAnswered(shown(reply));
          if (reloadAfter) loaded.reload();
        },
        (e: unknown) => {
          setError(e);
          if (e instanceof ApiError && e.code === "already_answered") loaded.reload();
        },
      )
      .finally(() => setBusy(false));
  };
  const placeholder =
    loaded.error !== undefined ? <ErrorNote error={loaded.error} onRetry={loaded.reload} /> : <Loading what={what} />;
  return { item: answered ?? loaded.data, busy, error, send, placeholder };
}
