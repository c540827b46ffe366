/**
 * The dedicated worker the dashboard page starts: board reads, parsing, filtering and widget
 * computation run here (see `dashboardCore.ts`); the page sends filters and widgets and gets
 * back board states, column lists and widget results.
 */
import { type WorkerReply, type WorkerRequest, createDashboardCore } from "./dashboardCore";
import { dashboardOfWorkerName } from "./workerName";

// The DOM typings describe `self` as a Window; in a dedicated worker it is the worker scope.
const scope = self as unknown as {
  name: string;
  postMessage: (reply: WorkerReply) => void;
  addEventListener: (type: "message", listener: (event: MessageEvent<WorkerRequest>) => void) => void;
};

const handle = createDashboardCore({ post: (reply) => scope.postMessage(reply) });
scope.addEventListener("message", (event) => handle(event.data));
const opening = dashboardOfWorkerName(scope.name);
if (opening !== null) handle({ type: "open", dashboardId: opening });
