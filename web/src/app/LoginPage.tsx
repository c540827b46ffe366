/** What a visitor without a session sees: how to get the login link. */
export function LoginPage() {
  return (
    <main className="login-page">
      <div className="login-card">
        <h1>Switchboard</h1>
        <p>You are not logged in.</p>
        <p>
          Open the link that <code>switchboard serve</code> printed when it started, the line
        </p>
        <pre>Open the web UI: {window.location.origin}/login?token=…</pre>
        <p className="muted">
          The link holds the owner's token from <code>cli-token</code> in Switchboard's data directory; it logs this
          browser in and brings you back here. Restart <code>switchboard serve</code> to see it again.
        </p>
      </div>
    </main>
  );
}
