//! Every bad field of a request at once, each said as a person would say
//! it ("The minute must be 0–59, not 61."), so a form can show them all
//! under their fields instead of one refusal after another.

use crate::error::AutomationError;
pub use crate::error::FieldProblem;

/// The problems found so far; a field may have several.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Problems(Vec<FieldProblem>);

impl Problems {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn add(&mut self, field: &'static str, message: impl Into<String>) {
        self.0.push(FieldProblem {
            field,
            message: message.into(),
        });
    }

    /// Takes in the problems of a check that stopped at its first (a
    /// field's own refusal, as the schedule code gives it); any other error
    /// comes back.
    pub fn absorb(&mut self, error: AutomationError) -> Result<(), AutomationError> {
        match error {
            AutomationError::Fields(list) => self.0.extend(list),
            AutomationError::Invalid { field, message } => {
                self.add(field, sentence(field, &message))
            }
            AutomationError::MissingValues(names) => self.add("values", missing_values(&names)),
            other => return Err(other),
        }
        Ok(())
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn has(&self, field: &str) -> bool {
        self.0.iter().any(|p| p.field == field)
    }

    pub fn list(&self) -> &[FieldProblem] {
        &self.0
    }

    /// The problems as the error of the request.
    pub fn into_error(self) -> AutomationError {
        AutomationError::Fields(self.0)
    }

    /// `Ok(value)` when nothing was found, else every problem.
    pub fn or<T>(self, value: impl FnOnce() -> T) -> Result<T, AutomationError> {
        if self.0.is_empty() {
            Ok(value())
        } else {
            Err(AutomationError::Fields(self.0))
        }
    }
}

/// One field's problem, already a sentence, as an error.
pub fn one(field: &'static str, message: impl Into<String>) -> AutomationError {
    AutomationError::Fields(vec![FieldProblem {
        field,
        message: message.into(),
    }])
}

/// "Give a value for {{ticket}} and {{branch}}."
pub fn missing_values(names: &[String]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("{{{{{n}}}}}")).collect();
    let list = match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => quoted.join(""),
    };
    format!("Give a value for {list}.")
}

/// A field's terse refusal (`has more than one RRULE`) as a sentence that
/// names the field ("The RRULE has more than one RRULE.").
pub fn sentence(field: &str, message: &str) -> String {
    let noun = match field {
        "cron" => "The cron pattern",
        "rrule" => "The RRULE",
        "timeZone" => "The time zone",
        "name" => "The name",
        "values" => "The values",
        _ => "This field",
    };
    // A parser's own words quote its tokens in backticks, which a person
    // reading the form does not need.
    let message = message.replace('`', "");
    let message = message.trim_end_matches('.');
    format!("{noun} {message}.")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn problems_are_gathered_and_said_in_sentences() {
        let mut found = Problems::new();
        found.add("name", "Give the recipe a name.");
        found
            .absorb(AutomationError::invalid("rrule", "has more than one RRULE"))
            .unwrap();
        found
            .absorb(AutomationError::invalid(
                "rrule",
                "`XX` is not a valid weekday.",
            ))
            .unwrap();
        found
            .absorb(AutomationError::MissingValues(vec![
                "a".into(),
                "b".into(),
                "c".into(),
            ]))
            .unwrap();
        assert!(found.absorb(AutomationError::RecipeNotFound).is_err());
        assert!(found.has("rrule") && !found.has("cron"));
        let messages: Vec<&str> = found.list().iter().map(|p| p.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "Give the recipe a name.",
                "The RRULE has more than one RRULE.",
                "The RRULE XX is not a valid weekday.",
                "Give a value for {{a}}, {{b}} and {{c}}."
            ]
        );
        assert!(matches!(found.or(|| ()), Err(AutomationError::Fields(list)) if list.len() == 4));
        assert_eq!(Problems::new().or(|| 7).unwrap(), 7);
    }
}
