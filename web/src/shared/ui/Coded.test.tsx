/**
 * Proves that `Coded` shows the words and keeps the code only as the hover (title), draws the
 * words alone when there is no code, and that `SettingLink` names a setting by its label, links to
 * its section of the settings page and keeps the key on hover.
 */
import { renderToStaticMarkup } from "react-dom/server";
import { expect, test } from "vitest";
import { SETTING_LINKS } from "../settingLinks";
import { Coded } from "./Coded";
import { SettingLink } from "./SettingLink";

test("the words are the text, the code is the title", () => {
  const html = renderToStaticMarkup(<Coded raw="error_max_turns">It stopped at its turn limit.</Coded>);
  expect(html).toBe(
    '<span class="coded" title="error_max_turns" data-raw="error_max_turns">It stopped at its turn limit.</span>',
  );
});

test("without a code, only the words", () => {
  expect(renderToStaticMarkup(<Coded raw={null}>Done.</Coded>)).toBe("Done.");
  expect(
    renderToStaticMarkup(
      <Coded raw="" className="muted">
        Done.
      </Coded>,
    ),
  ).toBe('<span class="muted">Done.</span>');
  expect(
    renderToStaticMarkup(
      <Coded raw="x" className="muted">
        Done.
      </Coded>,
    ),
  ).toContain('class="coded muted"');
});

test("a setting by its label, linking to its section, its key on hover", () => {
  const html = renderToStaticMarkup(<SettingLink setting={SETTING_LINKS.tasksEnabled} />);
  expect(html).toBe(
    '<a href="/settings#projects-tasks" title="Setting key: tasksEnabled" data-setting-key="tasksEnabled">Tasks</a>',
  );
});
