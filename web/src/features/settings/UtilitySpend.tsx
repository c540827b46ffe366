/**
 * The utility model's day, in the settings' "analysis and cost" section: what each feature (titles, caught follow-ups, the
 * weekly summary, the archive digest, the forensics analysis) spent today against its daily cap,
 * and how many calls it made. The figures are the server's (`GET /utility/spend`); the caps are the
 * settings below. The record is the owner's: another account's settings page leaves the section out.
 */
import type { UtilityFeature, UtilitySpend as Spend } from "../../shared/api/types.generated";
import { ApiError } from "../../shared/api/client";
import { useApi } from "../../shared/hooks/useApi";
import { ErrorNote } from "../../shared/ui/Status";

const NAMES: Record<UtilityFeature, string> = {
  title: "Session titles",
  catches: "Caught follow-ups",
  weekly_summary: "Weekly summary",
  archive_digest: "Archive digest",
  forensics_deep: "Forensics analysis",
  email_prescreen: "Inbound email prescreen",
  review: "Reviews of returned work",
  image_bridge: "Image descriptions",
  email_summary: "Email summarizer",
  daily_briefing: "Daily briefing",
  rss_digest: "Morning digest",
  mail_summary: "Mail Catch me up",
  alarm_words: "Alarms typed in words",
};

const usd = (n: number) => `$${n < 0.01 && n > 0 ? n.toFixed(4) : n.toFixed(2)}`;

export function UtilitySpend() {
  const spend = useApi<Spend>("/utility/spend");
  if (spend.error instanceof ApiError && spend.error.code === "owner_only") return null;
  if (spend.error !== undefined) return <ErrorNote error={spend.error} onRetry={spend.reload} />;
  if (!spend.data) return null;
  return (
    <section className="utility-spend" aria-label="Utility model spend today">
      <h3>Utility model today</h3>
      <table>
        <thead>
          <tr>
            <th scope="col">Feature</th>
            <th scope="col">Spent today</th>
            <th scope="col">Calls</th>
          </tr>
        </thead>
        <tbody>
          {spend.data.features.map((f) => (
            <tr key={f.feature} data-feature={f.feature}>
              <th scope="row">{NAMES[f.feature]}</th>
              <td>
                {usd(f.spentTodayUsd)} <span className="muted">{f.capUsd ? `of ${usd(f.capUsd)}` : "no limit"}</span>
              </td>
              <td>{f.callsToday}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
