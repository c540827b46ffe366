/**
 * An app's last lines of output (`GET /apps/<name>/output`, up to 200), newest at the bottom and
 * scrolled to it, read again every few seconds while the panel is open. An app Switchboard found
 * rather than started has none, and the panel says why.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { appOutput, type AppOutput, type RunningApp } from "../../shared/apps/api";
import { usePolling } from "../../shared/hooks/usePolling";
import { ErrorNote, Loading } from "../../shared/ui/Status";
import { noOutputText } from "./apps";

/** A dev server prints as it serves: a few seconds behind is close enough, and costs little. */
const OUTPUT_EVERY_MS = 3_000;

export function AppOutputPanel({ app, id }: { app: RunningApp; id: string }) {
  const [read, setRead] = useState<{ output?: AppOutput; error?: unknown }>({});
  const pending = useRef<AbortController | null>(null);
  const load = useCallback(() => {
    pending.current?.abort();
    const controller = new AbortController();
    pending.current = controller;
    appOutput(app.name, controller.signal).then(
      (output) => setRead({ output }),
      (error: unknown) => {
        if (!controller.signal.aborted) setRead((held) => ({ ...held, error }));
      },
    );
  }, [app.name]);
  useEffect(() => {
    load();
    return () => pending.current?.abort();
  }, [load]);
  usePolling(load, OUTPUT_EVERY_MS);

  const box = useRef<HTMLPreElement>(null);
  const text = read.output?.lines.join("\n");
  // The newest line is what a reader looks for: the box opens, and follows, at its end.
  useLayoutEffect(() => {
    if (box.current) box.current.scrollTop = box.current.scrollHeight;
  }, [text]);

  return (
    <div className="app-output" id={id}>
      {read.error !== undefined && <ErrorNote error={read.error} onRetry={load} />}
      {!read.output && read.error === undefined && <Loading what={`the output of ${app.name}`} />}
      {read.output && read.output.lines.length === 0 && <p className="muted">{noOutputText(app)}</p>}
      {read.output && read.output.lines.length > 0 && (
        // Scrolls by itself: a keyboard reaches it to scroll too.
        <pre className="code-block app-output-lines" ref={box} tabIndex={0} aria-label={`Last lines of ${app.name}`}>
          {text}
        </pre>
      )}
    </div>
  );
}
