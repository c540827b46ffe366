/**
 * A setting named in a page's text: its label, linking to the settings page at the section that
 * lists it, with its key on hover (`SETTING_LINKS` holds the labels and sections).
 */
import { Link } from "../router";
import type { SettingRef } from "../settingLinks";

export function SettingLink({ setting }: { setting: SettingRef }) {
  return (
    <Link to={setting.path} title={`Setting key: ${setting.key}`} data-setting-key={setting.key}>
      {setting.label}
    </Link>
  );
}
