//! Accessible names as text: whitespace normalisation, length limits, and matching a wanted
//! option's text against what a select offers (pure; the DOM side is `dom::name`).

/// The longest name an element keeps; longer text is cut with an ellipsis.
pub const MAX_NAME_CHARS: usize = 120;

/// What a text shown under `label` becomes in an observation: the label alone with the value
/// masked where the label names a secret ("AccessKey Secret", "Password"): a console shows a new
/// AccessKey's secret once, and no record of the run may keep it.
pub fn shown_under(label: &str, text: &str) -> (String, bool) {
    if names_a_secret(label) && !text.is_empty() {
        (format!("{label}: ********"), true)
    } else {
        (format!("{label}: {text}"), false)
    }
}

/// Whether a label names a secret value ("AccessKey Secret", "Secret Value", "New Password"),
/// not merely something about one ("Secret Name").
pub fn names_a_secret(label: &str) -> bool {
    let lower = normalise(label).to_lowercase();
    let lower = lower.trim_end_matches(':').trim();
    ["password", "secret", "secret value", "secret key"]
        .iter()
        .any(|head| lower.ends_with(head))
}

/// Collapses runs of whitespace (non-breaking spaces and line breaks included) into one space and
/// trims both ends: what a person reads, not how the markup was indented.
pub fn normalise(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut pending_space = false;
    for c in text.chars() {
        if c.is_whitespace() || c == '\u{a0}' || c == '\u{200b}' {
            pending_space = !out.is_empty();
        } else {
            if pending_space {
                out.push(' ');
                pending_space = false;
            }
            out.push(c);
        }
    }
    out
}

/// Cuts `text` to at most `max` characters, marking the cut with `…`.
pub fn clip(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        None => text.to_owned(),
        Some((at, _)) => {
            let mut cut = text[..at].trim_end().to_owned();
            cut.push('…');
            cut
        }
    }
}

/// Normalised and clipped: the form every name and value takes in an observation.
pub fn tidy(text: &str) -> String {
    clip(&normalise(text), MAX_NAME_CHARS)
}

/// The first source that yields a non-empty name, tidied.
pub fn first_name<I>(sources: I) -> Option<String>
where
    I: IntoIterator<Item = Option<String>>,
{
    sources.into_iter().flatten().map(|s| tidy(&s)).find(|s| !s.is_empty())
}

/// Finds the option whose visible text is `wanted`: an exact match first, then one ignoring case,
/// then the only option that starts with or contains it. `None` when nothing (or more than one
/// option, ambiguously) fits.
pub fn match_option(options: &[String], wanted: &str) -> Option<usize> {
    let wanted = normalise(wanted);
    if wanted.is_empty() {
        return None;
    }
    let texts: Vec<String> = options.iter().map(|o| normalise(o)).collect();
    if let Some(i) = texts.iter().position(|t| *t == wanted) {
        return Some(i);
    }
    let lower = wanted.to_lowercase();
    let lowered: Vec<String> = texts.iter().map(|t| t.to_lowercase()).collect();
    if let Some(i) = lowered.iter().position(|t| *t == lower) {
        return Some(i);
    }
    let only = |hits: Vec<usize>| if hits.len() == 1 { Some(hits[0]) } else { None };
    only(
        lowered
            .iter()
            .enumerate()
            .filter(|(_, t)| t.starts_with(&lower))
            .map(|(i, _)| i)
            .collect(),
    )
    .or_else(|| {
        only(
            lowered
                .iter()
                .enumerate()
                .filter(|(_, t)| t.contains(&lower))
                .map(|(i, _)| i)
                .collect(),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_secret_shown_as_text_is_masked_by_its_label() {
        assert_eq!(
            shown_under("AccessKey Secret", "9dWq3mxVhLbbJc1ZkR4oKwz5sT8uYp"),
            ("AccessKey Secret: ********".to_owned(), true)
        );
        assert_eq!(
            shown_under("AccessKey ID", "LTAI5tQ8x"),
            ("AccessKey ID: LTAI5tQ8x".to_owned(), false)
        );
        assert!(!shown_under("Status", "Available").1);
        assert!(!shown_under("Secret Name", "db-credentials").1);
        assert!(names_a_secret("Secret Value") && names_a_secret("Confirm Password"));
        assert!(!names_a_secret("Secret Name") && !names_a_secret("Password Reset Required At"));
    }

    #[test]
    fn whitespace_from_markup_becomes_single_spaces() {
        assert_eq!(normalise("\n   Create\u{a0}\u{a0}VPC \t\n"), "Create VPC");
        assert_eq!(normalise("   "), "");
        assert_eq!(normalise("a\u{200b}b"), "a b");
    }

    #[test]
    fn long_names_are_clipped_on_characters_not_bytes() {
        let long = "区".repeat(130);
        let clipped = tidy(&long);
        assert_eq!(clipped.chars().count(), MAX_NAME_CHARS + 1);
        assert!(clipped.ends_with('…'));
        assert_eq!(clip("short", 10), "short");
    }

    #[test]
    fn the_first_non_empty_source_names_the_element() {
        let name = first_name([
            None,
            Some("  ".into()),
            Some(" Instance  Name ".into()),
            Some("x".into()),
        ]);
        assert_eq!(name.as_deref(), Some("Instance Name"));
        assert_eq!(first_name([None, Some(String::new())]), None);
    }

    #[test]
    fn options_match_exactly_then_loosely_but_never_ambiguously() {
        let options: Vec<String> = ["China (Hangzhou)", "China (Shanghai)", "Singapore", "singapore 2"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(match_option(&options, "Singapore"), Some(2));
        assert_eq!(match_option(&options, "china (shanghai)"), Some(1));
        assert_eq!(match_option(&options, "Hangzhou"), Some(0));
        // "China" starts two options: no guess.
        assert_eq!(match_option(&options, "China"), None);
        assert_eq!(match_option(&options, "Tokyo"), None);
        assert_eq!(match_option(&options, "  "), None);
    }
}
