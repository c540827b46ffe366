import { describe, expect, it } from "vitest";
import type { Board } from "../../shared/api/types.generated";
import {
  describeAction,
  describeRule,
  describeTrigger,
  eventFills,
  NO_NAMES,
  parseMatch,
  ruleDraft,
  ruleFormErrors,
  ruleFormField,
  ruleFromDraft,
  ruleTemplates,
  statusLabels,
  type RuleNames,
} from "./rules";

const BOARD: Board = {
  id: "b1",
  workspaceId: "w1",
  name: "Bugs",
  columns: [
    { id: "name", title: "Name", type: "text", settings: {} },
    {
      id: "status",
      title: "Status",
      type: "status",
      settings: { labels: [{ name: "Ready" }, { name: "Doing" }, { name: "Done", done: true }, { name: "Stuck" }] },
    },
    { id: "review", title: "Review", type: "status", settings: { labels: [{ name: "Wanted" }] } },
    { id: "link", title: "Session link", type: "text", settings: {} },
  ],
  groups: [
    { id: "g1", title: "This week" },
    { id: "g2", title: "Shipped" },
  ],
  views: [],
  createdAt: "2026-01-01T00:00:00Z",
  updatedAt: "2026-01-01T00:00:00Z",
};

const NAMES: RuleNames = {
  recipes: new Map([["r1", "Fix bug"]]),
  boards: new Map([["b1", BOARD]]),
  webhooks: new Map([["h1", "GitHub"]]),
  schedules: new Map([["s1", "Nightly triage, Every day at 02:30"]]),
};

describe("describeRule", () => {
  it("says an item entering a status that runs a recipe and sets the item as the run ends", () => {
    const rule = {
      when: { kind: "item_status" as const, boardId: "b1", status: "Ready" },
      then: [
        {
          kind: "start_recipe" as const,
          recipeId: "r1",
          item: { sessionColumn: "link", runningStatus: "Doing", finishedStatus: "Done", failedStatus: "Stuck" },
        },
      ],
    };
    expect(describeRule(rule, NAMES)).toBe(
      "When an item on “Bugs” enters “Ready” → run “Fix bug”, set the item to “Doing” while it runs, link its session in Session link, on finish set the item to “Done”, on failure to “Stuck”",
    );
  });

  it("says a webhook delivery with conditions that runs a recipe", () => {
    const rule = {
      when: { kind: "webhook" as const, webhookId: "h1", match: { action: "opened", "repository.name": "app" } },
      then: [{ kind: "start_recipe" as const, recipeId: "r1", values: { label: "bug" } }],
    };
    expect(describeRule(rule, NAMES)).toBe(
      "When a delivery to webhook “GitHub” where action is “opened” and repository.name is “app” → run “Fix bug”",
    );
  });

  it("says a session ending that tells the inbox, and chains several actions", () => {
    expect(
      describeRule(
        { when: { kind: "session_end", outcome: "failed" }, then: [{ kind: "inbox", title: "A session failed" }] },
        NAMES,
      ),
    ).toBe("When a session fails → put “A session failed” in the inbox");
    expect(
      describeRule(
        {
          when: { kind: "item_group", boardId: "b1", groupId: "g2" },
          then: [
            { kind: "update_item", values: { status: "Done", review: "Wanted" } },
            { kind: "move_item", groupId: "g1" },
          ],
        },
        NAMES,
      ),
    ).toBe(
      "When an item on “Bugs” moves to group “Shipped” → set the item's Status to “Done”, Review to “Wanted”; then move the item to group “This week”",
    );
  });

  it("names every trigger", () => {
    expect(describeTrigger({ kind: "session_end", outcome: "needs_user", recipeId: "r1" }, NAMES)).toBe(
      "a run of “Fix bug” needs you",
    );
    expect(describeTrigger({ kind: "session_end", outcome: "finished" }, NAMES)).toBe("a session finishes");
    expect(describeTrigger({ kind: "schedule", scheduleId: "s1" }, NAMES)).toBe(
      "the schedule “Nightly triage, Every day at 02:30” comes due",
    );
    expect(describeTrigger({ kind: "item_status", boardId: "b1", status: "Wanted", column: "review" }, NAMES)).toBe(
      "an item on “Bugs” enters “Wanted” in Review",
    );
  });

  it("says what is gone instead of showing an id", () => {
    const rule = {
      when: { kind: "webhook" as const, webhookId: "gone" },
      then: [{ kind: "start_recipe" as const, recipeId: "gone" }],
    };
    expect(describeRule(rule, NO_NAMES)).toBe("When a delivery to a deleted webhook → run a deleted recipe");
    expect(describeTrigger({ kind: "item_status", boardId: "gone", status: "Ready" }, NO_NAMES)).toBe(
      "an item on a deleted board enters “Ready”",
    );
    expect(describeRule({ when: { kind: "session_end", outcome: "failed" }, then: [] }, NO_NAMES)).toBe(
      "When a session fails → do nothing",
    );
  });

  it("writes values that are not text as JSON", () => {
    expect(describeAction({ kind: "update_item", values: { count: 3 } }, NO_NAMES, undefined)).toBe(
      "set the item's count to 3",
    );
    expect(describeAction({ kind: "update_item", values: {} }, NO_NAMES, undefined)).toBe("update the item");
  });
});

describe("statusLabels", () => {
  it("lists the first status column's labels, or the named column's", () => {
    expect(statusLabels(BOARD)).toEqual(["Ready", "Doing", "Done", "Stuck"]);
    expect(statusLabels(BOARD, "review")).toEqual(["Wanted"]);
    expect(statusLabels(BOARD, "link")).toEqual([]);
    expect(statusLabels(undefined)).toEqual([]);
  });
});

describe("parseMatch", () => {
  it("reads one path = value a line, skipping blank lines", () => {
    expect(parseMatch("action = opened\n\n  repository.name=app  \nref = a=b")).toEqual({
      ok: true,
      value: { action: "opened", "repository.name": "app", ref: "a=b" },
    });
    expect(parseMatch("")).toEqual({ ok: true, value: {} });
  });

  it("names a line that is not one", () => {
    expect(parseMatch("action opened")).toMatchObject({
      ok: false,
      errors: { byField: { match: [expect.any(String)] } },
    });
    expect(parseMatch("= x")).toMatchObject({ ok: false, errors: { byField: { match: [expect.any(String)] } } });
  });
});

describe("ruleFromDraft", () => {
  const base = { ...ruleDraft(), name: " Fix ready bugs ", boardId: "b1", status: "Ready", recipeId: "r1" };

  it("makes an item-status rule that runs a recipe and sets the item as the run ends", () => {
    expect(
      ruleFromDraft({ ...base, finishedStatus: "Done", failedStatus: "Stuck", values: { label: "bug" } }, ["label"]),
    ).toEqual({
      ok: true,
      value: {
        name: "Fix ready bugs",
        when: { kind: "item_status", boardId: "b1", status: "Ready" },
        then: [
          {
            kind: "start_recipe",
            recipeId: "r1",
            values: { label: "bug" },
            item: { finishedStatus: "Done", failedStatus: "Stuck" },
          },
        ],
      },
    });
    // The statuses it sets are of the column it watches.
    expect(
      ruleFromDraft(
        { ...base, statusColumn: "review", status: "Wanted", runningStatus: "Busy", sessionColumn: "link" },
        [],
      ),
    ).toMatchObject({
      value: {
        then: [
          {
            kind: "start_recipe",
            recipeId: "r1",
            item: { sessionColumn: "link", statusColumn: "review", runningStatus: "Busy" },
          },
        ],
      },
    });
    expect(ruleFromDraft({ ...base, statusColumn: "review", status: "Wanted" }, [])).toMatchObject({
      ok: true,
      value: {
        when: { kind: "item_status", boardId: "b1", status: "Wanted", column: "review" },
        then: [{ kind: "start_recipe", recipeId: "r1" }],
      },
    });
  });

  it("makes a webhook rule with its conditions", () => {
    const draft = { ...base, template: "webhook" as const, webhookId: "h1", match: "action = opened" };
    expect(ruleFromDraft(draft, [])).toEqual({
      ok: true,
      value: {
        name: "Fix ready bugs",
        when: { kind: "webhook", webhookId: "h1", match: { action: "opened" } },
        then: [{ kind: "start_recipe", recipeId: "r1" }],
      },
    });
    expect(ruleFromDraft({ ...draft, match: "" }, [])).toMatchObject({
      value: { when: { kind: "webhook", webhookId: "h1" } },
    });
  });

  it("makes a session-end rule that tells the inbox", () => {
    const draft = { ...base, template: "session_end" as const, outcome: "failed" as const, inboxTitle: " Failed " };
    expect(ruleFromDraft(draft, [])).toEqual({
      ok: true,
      value: {
        name: "Fix ready bugs",
        when: { kind: "session_end", outcome: "failed" },
        then: [{ kind: "inbox", title: "Failed" }],
      },
    });
    expect(ruleFromDraft({ ...draft, endRecipeId: "r1", inboxBody: "Look" }, [])).toMatchObject({
      value: {
        when: { kind: "session_end", outcome: "failed", recipeId: "r1" },
        then: [{ kind: "inbox", title: "Failed", body: "Look" }],
      },
    });
  });

  it("takes any other rule as JSON", () => {
    const json = '{"when": {"kind": "schedule", "scheduleId": "s1"}, "then": [{"kind": "inbox", "title": "Tick"}]}';
    expect(ruleFromDraft({ ...base, template: "json", json }, [])).toEqual({
      ok: true,
      value: {
        name: "Fix ready bugs",
        when: { kind: "schedule", scheduleId: "s1" },
        then: [{ kind: "inbox", title: "Tick" }],
      },
    });
    expect(ruleFromDraft({ ...base, template: "json", json: "{" }, [])).toMatchObject({
      ok: false,
      errors: { byField: { json: [expect.any(String)] } },
    });
    expect(ruleFromDraft({ ...base, template: "json", json: '{"when": {}, "then": []}' }, [])).toMatchObject({
      ok: false,
      errors: { byField: { json: [expect.any(String)] } },
    });
    expect(
      ruleFromDraft({ ...base, template: "json", json: '{"when": {"kind": "schedule"}, "then": []}' }, []),
    ).toMatchObject({ ok: false, errors: { byField: { json: [expect.any(String)] } } });
  });

  it("names the field that is missing", () => {
    const field = (over: Partial<typeof base>, placeholders: string[] = []) => {
      const checked = ruleFromDraft({ ...base, ...over }, placeholders);
      return checked.ok ? null : Object.keys(checked.errors.byField).join(",");
    };
    expect(field({ name: "" })).toBe("name");
    expect(field({ boardId: "" })).toBe("boardId");
    expect(field({ status: " " })).toBe("status");
    expect(field({ recipeId: "" })).toBe("recipeId");
    expect(field({}, ["label"])).toBe("values");
    expect(field({ template: "webhook" })).toBe("webhookId");
    expect(field({ template: "webhook", webhookId: "h1", match: "nonsense" })).toBe("match");
    expect(field({ template: "session_end" })).toBe("inboxTitle");
  });
});

describe("ruleFromDraft says every problem at once", () => {
  it("for an empty item rule", () => {
    const empty = ruleFromDraft({ ...ruleDraft(), recipeId: "" }, ["label"]);
    expect(empty.ok ? null : empty.errors.byField).toEqual({
      name: ["Give the rule a name."],
      boardId: ["Choose the board whose items set it off."],
      status: ["Choose the status an item enters."],
      recipeId: ["Choose the recipe to start."],
      values: ["Give a value for {{label}}."],
    });
  });

  it("moves the server's fields to where the form shows them", () => {
    const errors = ruleFormErrors(
      {
        byField: { "when.boardId": ["Names no board."], "then.recipeId": ["Names no recipe."], then: ["Loops."] },
        general: null,
      },
      "item_status",
    );
    expect(errors).toEqual({
      byField: { boardId: ["Names no board."], recipeId: ["Names no recipe."] },
      general: "Loops.",
    });
  });
});

describe("ruleFormField", () => {
  it("puts the server's refusal beside the field of the case shown", () => {
    expect(ruleFormField("when.boardId", "item_status")).toBe("boardId");
    expect(ruleFormField("then.title", "session_end")).toBe("inboxTitle");
    expect(ruleFormField("then.values", "webhook")).toBe("values");
    expect(ruleFormField("name", "json")).toBe("name");
    expect(ruleFormField("when.groupId", "json")).toBe("json");
    expect(ruleFormField("then", "json")).toBe("json");
  });

  it("leaves a refusal about no field the form shows above its buttons", () => {
    expect(ruleFormField("then", "item_status")).toBeNull();
    expect(ruleFormField("when.groupId", "item_status")).toBeNull();
    expect(ruleFormField(null, "json")).toBeNull();
  });
});

describe("placeholders the event fills", () => {
  it("are the item's, the delivery's or the session's fields", () => {
    expect(eventFills("item_status", "item.name")).toBe(true);
    expect(eventFills("item_status", "board.id")).toBe(true);
    expect(eventFills("item_status", "label")).toBe(false);
    expect(eventFills("webhook", "body.workflow_run.html_url")).toBe(true);
    expect(eventFills("webhook", "title")).toBe(true);
    expect(eventFills("webhook", "item.name")).toBe(false);
    expect(eventFills("session_end", "session.summary")).toBe(true);
    expect(eventFills("json", "anything")).toBe(true);
  });

  it("need no value, and a blank one is not sent", () => {
    const draft = { ...ruleDraft(), name: "Loop", boardId: "b1", status: "Ready", recipeId: "r1" };
    expect(ruleFromDraft(draft, ["item.name", "item.prompt"])).toMatchObject({
      ok: true,
      value: { then: [{ kind: "start_recipe", recipeId: "r1" }] },
    });
    const given = ruleFromDraft({ ...draft, values: { "item.name": " ", label: "bug" } }, ["item.name", "label"]);
    expect(given.ok && given.value.then[0]).toEqual({ kind: "start_recipe", recipeId: "r1", values: { label: "bug" } });
    expect(ruleFromDraft(draft, ["item.name", "label"])).toMatchObject({
      ok: false,
      errors: { byField: { values: ["Give a value for {{label}}."] } },
    });
  });
});

describe("ruleTemplates", () => {
  it("offers a board trigger only while the board module is on", () => {
    expect(ruleTemplates(true)).toContain("item_status");
    expect(ruleTemplates(false)).not.toContain("item_status");
    expect(ruleTemplates(false)).toEqual(["webhook", "session_end", "json"]);
  });
});
