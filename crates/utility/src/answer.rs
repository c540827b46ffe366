//! What a successful call gives back, apart from the crate's root so the
//! engine's runner can build it without importing the root.

/// A successful call's text and what it cost.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    pub text: String,
    pub cost_usd: Option<f64>,
    pub input_tokens: u64,
    pub output_tokens: u64,
}
