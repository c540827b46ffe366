/**
 * Proves that every setting a page names in an empty state carries the settings page's own label
 * and opens the section that lists it: a label or section changed in the catalog fails here.
 */
import { describe, expect, test } from "vitest";
import { SETTING_DEFINITIONS } from "../../shared/api/settings.generated";
import { paneOf } from "./panes";
import { SETTING_LINKS } from "../../shared/settingLinks";

describe("SETTING_LINKS", () => {
  test.each(Object.entries(SETTING_LINKS))("%s: the catalog's label and section", (key, link) => {
    const definition = SETTING_DEFINITIONS.find((d) => d.key === key);
    expect(definition).toBeDefined();
    expect(link.key).toBe(key);
    expect(link.label).toBe(definition?.label);
    expect(link.path).toBe(`/settings#${paneOf(definition?.area ?? "", definition?.section ?? "")}`);
  });
});
