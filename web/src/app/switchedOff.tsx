/**
 * A page whose switch is off, reached by its address anyway (a bookmark, history): it says which
 * setting hides it instead of drawing a page the sidebar no longer offers. The data stays.
 */
import { SETTING_LINKS, type SettingRef } from "../shared/settingLinks";
import type { Route } from "../shared/router";
import { SettingLink } from "../shared/ui/SettingLink";
import { PageHeader } from "../shared/ui/PageHeader";

type Values = Readonly<Record<string, unknown>> | undefined;

const SWITCHES: Partial<Record<Route["name"], { title: string; setting: SettingRef }>> = {
  team: { title: "Team time", setting: SETTING_LINKS.teamTimeEnabled },
  meetingRooms: { title: "Meeting rooms", setting: SETTING_LINKS.meetingRoomsEnabled },
  boards: { title: "Boards", setting: SETTING_LINKS.projectBoardsEnabled },
  board: { title: "Boards", setting: SETTING_LINKS.projectBoardsEnabled },
  dashboards: { title: "Dashboards", setting: SETTING_LINKS.projectBoardsEnabled },
  dashboard: { title: "Dashboards", setting: SETTING_LINKS.projectBoardsEnabled },
};

/** The switch that hides this route's page now, if one does. */
export function switchedOff(route: Route["name"], values: Values): { title: string; setting: SettingRef } | null {
  const entry = SWITCHES[route];
  return entry && values?.[entry.setting.key] === false ? entry : null;
}

export function SwitchedOff({ title, setting }: { title: string; setting: SettingRef }) {
  return (
    <section className="page">
      <PageHeader title={title} />
      <p>
        <SettingLink setting={setting} /> is off: this page is hidden, and what it holds is kept for when it is back on.
      </p>
    </section>
  );
}
