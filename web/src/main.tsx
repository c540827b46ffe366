/** Browser entry: mounts the app shell into #root. */
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";
import { matchRoute } from "./shared/router";
import { prestartDashboardWorker } from "./features/dashboards/worker/prestart";
import { readMembersAhead } from "./features/dashboards/membersAhead";
import "./app/styles.css";

// Opening a dashboard directly: its boards and the members its charts name start loading while
// the app's code still does.
const opening = matchRoute(window.location.pathname);
if (opening.name === "dashboard") {
  prestartDashboardWorker(opening.id);
  readMembersAhead();
}

const root = document.getElementById("root");
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
