/**
 * "Notify me on this device", in the settings' inbox behaviour and notices section: this browser
 * subscribes to Web Push under a name the user chooses, and every device that did is listed with
 * its push service, its last push, whether it also gets the daily briefing, a test button and a
 * remove button. What a push says follows `contentFreeMobilePush`, the setting beside it.
 */
import { useState } from "react";
import type { PushOutcome, PushSubscription as Device } from "../../shared/api/types.generated";
import { apiFetch } from "../../shared/api/client";
import { errorMessage } from "../../shared/api/errorMessage";
import { useApi } from "../../shared/hooks/useApi";
import { pushUnsupported, subscribeThisDevice, suggestedName } from "../../shared/push/devicePush";
import { Button } from "../../shared/ui/Button";
import { ErrorNote } from "../../shared/ui/Status";

/** What a test push came to, in words. */
export function outcomeWords(outcome: PushOutcome): string {
  switch (outcome.state) {
    case "delivered":
      return "Sent: it should show on the device now.";
    case "retrying":
      return `The push service is busy${outcome.status ? ` (${outcome.status})` : ""}; it is sent again shortly.`;
    case "gone":
      return "The device no longer takes pushes; it was removed.";
    case "failed":
      return `Not sent: ${outcome.reason}`;
  }
}

export function PushDevices() {
  const devices = useApi<Device[]>("/push/subscriptions");
  const unsupported = pushUnsupported();
  const [name, setName] = useState(() => suggestedName(navigator.userAgent));
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<{ id?: string; text: string } | null>(null);
  const [briefingChosen, setBriefingChosen] = useState<Record<string, boolean>>({});

  const subscribe = async () => {
    setBusy(true);
    setNote(null);
    try {
      const device = await subscribeThisDevice(name.trim());
      setNote({ id: device.id, text: `This device gets pushes as “${device.name}”.` });
      devices.reload();
    } catch (error) {
      setNote({ text: errorMessage(error) });
    } finally {
      setBusy(false);
    }
  };
  const test = async (device: Device) => {
    try {
      const outcome = await apiFetch<PushOutcome>(`/push/subscriptions/${encodeURIComponent(device.id)}/test`, {
        method: "POST",
      });
      setNote({ id: device.id, text: outcomeWords(outcome) });
      devices.reload();
    } catch (error) {
      setNote({ id: device.id, text: errorMessage(error) });
    }
  };
  const chooseBriefing = async (device: Device, dailyBriefing: boolean) => {
    // Ticked at once; the list read back after the server kept it is the truth.
    setBriefingChosen((chosen) => ({ ...chosen, [device.id]: dailyBriefing }));
    try {
      await apiFetch<Device>(`/push/subscriptions/${encodeURIComponent(device.id)}`, {
        method: "PATCH",
        body: { dailyBriefing },
      });
      devices.reload();
    } catch (error) {
      setBriefingChosen((chosen) => ({ ...chosen, [device.id]: device.dailyBriefing }));
      setNote({ id: device.id, text: errorMessage(error) });
    }
  };
  const remove = async (device: Device) => {
    try {
      await apiFetch(`/push/subscriptions/${encodeURIComponent(device.id)}`, { method: "DELETE" });
      setNote(null);
      devices.reload();
    } catch (error) {
      setNote({ id: device.id, text: errorMessage(error) });
    }
  };

  return (
    <section className="push-devices" aria-label="Devices that get pushes">
      <h3>Push to your devices</h3>
      {unsupported ? (
        <p className="muted">{unsupported}</p>
      ) : (
        <form
          className="push-subscribe"
          onSubmit={(event) => {
            event.preventDefault();
            void subscribe();
          }}
        >
          <label>
            This device’s name
            <input value={name} maxLength={80} required onChange={(event) => setName(event.target.value)} />
          </label>
          <Button type="submit" variant="primary" disabled={busy || name.trim() === ""}>
            Notify me on this device
          </Button>
        </form>
      )}
      {note && note.id === undefined && <p role="status">{note.text}</p>}
      {devices.error !== undefined && <ErrorNote error={devices.error} onRetry={devices.reload} />}
      {devices.data && devices.data.length > 0 && (
        <ul className="push-device-list">
          {devices.data.map((device) => (
            <li key={device.id} data-device={device.id}>
              <div>
                <strong>{device.name}</strong> <span className="muted">{device.service}</span>
                {device.lastFailure && <p className="push-failure">{device.lastFailure}</p>}
                {note?.id === device.id && <p role="status">{note.text}</p>}
              </div>
              <label className="push-briefing">
                <input
                  type="checkbox"
                  checked={briefingChosen[device.id] ?? device.dailyBriefing}
                  onChange={(event) => void chooseBriefing(device, event.target.checked)}
                />
                Daily briefing
              </label>
              <Button onClick={() => void test(device)}>Send test</Button>
              <Button variant="danger" onClick={() => void remove(device)}>
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
