/**
 * `projectBoardsEnabled`: off, the project-board module leaves the web app (boards, dashboards, the
 * calendar's overlay of due dates and sprints, board pickers); the data and the API stay, and all
 * of it is back when the switch is.
 */
type Values = Readonly<Record<string, unknown>> | undefined;

export function boardsShown(values: Values): boolean {
  return values?.projectBoardsEnabled !== false;
}
