/**
 * A messenger user's pairing request under its `cli_pending` row: Approve adds the sender to the
 * bot's allowed users (the server changes `messengerBotAllowedUserIds` and tells them in the chat),
 * Decline spends the code. Either answer marks the row read.
 */
import { apiFetch } from "../api/client";
import { ChoiceCard } from "./ChoiceCard";

interface Props {
  code: string;
  onAnswered: () => void;
}

export function PairingCard({ code, onAnswered }: Props) {
  return (
    <ChoiceCard
      label={`Pairing code ${code}`}
      yes="Approve"
      no="Decline"
      answer={(approve) =>
        apiFetch(`/messenger/pairings/${encodeURIComponent(code)}/${approve ? "approve" : "reject"}`, {
          method: "POST",
        })
      }
      said={(approve) => (approve ? "Approved: they can talk to your agents now." : "Declined.")}
      onAnswered={onAnswered}
    />
  );
}
