//! Plain-language descriptions the settings page shows in place of the spec's
//! text, for the keys whose spec text a person cannot read as it stands: it
//! names routes, headers, environment variables or tokens ("via POST
//! /alert", "$APP_CLI_TOKEN"), platforms by letter ("platforms W and M"), a
//! fixed port the server may not listen on, or "Immediate effect." (which the
//! page says nowhere: immediate is what every change is unless it says
//! otherwise).
//!
//! The catalog's `description` stays the spec's text verbatim (a test compares
//! it with the spec, and `docs/settings.md` prints it); a summary says the same
//! thing in words, or, where this version acts differently from the spec's
//! text (the Linux cgroup settings, team chat, the tab's count), what it does
//! here, as `decisions.md` records it. Any other key's summary is its description.

use crate::schema::SettingDef;

/// `(key, summary)`, in catalog order, only for the keys that need one.
#[rustfmt::skip]
pub(crate) static SUMMARIES: &[(&str, &str)] = &[
    ("agentAlertsEnabled", "Agents may add alerts to your inbox that stay there until you clear them."),
    ("aiCoachingCliEnabled", "Lets agents outside Switchboard read AI coaching material and start coaching interviews through Switchboard's control server. Default on; off turns all of that off."),
    ("allowAgentAppRestart", "Default off: no agent or script may restart Switchboard, not even one holding the main command-line key. Your own Restart button always works."),
    ("allowAgentTokenSpawn", "Default off: an agent holding only its own limited key may not start a session from the command line; the main command-line key still can. On: agents may start sessions with their own key."),
    ("allowAgentTokenTeamChat", "Default off: an agent holding only its own limited key may not write in team chat (messages, reactions, edits, deletions, pins, scheduled messages, guest invites). On: it may, and each message is labelled as sent by your agent."),
    ("requireSpawnSourceSession", "Default on: a request to start a session from the command line is refused unless it names the session asking (sessions Switchboard started know their own name). Off: requests that name no session are accepted too."),
    ("cliServerEnabled", "The local control server that the switchboard command, scripts and agents talk to. Default on. Off: it does not start at the next launch, and no tool can connect to Switchboard, not even to change the settings that govern it."),
    ("cliSpawnSpacingSeconds", "Wait between brand-new sessions that an agent or automation starts in a burst. 0 starts them at once. Sessions you open are never delayed."),
    ("sessionSelfArchiveWithoutApproval", "On: a finished session may archive itself at once, even when archiving needs your approval, and nothing reaches the inbox. Only archiving itself is exempt: a session archiving another still asks. Default off."),
    ("initialTitleModel", "Model that writes a new session's first title; leave empty to use the utility model set for all features."),
    ("sessionRestartSpacingSeconds", "Spacing between starts when several sessions come back together (after a restore, a rate limit or a batch restart). 0 uses the built-in spacing. A session you start yourself is never delayed."),
    ("sessionRestartSpacingAfterWarmupSeconds", "Spacing used once the warm-up time has passed; 0 keeps the first spacing for the whole batch."),
    ("sessionRestartSpacingWarmupMinutes", "How long the first spacing applies, counted from when the batch starts coming back; 0 skips the warm-up."),
    ("sessionRefillTargetCount", "When fewer sessions than this are running, Switchboard restarts recently active work sessions that were interrupted, up to this count. It never restarts a session that finished cleanly, waits for you, was stopped by you, or recovers by itself."),
    ("boostAppProcessPriority", "While a Switchboard tab is in front, Switchboard's server runs at a higher CPU priority. The server needs the right to raise its priority; without it, it stays at normal and its log says why."),
    ("keepAppResidentInMemory", "Keeps Switchboard's database in physical memory so it is never swapped out; sizes and caps itself, and turns itself off on machines short of memory. Default on."),
    ("keepAwakeWhileSessionsRunning", "Keeps the machine Switchboard runs on from going to sleep while any session is starting or running; the display may still sleep. Default on."),
    ("mergePriorityBoostEnabled", "While \"merge ready branches\" runs, its session gets four times a session's usual share of the CPU and every other session a quarter. Undone when the merge ends, after 30 minutes, or when turned off."),
    ("reserveUiCoreEnabled", "On a machine with 4 cores or more, keeps the first core free of sessions, so Switchboard itself stays quick. Default off."),
    ("sessionAdaptiveEcoreAffinity", "On processors with performance and efficiency cores, keeps sessions on the efficiency cores while the processor averages over 85 % busy, and releases them below 60 %."),
    ("sessionAdaptiveMemoryPaging", "When memory runs low, holds each busy session to the memory it already uses, so the system reclaims memory from sessions first. Starts above about 85 % of memory in use, stops below about 70 %."),
    ("sessionCpuCapEnabled", "When the machine is busy, limits the CPU that all sessions use together, and runs them at a lower priority."),
    ("sessionCpuCapStrict", "Makes the CPU limit hold even when nothing else is running."),
    ("sessionMaxProcessesEnabled", "Limits each session to 512 processes: past that, starting a new one fails until some finish. Nothing already running is stopped."),
    ("sessionStrictMcpConfig", "Each session gets only the tool (MCP) servers Switchboard set up for it, not every server in your global configuration. Applies to sessions of the primary engine. Default on."),
    ("sessionTreeBelowNormalPriority", "Runs each session, and everything it starts, at a lower CPU priority than other programs."),
    ("sessionTreeLowIoPriority", "Runs each session, and everything it starts, at the lowest disk priority, and reclaims memory from sessions first when memory runs short."),
    ("desktopIconBadgeEnabled", "Shows how many sessions need you in the browser tab's title and icon."),
    ("inboxShowCliPending", "Requests from the command line waiting for your approval."),
    ("inboxShowCron", "Scheduled jobs waiting for your approval."),
    ("emailInboundPrescreenPrompt", "Instructions that sort incoming email before the assistant reads it; empty uses the built-in ones. The form of the answer is fixed."),
    ("chatAppEnabled", "Lets Switchboard and its agents write in team chat (messages, reactions, edits, pins, scheduled messages, invites) through the connection set up in teamchat.toml; off refuses every such write. There is no team chat panel in this version."),
    ("chatAppPersonalEnabled", "Sends team chat messages as you (signed in with your own account) instead of as the bot; set up the bot first."),
    ("telemetryEmailEnabled", "Diagnostic emails to the address email.toml's [reports] names: a weekly digest of counts (sessions and turns by engine kind, crashes) and, unless \"Email each crash\" is off, each crash. Off sends neither. No address is assumed."),
];

impl SettingDef {
    /// What the settings page says the key does: its summary, else the spec's
    /// description.
    pub fn summary(&self) -> &'static str {
        SUMMARIES
            .iter()
            .find(|(key, _)| *key == self.key)
            .map_or(self.description, |(_, summary)| summary)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::SUMMARIES;
    use crate::catalog::DEFINITIONS;

    #[test]
    fn summaries_name_catalog_keys_once_in_catalog_order() {
        let order: Vec<&str> = DEFINITIONS.iter().map(|def| def.key).collect();
        let mut last = None;
        let mut seen = HashSet::new();
        for (key, summary) in SUMMARIES {
            let at = order.iter().position(|k| k == key);
            assert!(at.is_some(), "{key}: not a catalog key");
            assert!(seen.insert(key), "{key}: summarised twice");
            assert!(at > last, "{key}: out of catalog order");
            last = at;
            assert!(summary.ends_with('.'), "{key}: a summary is sentences");
        }
    }

    /// What a person reads on the settings page is free of the spec's shorthand.
    #[test]
    fn no_page_text_names_routes_variables_platform_letters_or_immediacy() {
        let jargon = [
            "POST /",
            "$APP",
            "X-App-",
            "platforms W",
            "platforms M",
            "Platform W",
            "Platform M",
            "platform L",
            "non-W platforms",
            "port 19519",
            "Immediate effect",
            "effect immediately",
            " via OAuth",
            " CLI ",
        ];
        for def in DEFINITIONS {
            let text = def.summary();
            for word in jargon {
                assert!(
                    !text.contains(word),
                    "{}: {word:?} in {text:?}; add a summary",
                    def.key
                );
            }
        }
    }

    #[test]
    fn a_summary_says_something_else_than_the_spec_text() {
        for def in DEFINITIONS {
            if let Some((_, summary)) = SUMMARIES.iter().find(|(key, _)| *key == def.key) {
                assert_ne!(
                    *summary, def.description,
                    "{}: summary is the spec text",
                    def.key
                );
            }
        }
    }

    /// Every key acts, or says why it cannot here (a desktop app's,
    /// Windows', stored only, one engine): a key added as "not built yet"
    /// fails this until it is built.
    #[test]
    fn no_key_is_left_not_built() {
        use crate::schema::NoEffect;
        let not_built: Vec<&str> = DEFINITIONS
            .iter()
            .filter(|def| def.why_no_effect() == Some(NoEffect::NotBuilt))
            .map(|def| def.key)
            .collect();
        assert!(not_built.is_empty(), "not built yet: {not_built:?}");
    }

    /// Only a key this version stores without acting on it can be one that a
    /// desktop app or Windows alone would act on.
    #[test]
    fn only_stored_keys_say_why_they_have_no_effect() {
        use crate::schema::NoEffect;
        let mut desktop = 0;
        for def in DEFINITIONS {
            if def.in_effect {
                assert_eq!(def.no_effect, NoEffect::NotBuilt, "{} acts", def.key);
                assert_eq!(def.why_no_effect(), None, "{}", def.key);
            } else {
                assert_eq!(def.why_no_effect(), Some(def.no_effect), "{}", def.key);
                desktop += usize::from(def.no_effect == NoEffect::DesktopApp);
            }
        }
        assert!(desktop > 0, "no key is marked as a desktop app's");
    }
}
