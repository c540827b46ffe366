//! The web app's TypeScript types are generated from the Rust wire types and
//! the settings schema. This test writes them and fails when the checked-in
//! files were stale, so one run both catches and fixes the drift (commit the
//! rewritten files).

mod fresh;

use std::path::{Path, PathBuf};

use fresh::ensure_file_contents;

use ts_rs::{Config, TS};

fn decl<T: TS>(cfg: &Config) -> String {
    format!("export {}\n", T::decl(cfg))
}

fn api_types() -> String {
    // JSON.parse gives every integer as a number, never a bigint.
    let cfg = Config::new().with_large_int("number");
    let mut out = String::from(
        "// Generated from the Rust wire types by `cargo test -p server --test typescript`. Do not edit.\n\n\
         export type JsonValue = number | string | boolean | null | Array<JsonValue> | { [key in string]?: JsonValue };\n\n",
    );
    let decls = [
        decl::<server::wire::ErrorBody>(&cfg),
        decl::<server::wire::ErrorDetail>(&cfg),
        decl::<server::wire::FieldMessage>(&cfg),
        decl::<server::wire::Me>(&cfg),
        decl::<server::wire::BrowserSession>(&cfg),
        decl::<server::wire::SettingView>(&cfg),
        decl::<server::wire::SettingChanged>(&cfg),
        decl::<server::wire::OutputEvent>(&cfg),
        decl::<server::wire::BoardChanged>(&cfg),
        decl::<server::wire::NewAccount>(&cfg),
        decl::<server::wire::CreatedAccount>(&cfg),
        decl::<server::wire::RunnerToken>(&cfg),
        decl::<server::wire::CreatedRunnerToken>(&cfg),
        decl::<server::wire::RunnerListener>(&cfg),
        decl::<server::wire::NewAlert>(&cfg),
        decl::<server::wire::Named>(&cfg),
        decl::<server::wire::Titled>(&cfg),
        decl::<server::wire::Order>(&cfg),
        decl::<server::wire::ColumnChange>(&cfg),
        decl::<server::wire::ItemMove>(&cfg),
        decl::<server::wire::ItemBatch>(&cfg),
        decl::<server::wire::BatchCreated>(&cfg),
        decl::<server::wire::SessionMessage>(&cfg),
        decl::<server::wire::RenameSession>(&cfg),
        decl::<server::wire::UtilitySpend>(&cfg),
        decl::<server::wire::UtilityFeatureSpend>(&cfg),
        decl::<utility::UtilityCall>(&cfg),
        decl::<utility::Feature>(&cfg),
        decl::<utility::Outcome>(&cfg),
        decl::<digests::Summary>(&cfg),
        decl::<digests::Kind>(&cfg),
        decl::<friction::Report>(&cfg),
        decl::<friction::Finding>(&cfg),
        decl::<friction::Kind>(&cfg),
        decl::<tasks::Task>(&cfg),
        decl::<tasks::TaskState>(&cfg),
        decl::<tasks::NewTask>(&cfg),
        decl::<tasks::TaskPatch>(&cfg),
        decl::<tasks::TaskMove>(&cfg),
        decl::<tasks::Caught>(&cfg),
        decl::<tasks::Mirror>(&cfg),
        decl::<tasks::MirrorFolder>(&cfg),
        decl::<server::wire::StopSession>(&cfg),
        decl::<server::wire::LifecycleDeferred>(&cfg),
        decl::<server::wire::StartDecision>(&cfg),
        decl::<server::wire::UsageRange>(&cfg),
        decl::<server::wire::PublishedLink>(&cfg),
        decl::<server::wire::PublicationState>(&cfg),
        decl::<boards::Workspace>(&cfg),
        decl::<boards::Member>(&cfg),
        decl::<boards::NewMember>(&cfg),
        decl::<boards::MemberPatch>(&cfg),
        decl::<boards::ColumnType>(&cfg),
        decl::<boards::Column>(&cfg),
        decl::<boards::Group>(&cfg),
        decl::<boards::View>(&cfg),
        decl::<boards::Board>(&cfg),
        decl::<boards::NewColumn>(&cfg),
        decl::<boards::NewGroup>(&cfg),
        decl::<boards::NewBoard>(&cfg),
        decl::<boards::Item>(&cfg),
        decl::<boards::NewItem>(&cfg),
        decl::<boards::ItemPatch>(&cfg),
        decl::<boards::FullBoardBody>(&cfg),
        decl::<boards::FullBoardHeader>(&cfg),
        decl::<boards::FullItem>(&cfg),
        decl::<boards::ColumnsBoardBody>(&cfg),
        decl::<boards::ItemColumns>(&cfg),
        decl::<boards::StringColumn>(&cfg),
        decl::<boards::CodeList>(&cfg),
        decl::<boards::ValueColumn>(&cfg),
        decl::<boards::EventKind>(&cfg),
        decl::<boards::ItemEvent>(&cfg),
        decl::<boards::ImportReport>(&cfg),
        decl::<boards::InferredColumn>(&cfg),
        decl::<boards::CsvImportReport>(&cfg),
        decl::<dashboards::Dashboard>(&cfg),
        decl::<dashboards::NewDashboard>(&cfg),
        decl::<dashboards::DashboardPatch>(&cfg),
        decl::<dashboards::PublicDashboardBody>(&cfg),
        decl::<dashboards::PublicDashboard>(&cfg),
        decl::<dashboards::PublicBoard>(&cfg),
        decl::<dashboards::PublicBoardHeader>(&cfg),
        decl::<dashboards::PublicMember>(&cfg),
        decl::<sessions::Status>(&cfg),
        decl::<sessions::Session>(&cfg),
        decl::<sessions::TitleSource>(&cfg),
        decl::<sessions::Worktree>(&cfg),
        decl::<sessions::Isolation>(&cfg),
        decl::<sessions::SpawnRequest>(&cfg),
        decl::<sessions::Transcript>(&cfg),
        decl::<sessions::Turn>(&cfg),
        decl::<sessions::StatusEvent>(&cfg),
        decl::<sessions::EngineInfo>(&cfg),
        decl::<sessions::Tokens>(&cfg),
        decl::<sessions::Usage>(&cfg),
        decl::<sessions::StopReason>(&cfg),
        decl::<sessions::Entry>(&cfg),
        decl::<sessions::EntryBody>(&cfg),
        decl::<sessions::EntryPage>(&cfg),
        decl::<sessions::InputSource>(&cfg),
        decl::<sessions::NoticeSource>(&cfg),
        decl::<sessions::TodoItem>(&cfg),
        decl::<sessions::TodoStatus>(&cfg),
        decl::<sessions::Activity>(&cfg),
        decl::<sessions::ActivityKind>(&cfg),
        decl::<sessions::UsageDay>(&cfg),
        decl::<sessions::Trigger>(&cfg),
        decl::<sessions::TurnEnd>(&cfg),
        decl::<sessions::SessionChanges>(&cfg),
        decl::<sessions::ChangedFile>(&cfg),
        decl::<sessions::ChangeStatus>(&cfg),
        decl::<sessions::ChangedFileDiff>(&cfg),
        decl::<permissions::Approval>(&cfg),
        decl::<permissions::ApprovalState>(&cfg),
        decl::<permissions::Remember>(&cfg),
        decl::<permissions::PermissionRecord>(&cfg),
        decl::<permissions::Level>(&cfg),
        decl::<permissions::Verdict>(&cfg),
        decl::<governor::Check>(&cfg),
        decl::<governor::Skipped>(&cfg),
        decl::<governor::SkipReason>(&cfg),
        decl::<doctor::Report>(&cfg),
        decl::<runners::RunnerInfo>(&cfg),
        decl::<runners::RunnerKind>(&cfg),
        decl::<runners::RunnerState>(&cfg),
        decl::<runners::Memory>(&cfg),
        decl::<runners::EngineVersion>(&cfg),
        decl::<doctor::EnginesFile>(&cfg),
        decl::<doctor::Engine>(&cfg),
        decl::<doctor::Coverage>(&cfg),
        decl::<doctor::Sandbox>(&cfg),
        decl::<doctor::SandboxMode>(&cfg),
        decl::<doctor::Ports>(&cfg),
        decl::<doctor::Port>(&cfg),
        decl::<doctor::PortState>(&cfg),
        decl::<doctor::DataDir>(&cfg),
        decl::<doctor::DataFile>(&cfg),
        decl::<doctor::Resources>(&cfg),
        decl::<doctor::KeepAwake>(&cfg),
        decl::<resources::Mode>(&cfg),
        decl::<resources::Usage>(&cfg),
        decl::<secrets::InputRequest>(&cfg),
        decl::<secrets::RequestState>(&cfg),
        decl::<secrets::KeyProposal>(&cfg),
        decl::<secrets::ProposalState>(&cfg),
        decl::<secrets::Reviewed>(&cfg),
        decl::<secrets::SavedKey>(&cfg),
        decl::<server::wire::NewInputRequest>(&cfg),
        decl::<server::wire::InputAnswer>(&cfg),
        decl::<server::wire::NewKeyProposal>(&cfg),
        decl::<server::wire::KeyDecision>(&cfg),
        decl::<server::wire::KeyDecisionKind>(&cfg),
        decl::<server::wire::KeyValue>(&cfg),
        decl::<server::wire::NavigateEvent>(&cfg),
        decl::<server::wire::ForegroundEvent>(&cfg),
        decl::<navigation::View>(&cfg),
        decl::<navigation::Delivery>(&cfg),
        decl::<coaching::Artifact>(&cfg),
        decl::<coaching::ArtifactKind>(&cfg),
        decl::<coaching::Weekly>(&cfg),
        decl::<bookmarks::Bookmark>(&cfg),
        decl::<bookmarks::Kind>(&cfg),
        decl::<work::Entry>(&cfg),
        decl::<work::State>(&cfg),
        decl::<work::Action>(&cfg),
        decl::<work::Landing>(&cfg),
        decl::<work::Commit>(&cfg),
        decl::<work::Uncommitted>(&cfg),
        decl::<work::reviews::Review>(&cfg),
        decl::<work::reviews::Finding>(&cfg),
        decl::<work::reviews::Severity>(&cfg),
        decl::<automations::Recipe>(&cfg),
        decl::<automations::NewRecipe>(&cfg),
        decl::<automations::Isolation>(&cfg),
        decl::<automations::RecipeRun>(&cfg),
        decl::<automations::RunState>(&cfg),
        decl::<automations::Schedule>(&cfg),
        decl::<automations::NewSchedule>(&cfg),
        decl::<automations::Spec>(&cfg),
        decl::<automations::Missed>(&cfg),
        decl::<automations::State>(&cfg),
        decl::<server::wire::RecipeList>(&cfg),
        decl::<server::wire::RecipeRunList>(&cfg),
        decl::<server::wire::RecipeScheduleList>(&cfg),
        decl::<server::wire::RecipeRunRequest>(&cfg),
        decl::<server::wire::RecipeRunStarted>(&cfg),
        decl::<drips::ScheduledMessage>(&cfg),
        decl::<drips::NewMessage>(&cfg),
        decl::<drips::CadenceState>(&cfg),
        decl::<drips::Timing>(&cfg),
        decl::<drips::Drip>(&cfg),
        decl::<drips::NewDrip>(&cfg),
        decl::<drips::Item>(&cfg),
        decl::<drips::ItemContent>(&cfg),
        decl::<drips::ItemKind>(&cfg),
        decl::<drips::NewItem>(&cfg),
        decl::<server::wire::ScheduledMessageList>(&cfg),
        decl::<server::wire::DripList>(&cfg),
        decl::<server::wire::DripItemList>(&cfg),
        decl::<focus::FocusState>(&cfg),
        decl::<focus::FocusBy>(&cfg),
        decl::<app::pomodoro::FocusEvent>(&cfg),
        decl::<app::pomodoro::Released>(&cfg),
        decl::<focus::PomodoroState>(&cfg),
        decl::<focus::RunState>(&cfg),
        decl::<focus::Plan>(&cfg),
        decl::<focus::Phase>(&cfg),
        decl::<focus::PomodoroRule>(&cfg),
        decl::<server::wire::FocusChangeBody>(&cfg),
        decl::<server::wire::RunningApp>(&cfg),
        decl::<server::wire::Skill>(&cfg),
        decl::<server::wire::ImportUrl>(&cfg),
        decl::<server::wire::ImportedDocument>(&cfg),
        decl::<attachments::Attachment>(&cfg),
        decl::<server::wire::SpawnWithAttachments>(&cfg),
        decl::<server::wire::AskQuestion>(&cfg),
        decl::<server::wire::AskStarted>(&cfg),
        decl::<server::wire::SkillScope>(&cfg),
        decl::<server::wire::RunningAppState>(&cfg),
        decl::<server::wire::RunningAppOrigin>(&cfg),
        decl::<server::wire::AppsProxy>(&cfg),
        decl::<server::wire::AppOutput>(&cfg),
        decl::<server::wire::DeclaredApp>(&cfg),
        decl::<server::wire::StartApp>(&cfg),
        decl::<server::wire::PomodoroAction>(&cfg),
        decl::<server::wire::PomodoroChange>(&cfg),
        decl::<calendar::Kind>(&cfg),
        decl::<calendar::Status>(&cfg),
        decl::<calendar::Account>(&cfg),
        decl::<calendar::CalendarInfo>(&cfg),
        decl::<calendar::Occurrence>(&cfg),
        decl::<calendar::Source>(&cfg),
        decl::<calendar::AccountSource>(&cfg),
        decl::<calendar::ItemSource>(&cfg),
        decl::<calendar::SprintSource>(&cfg),
        decl::<calendar::SyncReport>(&cfg),
        decl::<server::wire::NewCalendar>(&cfg),
        decl::<app::calendar_reminders::CalendarReminder>(&cfg),
        decl::<app::calendar_reminders::CalendarNoticeKind>(&cfg),
        decl::<automations::AutomationRule>(&cfg),
        decl::<automations::NewRule>(&cfg),
        decl::<automations::Trigger>(&cfg),
        decl::<automations::SessionOutcome>(&cfg),
        decl::<automations::RuleAction>(&cfg),
        decl::<automations::ItemFollowUp>(&cfg),
        decl::<automations::RuleState>(&cfg),
        decl::<automations::RuleFiring>(&cfg),
        decl::<automations::RuleDryRun>(&cfg),
        decl::<automations::FiringOutcome>(&cfg),
        decl::<server::wire::RuleList>(&cfg),
        decl::<server::wire::RuleFiringList>(&cfg),
        decl::<codehosts::PullRequest>(&cfg),
        decl::<codehosts::PullRequestState>(&cfg),
        decl::<bookmarks::Fields>(&cfg),
        decl::<server::wire::NewAlarm>(&cfg),
        decl::<server::wire::AlarmChanged>(&cfg),
        decl::<server::wire::TasksChanged>(&cfg),
        decl::<server::wire::TasksView>(&cfg),
        decl::<alarms::Alarm>(&cfg),
        decl::<alarms::Status>(&cfg),
        decl::<alarms::Repeat>(&cfg),
        decl::<inbox::Category>(&cfg),
        decl::<inbox::InboxRow>(&cfg),
        decl::<inbox::Source>(&cfg),
        decl::<inbox::Action>(&cfg),
        decl::<inbox::StateFilter>(&cfg),
        decl::<inbox::RowChange>(&cfg),
        decl::<server::wire::InboxEvent>(&cfg),
        decl::<server::wire::ReadAll>(&cfg),
        decl::<server::wire::ReadAllDone>(&cfg),
        decl::<server::wire::NewWebhook>(&cfg),
        decl::<server::wire::CreatedWebhook>(&cfg),
        decl::<server::wire::MetricsToken>(&cfg),
        decl::<server::wire::CreatedMetricsToken>(&cfg),
        decl::<webhooks::Webhook>(&cfg),
        decl::<webhooks::Purpose>(&cfg),
        decl::<bugintake::BugReport>(&cfg),
        decl::<bugintake::ReportState>(&cfg),
        decl::<bugintake::Reason>(&cfg),
        decl::<bugintake::Source>(&cfg),
    ];
    out.push_str(&decls.join("\n"));
    out.push_str(&name_lists());
    out
}

/// The closed lists of names both sides use, as `as const` arrays with their
/// union types, so the web app has no copy of its own to drift.
fn name_lists() -> String {
    let lists: [(&str, &str, &[&str]); 3] = [
        ("SETUP_PRESETS", "SetupPreset", &boards::presets::PRESETS),
        (
            "WIDGET_TYPES",
            "WidgetType",
            dashboards::config::WIDGET_TYPES,
        ),
        ("FILTER_OPS", "FilterOp", dashboards::config::FILTER_OPS),
    ];
    lists
        .iter()
        .map(|(constant, union, names)| {
            let quoted: Vec<String> = names.iter().map(|name| format!("{name:?}")).collect();
            format!(
                "\nexport const {constant} = [{}] as const;\n\nexport type {union} = (typeof {constant})[number];\n",
                quoted.join(", ")
            )
        })
        .collect()
}

fn web_api_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web/src/shared/api")
}

#[test]
fn api_types_are_fresh() {
    ensure_file_contents(&web_api_dir().join("types.generated.ts"), &api_types());
}

/// The setup presets are a select of the settings catalog and the templates of
/// the boards crate: one list, or the wizard offers a preset with no template.
#[test]
fn setup_presets_are_the_settings_select() {
    let def = settings::lookup("pmSetupPreset").unwrap();
    let settings::Kind::Select(options) = def.kind else {
        panic!("pmSetupPreset is not a select");
    };
    assert_eq!(options, boards::presets::PRESETS);
}

#[test]
fn settings_types_are_fresh() {
    ensure_file_contents(
        &web_api_dir().join("settings.generated.ts"),
        &settings::typescript(),
    );
}
