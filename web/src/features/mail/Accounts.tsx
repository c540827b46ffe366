/**
 * The mail accounts: those of `email.toml` and those added here, each with its state (checking,
 * connected, or failing with the server's words), and a form to add an IMAP/SMTP account. The
 * password is sent once and kept with the saved keys: it is never shown again, nor filled back.
 */
import { useId, useState, type FormEvent } from "react";
import { ApiError } from "../../shared/api/client";
import { errorMessage } from "../../shared/api/errorMessage";
import { Pill, type Tone } from "../../shared/ui/Pill";
import { addAccount, type AccountStatus, type Endpoint, type MailAccount, type NewAccount, type TlsMode } from "./api";

const STATUS: Record<AccountStatus, { label: string; tone: Tone }> = {
  pending: { label: "Checking", tone: "neutral" },
  ok: { label: "Connected", tone: "running" },
  failing: { label: "Failing", tone: "failed" },
};

interface Props {
  accounts: readonly MailAccount[];
  onAdded: (account: MailAccount) => void;
}

export function Accounts({ accounts, onAdded }: Props) {
  return (
    <section className="mail-accounts" aria-labelledby="mail-accounts-title">
      <h2 id="mail-accounts-title">Accounts</h2>
      {accounts.length > 0 && (
        <ul className="mail-account-list">
          {accounts.map((account) => (
            <li key={account.id} className="mail-account" data-account={account.id} data-status={account.status}>
              <div>
                <strong>{account.name}</strong> <span className="muted">{account.address}</span>{" "}
                <Pill tone={STATUS[account.status].tone}>{STATUS[account.status].label}</Pill>
              </div>
              <div className="muted">
                IMAP {account.imap.host}:{account.imap.port} ({account.imap.tls}), SMTP {account.smtp.host}:
                {account.smtp.port} ({account.smtp.tls})
                {account.source === "toml" || account.id.startsWith("toml:") ? ", from email.toml" : ""}
              </div>
              {account.status === "failing" && account.failure && (
                <p className="mail-error" role="alert">
                  {account.failure}
                </p>
              )}
            </li>
          ))}
        </ul>
      )}
      <AccountForm onAdded={onAdded} />
    </section>
  );
}

const blankEndpoint = (port: number, tls: TlsMode): Endpoint => ({ host: "", port, tls });

const blank = (): NewAccount => ({
  name: "",
  address: "",
  username: "",
  password: "",
  imap: blankEndpoint(993, "tls"),
  smtp: blankEndpoint(465, "tls"),
});

function AccountForm({ onAdded }: { onAdded: (account: MailAccount) => void }) {
  const [form, setForm] = useState(blank);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; field?: string } | null>(null);
  const id = useId();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const account = await addAccount(form);
      // The password went to the server; the form forgets it.
      setForm(blank());
      onAdded(account);
    } catch (cause) {
      setError({ message: errorMessage(cause), field: cause instanceof ApiError ? cause.field : undefined });
      setForm((f) => ({ ...f, password: "" }));
    } finally {
      setBusy(false);
    }
  };

  const text = (key: "name" | "address" | "username", label: string, type = "text") => (
    <div className="mail-form-field">
      <label htmlFor={`${id}-${key}`}>{label}</label>
      <input
        id={`${id}-${key}`}
        type={type}
        required
        value={form[key]}
        aria-invalid={error?.field === key || undefined}
        onChange={(event) => setForm((f) => ({ ...f, [key]: event.target.value }))}
      />
    </div>
  );

  const endpoint = (which: "imap" | "smtp", legend: string) => {
    const value = form[which];
    const set = (change: Partial<Endpoint>) => setForm((f) => ({ ...f, [which]: { ...f[which], ...change } }));
    return (
      <fieldset className="mail-endpoint">
        <legend>{legend}</legend>
        <div className="mail-form-field">
          <label htmlFor={`${id}-${which}-host`}>Host</label>
          <input
            id={`${id}-${which}-host`}
            type="text"
            required
            value={value.host}
            onChange={(event) => set({ host: event.target.value })}
          />
        </div>
        <div className="mail-form-field">
          <label htmlFor={`${id}-${which}-port`}>Port</label>
          <input
            id={`${id}-${which}-port`}
            type="number"
            min={1}
            max={65535}
            required
            value={value.port}
            onChange={(event) => set({ port: Number(event.target.value) })}
          />
        </div>
        <div className="mail-form-field">
          <label htmlFor={`${id}-${which}-tls`}>Security</label>
          <select
            id={`${id}-${which}-tls`}
            value={value.tls}
            onChange={(event) => set({ tls: event.target.value as TlsMode })}
          >
            <option value="tls">TLS</option>
            <option value="starttls">STARTTLS</option>
            <option value="none">None (this machine only)</option>
          </select>
        </div>
      </fieldset>
    );
  };

  return (
    <form className="mail-account-form" aria-labelledby={`${id}-title`} onSubmit={(event) => void submit(event)}>
      <h3 id={`${id}-title`}>Add an account</h3>
      {text("name", "Name")}
      {text("address", "Address", "email")}
      {text("username", "User name")}
      <div className="mail-form-field">
        <label htmlFor={`${id}-password`}>Password</label>
        <input
          id={`${id}-password`}
          type="password"
          autoComplete="new-password"
          required
          value={form.password}
          onChange={(event) => setForm((f) => ({ ...f, password: event.target.value }))}
        />
        <span className="muted">
          Kept with your saved keys; never shown again. An app password where the provider offers one.
        </span>
      </div>
      {endpoint("imap", "IMAP (reading)")}
      {endpoint("smtp", "SMTP (sending)")}
      {error && (
        <p className="mail-error" role="alert">
          {error.message}
        </p>
      )}
      <button type="submit" className="primary" disabled={busy} aria-busy={busy || undefined}>
        Add account
      </button>
    </form>
  );
}
