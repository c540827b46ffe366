/**
 * Automations (`/automations`, docs/automations.md): recipes (saved starts of a session, run by
 * hand or on a schedule) with their run history, schedules, and rules with what each did when it
 * fired. The tab is the address's fragment (`#schedules`, `#rules`); `#run=<id>` opens a recipe's
 * Run dialog, which is how the palette runs one whose prompt asks for values, and `#new-recipe`
 * the palette's New recipe form.
 */
import { useCallback, useMemo } from "react";
import { ApiError } from "../../shared/api/client";
import type {
  Board,
  Category,
  InboxEvent,
  RecipeList,
  RecipeScheduleList,
  RuleList,
  Webhook,
} from "../../shared/api/types.generated";
import { useApi } from "../../shared/hooks/useApi";
import { useSettings } from "../../shared/settings";
import { boardsShown } from "../../shared/boardsModule";
import { navigate, useHash } from "../../shared/router";
import { useStreamEvent } from "../../shared/stream/useStream";
import { PageHeader } from "../../shared/ui/PageHeader";
import { TabButtons } from "../../shared/ui/Tabs";
import { ErrorNote, Loading } from "../../shared/ui/Status";
import { RECIPES_PATH, RULES_PATH, SCHEDULES_PATH } from "./api";
import {
  AUTOMATIONS_PATH,
  NEW_RECIPE_FRAGMENT,
  runRequestOf,
  runsRequestOf,
  tabOf,
  TAB_LABEL,
  TABS,
  type AutomationTab,
} from "./page";
import { RecipesTab } from "./RecipesTab";
import { byName } from "./recipes";
import type { RuleNames } from "./rules";
import { RulesTab } from "./RulesTab";
import { SchedulesTab } from "./SchedulesTab";
import { capitalized, describeSchedule, scheduleRule } from "./schedules";
import "./automations.css";

/** The inbox categories automations tell. */
const AUTOMATION_CATEGORIES: readonly Category[] = ["recipes", "cron", "automations"];

export function AutomationsPage() {
  const hash = useHash();
  const tab = tabOf(hash);
  const runRequested = runRequestOf(hash);
  const recipes = useApi<RecipeList>(RECIPES_PATH);
  const schedules = useApi<RecipeScheduleList>(SCHEDULES_PATH);
  const rules = useApi<RuleList>(RULES_PATH);
  // What rules name (boards and their statuses, webhooks) is read once rules are looked at.
  const boardsOn = boardsShown(useSettings().values);
  const boards = useApi<Board[]>(tab === "rules" && boardsOn ? "/boards" : null);
  const webhooks = useApi<Webhook[]>(tab === "rules" ? "/webhooks" : null);

  const recipeList = useMemo(() => byName(recipes.data?.recipes ?? []), [recipes.data]);
  const scheduleList = schedules.data?.schedules;
  const ruleList = rules.data?.rules;
  // A server without rules answers 404: the tab says so rather than offering a retry.
  const rulesMissing = rules.error instanceof ApiError && rules.error.status === 404;

  const reloadRecipes = recipes.reload;
  const reloadSchedules = schedules.reload;
  const reloadRules = rules.reload;
  const reloadAll = useCallback(() => {
    reloadRecipes();
    reloadSchedules();
    reloadRules();
  }, [reloadRecipes, reloadSchedules, reloadRules]);

  // A run that failed, a schedule or rule an agent made: each tells the inbox, and the page reads its lists again.
  useStreamEvent<InboxEvent>("inbox", (event) => {
    if (event.change !== "read_all" && AUTOMATION_CATEGORIES.includes(event.category)) reloadAll();
  });

  const scheduleCounts = useMemo(() => {
    const counts = new Map<string, number>();
    for (const s of scheduleList ?? []) counts.set(s.recipeId, (counts.get(s.recipeId) ?? 0) + 1);
    return counts;
  }, [scheduleList]);

  const names = useMemo<RuleNames>(() => {
    const recipeNames = new Map(recipeList.map((r) => [r.id, r.name]));
    return {
      recipes: recipeNames,
      boards: new Map((boards.data ?? []).map((b) => [b.id, b])),
      webhooks: new Map((webhooks.data ?? []).map((w) => [w.id, w.name])),
      schedules: new Map(
        (scheduleList ?? []).map((s) => [
          s.id,
          `${recipeNames.get(s.recipeId) ?? "a deleted recipe"}, ${capitalized(describeSchedule(s) ?? scheduleRule(s).text)}`,
        ]),
      ),
    };
  }, [recipeList, boards.data, webhooks.data, scheduleList]);

  const pendingSchedules = scheduleList?.filter((s) => s.state === "pending").length ?? 0;
  const pendingRules = ruleList?.filter((r) => r.state === "pending").length ?? 0;
  const counts: Record<AutomationTab, number | undefined> = {
    recipes: recipes.data?.recipes.length,
    schedules: scheduleList?.length,
    rules: ruleList?.length,
  };
  const waiting: Record<AutomationTab, number> = { recipes: 0, schedules: pendingSchedules, rules: pendingRules };

  const showTab = (next: AutomationTab) => navigate(`${AUTOMATIONS_PATH}#${next}`, { replace: true });
  const runRequestSeen = useCallback(() => navigate(`${AUTOMATIONS_PATH}#recipes`, { replace: true }), []);

  return (
    <section className="page automations-page touch">
      <PageHeader
        title="Automations"
        actions={
          <button
            type="button"
            onClick={reloadAll}
            disabled={recipes.loading || schedules.loading}
            aria-busy={recipes.loading || schedules.loading || undefined}
          >
            Refresh
          </button>
        }
      />
      <TabButtons
        label="Automations"
        panelIds="automation"
        selected={tab}
        onSelect={showTab}
        tabs={TABS.map((t) => ({
          key: t,
          label: TAB_LABEL[t],
          extra: (
            <>
              {counts[t] !== undefined && <span className="automation-count">{counts[t]}</span>}
              {waiting[t] > 0 && (
                <span className="automation-waiting" title={`${waiting[t]} waiting for approval`}>
                  {waiting[t]}
                  {/* "1 to approve" says just "1" on a phone; the words stay for screen readers. */}
                  <span className="phone-hidden-words"> to approve</span>
                </span>
              )}
            </>
          ),
        }))}
      />
      <div role="tabpanel" id={`automation-panel-${tab}`} aria-labelledby={`automation-tab-${tab}`}>
        {recipes.error !== undefined ? (
          <ErrorNote error={recipes.error} onRetry={recipes.reload} />
        ) : !recipes.data ? (
          <Loading what="recipes" />
        ) : tab === "recipes" ? (
          <RecipesTab
            recipes={recipeList}
            scheduleCounts={scheduleCounts}
            runRequested={runRequested}
            runsRequested={runsRequestOf(hash)}
            newRequested={hash === NEW_RECIPE_FRAGMENT}
            onRunRequestSeen={runRequestSeen}
            onChanged={reloadAll}
          />
        ) : tab === "schedules" ? (
          schedules.error !== undefined ? (
            <ErrorNote error={schedules.error} onRetry={schedules.reload} />
          ) : !scheduleList ? (
            <Loading what="schedules" />
          ) : (
            <SchedulesTab schedules={scheduleList} recipes={recipeList} onChanged={reloadAll} />
          )
        ) : rulesMissing ? (
          <div className="automation-tab">
            <div className="automation-empty empty-state">
              <p>Rules are not available on this server yet.</p>
              <p className="muted">
                Update Switchboard to make rules that run recipes when items, webhooks or sessions change.
              </p>
            </div>
          </div>
        ) : rules.error !== undefined ? (
          <ErrorNote error={rules.error} onRetry={rules.reload} />
        ) : !ruleList ? (
          <Loading what="rules" />
        ) : (
          <RulesTab
            rules={ruleList}
            recipes={recipeList}
            boards={boards.data}
            webhooks={webhooks.data}
            names={names}
            boardsOn={boardsOn}
            onChanged={reloadAll}
          />
        )}
      </div>
    </section>
  );
}
