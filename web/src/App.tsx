/** The application shell; pages are mounted here as they are built. */
export function App() {
  return (
    <main>
      <h1>Switchboard</h1>
      <p>
        The web app is being built. Log in through the URL that <code>switchboard serve</code> prints.
      </p>
    </main>
  );
}
