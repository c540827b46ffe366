/** Browser entry: mounts the app shell into #root. */
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";
import { matchRoute } from "./shared/router";
import { prestartDashboardWorker } from "./features/dashboards/worker/prestart";
import { readMembersAhead } from "./features/dashboards/membersAhead";
import { registerServiceWorker } from "./shared/push/devicePush";
import { reportLoad } from "./shared/deviceLoad";
import "./app/styles.css";

// First, before any rendering: a device whose load stops after this is the server's to notice.
void reportLoad("started");

// Opening a dashboard directly: its boards and the members its charts name start loading while
// the app's code still does.
const opening = matchRoute(window.location.pathname);
if (opening.name === "dashboard") {
  prestartDashboardWorker(opening.id);
  readMembersAhead();
}

// The service worker keeps the shell for the installed app and shows pushes; a browser that
// refuses it still runs the app.
registerServiceWorker()?.catch(() => undefined);

const root = document.getElementById("root");
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
