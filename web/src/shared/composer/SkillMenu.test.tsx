import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { SkillMenu } from "./SkillMenu";
import type { Skill } from "./skills";

const deploy: Skill = {
  name: "deploy",
  description: "Deploy the branch",
  argumentHint: "[environment]",
  scope: "project",
  insert: "/deploy",
};
const broken: Skill = {
  ...deploy,
  name: "broken",
  insert: "/broken",
  error: "front matter: mapping values are not allowed",
};

const draw = (props: Partial<Parameters<typeof SkillMenu>[0]>) =>
  renderToStaticMarkup(
    <SkillMenu
      id="m"
      placement="below"
      skills={[]}
      active={0}
      loading={false}
      reason={null}
      onPick={() => undefined}
      {...props}
    />,
  );

describe("the skill menu", () => {
  it("is a listbox whose options have ids for aria-activedescendant, the active one selected", () => {
    const html = draw({ skills: [deploy, broken], active: 1 });
    expect(html).toContain('role="listbox"');
    expect(html).toContain('aria-label="Skills"');
    expect(html).toContain('id="m-0" role="option" aria-selected="false"');
    expect(html).toContain('id="m-1" role="option" aria-selected="true"');
  });

  it("shows what is inserted, the argument hint, the description and the scope", () => {
    const html = draw({ skills: [deploy] });
    expect(html).toContain("/deploy");
    expect(html).toContain("[environment]");
    expect(html).toContain("Deploy the branch");
    expect(html).toContain("Project");
  });

  it("lists a skill whose file is broken with what is wrong", () => {
    expect(draw({ skills: [broken] })).toContain(
      "Its file cannot be read: front matter: mapping values are not allowed",
    );
  });

  it("is one quiet line with the reason on hover when the engine lists nothing, never an error", () => {
    const html = draw({ reason: "Codex 0.40 cannot list its skills." });
    expect(html).toContain('title="Codex 0.40 cannot list its skills."');
    expect(html).not.toContain('role="alert"');
    expect(html).not.toContain('role="listbox"');
  });

  it("says it is loading until the list arrives", () => {
    expect(draw({ loading: true })).toContain("Loading skills…");
  });
});
