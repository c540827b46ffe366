import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ToastProvider } from "../../shared/ui/toasts";
import { session } from "./fixtures";
import { NeedsYouSection } from "./NeedsYouSection";
import { needsYou } from "./needsYou";

const now = Date.parse("2026-01-01T12:00:00Z");

const draw = (sessions: Parameters<typeof needsYou>[0]) =>
  renderToStaticMarkup(
    <ToastProvider>
      <NeedsYouSection cards={needsYou(sessions)} now={now} />
    </ToastProvider>,
  );

describe("the Needs you section", () => {
  it("is not drawn when no session needs you", () => {
    expect(draw([session("r", { status: "running" })])).not.toContain("needs-you");
  });

  it("draws a waiting session with why, what it said, how long, a link to it and the reply box", () => {
    const html = draw([
      session("s1", {
        title: "Pick a database",
        status: "waiting_for_input",
        turnEnd: "asked",
        updatedAt: "2026-01-01T11:55:00Z",
        activity: { kind: "writing", text: "Should I use Postgres or SQLite?", at: "2026-01-01T11:54:00Z" },
      }),
    ]);
    expect(html).toContain("Needs you");
    expect(html).toContain("Asked you a question");
    expect(html).toContain('href="/sessions/s1"');
    expect(html).toContain("Should I use Postgres or SQLite?");
    expect(html).toContain("Waiting 5 min");
    expect(html).toContain('aria-label="Reply to Pick a database"');
    expect(html).not.toContain("Retry");
  });

  it("draws a failure with its error in words, Retry and Archive, and no reply box", () => {
    const html = draw([
      session("f1", {
        title: "Nightly build",
        status: "failed",
        updatedAt: "2026-01-01T10:00:00Z",
        error: "the engine exited with status 3: no such target",
      }),
    ]);
    expect(html).toContain("The engine stopped with an error: no such target.");
    expect(html).toContain("Failed 2 h ago");
    expect(html).toContain('aria-label="Retry Nightly build"');
    expect(html).toContain('aria-label="Archive Nightly build"');
    expect(html).not.toContain("Reply to");
  });
});
