/**
 * The account's pending approvals, kept live: `GET /approvals` at first and again on `reset` or
 * a reconnect, each `approval` event merged in (one answered elsewhere or expired leaves), and
 * `decide` to answer one. `onAnswered` hears of each held approval that leaves allowed or denied
 * (here or elsewhere), with the pending list as it was just before, so the page can mark the
 * session's row read.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { ApiError, apiFetch } from "../api/client";
import type { Approval, Remember } from "../api/types.generated";
import { createCatchUp } from "../stream/catchUp";
import { useStreamEvent, useStreamLifecycle } from "../stream/useStream";
import { applyApproval } from "./approvals";

export type Decision = "allow" | "deny";

export interface Approvals {
  approvals: readonly Approval[];
  /** The approvals being answered right now. */
  busy: ReadonlySet<string>;
  /** Why answering one failed, while it is still shown. */
  errors: ReadonlyMap<string, unknown>;
  decide(approval: Approval, decision: Decision, remember: Remember): void;
}

export function useApprovals(
  onAnswered: (approval: Approval, before: readonly Approval[]) => void,
  onError: (error: unknown, context: string) => void,
): Approvals {
  const [approvals, setApprovals] = useState<readonly Approval[]>([]);
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());
  const [errors, setErrors] = useState<ReadonlyMap<string, unknown>>(new Map());
  const held = useRef<readonly Approval[]>([]);
  // Events that arrive while the list is read are applied again to it once it comes.
  const [catchUp] = useState(() => createCatchUp<Approval>());
  const answered = useRef(onAnswered);
  const failed = useRef(onError);
  useEffect(() => {
    answered.current = onAnswered;
    failed.current = onError;
  });

  const settle = useCallback((approval: Approval) => {
    const before = held.current;
    const after = applyApproval(before, approval);
    if (after === before) return;
    held.current = after;
    setApprovals(after);
    if (approval.state === "allowed" || approval.state === "denied") {
      if (before.some((a) => a.id === approval.id)) answered.current(approval, before);
    }
  }, []);

  const reload = useCallback(() => {
    catchUp.read(
      apiFetch<{ approvals: Approval[] }>("/approvals"),
      ({ approvals: fetched }, missed) => {
        const list = missed.reduce(applyApproval, fetched as readonly Approval[]);
        held.current = list;
        setApprovals(list);
      },
      (error: unknown) => failed.current(error, "The approvals were not loaded"),
    );
  }, [catchUp]);
  useEffect(reload, [reload]);
  useStreamLifecycle("reset", reload);
  useStreamLifecycle("open", reload);
  useStreamEvent<Approval>("approval", (approval) => {
    catchUp.heard(approval);
    settle(approval);
  });

  const mark = (id: string, on: boolean) =>
    setBusy((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const note = (id: string, error: unknown) =>
    setErrors((current) => {
      const next = new Map(current);
      if (error === undefined) next.delete(id);
      else next.set(id, error);
      return next;
    });

  const decide = useCallback(
    (approval: Approval, decision: Decision, remember: Remember) => {
      const path = `/approvals/${encodeURIComponent(approval.id)}`;
      mark(approval.id, true);
      note(approval.id, undefined);
      apiFetch<Approval>(path, { method: "POST", body: { decision, remember } })
        .then(settle, (error: unknown) => {
          // Shown on the card itself, so not a toast as well.
          note(approval.id, error);
          // Answered elsewhere or expired: show it as it is now (it leaves the list).
          if (error instanceof ApiError && error.code === "approval_decided") {
            apiFetch<Approval>(path).then(settle, () => undefined);
          }
        })
        .finally(() => mark(approval.id, false));
    },
    [settle],
  );

  return { approvals, busy, errors, decide };
}
