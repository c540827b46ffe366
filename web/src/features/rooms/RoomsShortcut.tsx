/** The shell's listener for Ctrl+Shift+Z: Meeting rooms from anywhere while `meetingRoomsEnabled` is on. */
import { useEffect } from "react";
import { navigate } from "../../shared/router";
import { useSettings } from "../../shared/settings";
import { isRoomsShortcut, ROOMS_PATH } from "./shortcut";

export function RoomsShortcut() {
  const { values } = useSettings();
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!isRoomsShortcut(event, values)) return;
      event.preventDefault();
      navigate(ROOMS_PATH);
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [values]);
  return null;
}
