/**
 * The model vendors' balances, in the settings' inbox behaviour and notices section beside the
 * balance alert settings (docs/fleet-cards.md): the user enters each balance from the vendor's
 * billing page (neither vendor's API reports one), and sees the spend since, the burn rate, the
 * forecast run-out and the link to recharge.
 */
import { useState } from "react";
import type { BalanceForecast } from "../../shared/api/types.generated";
import { apiFetch } from "../../shared/api/client";
import { errorMessage } from "../../shared/api/errorMessage";
import { useApi } from "../../shared/hooks/useApi";
import { Button } from "../../shared/ui/Button";
import { ErrorNote } from "../../shared/ui/Status";

const usd = (n: number) => `$${n.toFixed(2)}`;

/** The forecast in words: what is left, at what rate, until when. */
export function forecastWords(f: BalanceForecast): string {
  if (f.balanceUsd === null || f.remainingUsd === null) return "No balance entered: not watched.";
  const left = `${usd(Math.max(0, f.remainingUsd))} left of ${usd(f.balanceUsd)}`;
  if (f.runsOutAt === null) return `${left}; no spend in the last seven days.`;
  return `${left}, spending ${usd(f.burnUsdPerHour)} an hour: runs out around ${new Date(f.runsOutAt).toLocaleString()}.`;
}

function VendorBalance({ forecast, onChanged }: { forecast: BalanceForecast; onChanged: () => void }) {
  const [amount, setAmount] = useState("");
  const [note, setNote] = useState<string | null>(null);
  const path = `/balances/${forecast.vendor}`;
  const save = async () => {
    try {
      await apiFetch(path, { method: "PUT", body: { balanceUsd: Number(amount) } });
      setAmount("");
      setNote(null);
      onChanged();
    } catch (error) {
      setNote(errorMessage(error));
    }
  };
  const clear = async () => {
    try {
      await apiFetch(path, { method: "DELETE" });
      setNote(null);
      onChanged();
    } catch (error) {
      setNote(errorMessage(error));
    }
  };
  return (
    <li data-vendor={forecast.vendor}>
      <strong>{forecast.vendorName}</strong> <span className="muted">{forecastWords(forecast)}</span>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <label>
          Balance now (USD)
          <input
            type="number"
            min={0}
            max={1000000}
            step="0.01"
            required
            value={amount}
            onChange={(event) => setAmount(event.target.value)}
          />
        </label>
        <Button type="submit" disabled={amount === ""}>
          Save
        </Button>
        {forecast.balanceUsd !== null && (
          <Button variant="danger" onClick={() => void clear()}>
            Forget
          </Button>
        )}
        <a href={forecast.rechargeUrl} target="_blank" rel="noreferrer">
          Recharge
        </a>
      </form>
      {note && <p role="status">{note}</p>}
    </li>
  );
}

export function BalanceWatch() {
  const forecasts = useApi<BalanceForecast[]>("/balances");
  if (forecasts.error !== undefined) return <ErrorNote error={forecasts.error} onRetry={forecasts.reload} />;
  if (!forecasts.data) return null;
  return (
    <section className="balance-watch" aria-label="Model vendor balances">
      <h3>Model vendor balances</h3>
      <ul>
        {forecasts.data.map((forecast) => (
          <VendorBalance key={forecast.vendor} forecast={forecast} onChanged={forecasts.reload} />
        ))}
      </ul>
    </section>
  );
}
