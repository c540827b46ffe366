//! How full a session's context window is: the windows of the models the
//! engines run, and the moments a reading crosses 75 % and 90 %, when the
//! chat gets a note (once per crossing, not on every reading above).
//!
//! Where the engine states the window itself (Claude Code's
//! `modelUsage.<model>.contextWindow`), that one counts ([`context_window`]);
//! the table is for the rest. A model neither knows has no window, and so
//! no note: a wrong guess would warn too early or too late, and no warning
//! is what the user had before.

/// Known models by id prefix, the longest (most specific) first, in tokens.
///
/// Claude: 200,000 for every current model (Anthropic's "Models overview"),
/// 1,000,000 for the long-context beta, which Claude Code names with a `[1m]`
/// suffix (handled in [`window`]). OpenAI: `gpt-5*` and `gpt-5-codex` have a
/// 400,000-token window of which at most 128,000 go to output (OpenAI's model
/// pages), so 272,000 is what input (the usage Codex reports) can fill; Codex
/// itself counts its "context left" against 272,000. `o3` and `o4-mini`:
/// 200,000 (OpenAI's model pages).
const WINDOWS: &[(&str, u64)] = &[
    ("claude-opus-4", 200_000),
    ("claude-sonnet-4", 200_000),
    ("claude-3-7-sonnet", 200_000),
    ("claude-3-5-sonnet", 200_000),
    ("claude-3-5-haiku", 200_000),
    ("claude-haiku", 200_000),
    ("gpt-5-codex", 272_000),
    ("gpt-5", 272_000),
    ("codex-mini", 200_000),
    ("o4-mini", 200_000),
    ("o3", 200_000),
];

/// Claude Code's suffix for the 1M-token context variant (`claude-sonnet-4-5[1m]`).
const ONE_MILLION_SUFFIX: &str = "[1m]";

/// A model's context window in tokens, `None` when the model is unknown.
pub fn window(model: &str) -> Option<u64> {
    let model = model.trim().to_ascii_lowercase();
    let (base, long) = match model.strip_suffix(ONE_MILLION_SUFFIX) {
        Some(base) => (base, true),
        None => (model.as_str(), false),
    };
    let standard = WINDOWS
        .iter()
        .find(|(prefix, _)| base.starts_with(prefix))
        .map(|(_, tokens)| *tokens)?;
    Some(if long && base.starts_with("claude-") {
        1_000_000
    } else {
        standard
    })
}

/// The window to measure a reading against: the one the engine stated for
/// this run (Claude Code's `modelUsage.<model>.contextWindow`, which knows
/// the plan's long-context variants and models newer than this table) when
/// it stated one, else the table's [`window`].
pub fn context_window(model: &str, stated: Option<u64>) -> Option<u64> {
    stated.filter(|w| *w > 0).or_else(|| window(model))
}

/// A share of the window the chat is told about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Threshold {
    Percent75,
    Percent90,
}

impl Threshold {
    fn percent(self) -> u64 {
        match self {
            Threshold::Percent75 => 75,
            Threshold::Percent90 => 90,
        }
    }
}

/// The threshold this reading crosses, going from `previous_used` to `used`
/// tokens of `window`; `None` when it crosses none (including when it was
/// already above). A reading that jumps past both gives the higher one.
pub fn threshold_crossed(previous_used: u64, used: u64, window: u64) -> Option<Threshold> {
    if window == 0 {
        return None;
    }
    // In u128 so no token count, however wrong, overflows.
    let reached = |tokens: u64, threshold: Threshold| {
        u128::from(tokens) * 100 >= u128::from(window) * u128::from(threshold.percent())
    };
    [Threshold::Percent90, Threshold::Percent75]
        .into_iter()
        .find(|threshold| reached(used, *threshold) && !reached(previous_used, *threshold))
}

/// The note the chat gets when a threshold is crossed.
pub fn note(threshold: Threshold, used: u64, window: u64) -> String {
    let percent = (u128::from(used) * 100)
        .checked_div(u128::from(window))
        .unwrap_or(0);
    let advice = match threshold {
        Threshold::Percent75 => "Consider finishing the current step and compacting soon.",
        Threshold::Percent90 => {
            "It will soon be full: finish the current step and compact (/compact) now, or start a new session."
        }
    };
    format!(
        "Context is {percent}% full ({} of {} tokens). {advice}",
        thousands(used),
        thousands(window)
    )
}

/// `152000` as `152,000`.
fn thousands(number: u64) -> String {
    let digits = number.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claude_models() {
        assert_eq!(window("claude-opus-4-1-20250805"), Some(200_000));
        assert_eq!(window("claude-sonnet-4-5-20250929"), Some(200_000));
        assert_eq!(window("claude-haiku-4-5-20251001"), Some(200_000));
        assert_eq!(window("claude-3-5-haiku-20241022"), Some(200_000));
    }

    #[test]
    fn the_one_million_variants() {
        assert_eq!(window("claude-sonnet-4-5-20250929[1m]"), Some(1_000_000));
        assert_eq!(window("claude-sonnet-4[1m]"), Some(1_000_000));
        assert_eq!(window("gpt-5[1m]"), Some(272_000));
    }

    #[test]
    fn openai_models() {
        assert_eq!(window("gpt-5"), Some(272_000));
        assert_eq!(window("gpt-5-codex"), Some(272_000));
        assert_eq!(window("gpt-5.1-codex-max"), Some(272_000));
        assert_eq!(window("o3"), Some(200_000));
        assert_eq!(window("o4-mini"), Some(200_000));
        assert_eq!(window("codex-mini-latest"), Some(200_000));
    }

    #[test]
    fn unknown_models_have_no_window() {
        assert_eq!(window("llama3.1:70b"), None);
        assert_eq!(window(""), None);
        assert_eq!(window("gpt-4o"), None);
    }

    #[test]
    fn a_stated_window_wins_over_the_table() {
        assert_eq!(
            context_window("claude-sonnet-4-5", Some(1_000_000)),
            Some(1_000_000)
        );
        assert_eq!(
            context_window("a-model-the-table-lacks", Some(128_000)),
            Some(128_000)
        );
        assert_eq!(context_window("claude-sonnet-4-5", None), Some(200_000));
        assert_eq!(context_window("claude-sonnet-4-5", Some(0)), Some(200_000));
        assert_eq!(context_window("a-model-the-table-lacks", None), None);
        // What a stated window changes: 160,000 tokens crosses 75 % of the
        // table's 200,000 but not of a stated 1,000,000.
        assert_eq!(
            threshold_crossed(
                100_000,
                160_000,
                context_window("claude-sonnet-4-5", None).unwrap_or(0)
            ),
            Some(Threshold::Percent75)
        );
        assert_eq!(
            threshold_crossed(
                100_000,
                160_000,
                context_window("claude-sonnet-4-5", Some(1_000_000)).unwrap_or(0)
            ),
            None
        );
    }

    #[test]
    fn crossing_each_threshold_once() {
        let window = 200_000;
        assert_eq!(threshold_crossed(120_000, 149_999, window), None);
        assert_eq!(
            threshold_crossed(120_000, 150_000, window),
            Some(Threshold::Percent75)
        );
        assert_eq!(threshold_crossed(150_000, 170_000, window), None);
        assert_eq!(
            threshold_crossed(170_000, 181_000, window),
            Some(Threshold::Percent90)
        );
        assert_eq!(threshold_crossed(181_000, 195_000, window), None);
    }

    #[test]
    fn a_jump_past_both_gives_ninety() {
        assert_eq!(
            threshold_crossed(40_000, 190_000, 200_000),
            Some(Threshold::Percent90)
        );
    }

    #[test]
    fn falling_back_below_and_crossing_again_counts() {
        // After a compaction the context drops, and may fill again.
        assert_eq!(threshold_crossed(185_000, 30_000, 200_000), None);
        assert_eq!(
            threshold_crossed(140_000, 152_000, 200_000),
            Some(Threshold::Percent75)
        );
    }

    #[test]
    fn odd_inputs_do_not_panic() {
        assert_eq!(threshold_crossed(0, 10, 0), None);
        assert_eq!(
            threshold_crossed(0, u64::MAX, u64::MAX),
            Some(Threshold::Percent90)
        );
        assert_eq!(
            note(Threshold::Percent90, 5, 0),
            "Context is 0% full (5 of 0 tokens). It will soon be full: finish the current step and compact (/compact) now, or start a new session."
        );
    }

    #[test]
    fn the_notes() {
        assert_eq!(
            note(Threshold::Percent75, 152_000, 200_000),
            "Context is 76% full (152,000 of 200,000 tokens). Consider finishing the current step and compacting soon."
        );
        assert!(
            note(Threshold::Percent90, 1_000_000, 1_000_000).starts_with(
                "Context is 100% full (1,000,000 of 1,000,000 tokens). It will soon be full"
            )
        );
    }
}
