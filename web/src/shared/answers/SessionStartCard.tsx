/**
 * A session that a session on a runner started (cloudStartedSessionsEnabled), under its
 * `cli_pending` row: Start lets it run on its runner, Refuse stops it without its ever running.
 * Either answer marks the row read.
 */
import { apiFetch } from "../api/client";
import { ChoiceCard } from "./ChoiceCard";

interface Props {
  sessionId: string;
  onAnswered: () => void;
}

export function SessionStartCard({ sessionId, onAnswered }: Props) {
  return (
    <ChoiceCard
      label="Start this session?"
      yes="Start"
      no="Refuse"
      answer={(approve) =>
        apiFetch(`/sessions/${encodeURIComponent(sessionId)}/start-decision`, {
          method: "POST",
          body: { approve },
        })
      }
      said={(approve) => (approve ? "Started." : "Refused: it will not run.")}
      onAnswered={onAnswered}
    />
  );
}
