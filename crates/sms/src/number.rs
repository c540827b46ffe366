//! Phone numbers as threads are keyed by them: the punctuation people type
//! removed, so `+49 (30) 123-45` and `+493012345` are one conversation.

use crate::SmsError;

/// The most digits an E.164 number has.
const MAX_DIGITS: usize = 15;
/// The longest alphanumeric sender name kept (GSM allows 11; some gateways
/// pass longer ones through).
const MAX_SENDER_CHARS: usize = 32;

/// A number to text: digits with an optional leading `+`, at least 3.
pub fn normalize_recipient(raw: &str) -> Result<String, SmsError> {
    let cleaned = strip(raw);
    let digits = cleaned.strip_prefix('+').unwrap_or(&cleaned);
    if digits.len() < 3 || digits.len() > MAX_DIGITS || !digits.bytes().all(|b| b.is_ascii_digit())
    {
        return Err(SmsError::Invalid(format!(
            "{raw:?} is not a phone number: use digits, optionally starting with +"
        )));
    }
    Ok(cleaned)
}

/// A sender as the gateway reports it: a number normalized as recipients
/// are, or a business's alphanumeric name kept as it came.
pub fn normalize_sender(raw: &str) -> Result<String, SmsError> {
    if let Ok(number) = normalize_recipient(raw) {
        return Ok(number);
    }
    let name = raw.trim();
    if name.is_empty()
        || name.chars().count() > MAX_SENDER_CHARS
        || name.chars().any(char::is_control)
    {
        return Err(SmsError::Invalid(format!("{raw:?} is not a sender")));
    }
    Ok(name.to_owned())
}

/// A short code (3 to 6 digits, no country code): the senders of
/// verification codes and alerts, which the spam rule never holds back.
pub fn is_short_code(number: &str) -> bool {
    (3..=6).contains(&number.len()) && number.bytes().all(|b| b.is_ascii_digit())
}

fn strip(raw: &str) -> String {
    raw.trim()
        .chars()
        .filter(|c| !matches!(c, ' ' | '-' | '.' | '(' | ')' | '\u{a0}'))
        .collect()
}
