//! Label matching: how well an element's name matches a label the page wrote, after normalising
//! case, whitespace and punctuation (exact > prefix > token overlap).

/// How a name matched a documented label, best first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LabelMatch {
    /// Equal after normalisation: the label as written.
    Exact,
    /// One is a prefix of the other at a word or plural boundary (`vSwitch` / `vSwitches`,
    /// `Release` / `Release Instance`).
    Prefix,
    /// They share words, but neither contains the other (`Configure Rules` / `Manage Rules`).
    Overlap,
}

/// Lower case, punctuation as spaces, runs of spaces as one; `…`, `›` and `>` dropped; `&` read as
/// the word it stands for (`Protocol & Listener` is `Protocol and Listener`).
pub fn normalise(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut space = true;
    for c in text.chars() {
        if c == '&' {
            if !space {
                out.push(' ');
            }
            out.push_str("and ");
            space = true;
        } else if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
            space = false;
        } else if !space {
            out.push(' ');
            space = true;
        }
    }
    if out.ends_with(' ') {
        out.pop();
    }
    out
}

/// Words that say nothing about which control is meant.
const STOP_WORDS: &[&str] = &["a", "an", "the", "of", "to", "and", "or", "in", "on", "for", "by"];

fn tokens(normalised: &str) -> Vec<&str> {
    normalised
        .split(' ')
        .filter(|t| !t.is_empty() && !STOP_WORDS.contains(t))
        .collect()
}

/// How `name` matches `label`; `None` when they share nothing.
pub fn match_label(label: &str, name: &str) -> Option<LabelMatch> {
    let (label_raw, name_raw) = (label, name);
    let label = normalise(without_former_name(label));
    let name = normalise(without_former_name(name));
    if label.is_empty() || name.is_empty() {
        // Symbols (`⋯`, `…`, `...`) have no words: they match only themselves.
        fn symbol(s: &str) -> Option<&str> {
            match s.trim() {
                "⋯" | "…" | "..." | "···" => Some("⋯"),
                "" => None,
                other => Some(other),
            }
        }
        let (a, b) = (symbol(label_raw), symbol(name_raw));
        return (a.is_some() && a == b).then_some(LabelMatch::Exact);
    }
    // "Create Access Key" and "Create AccessKey": the same words, spaced another way.
    if label == name || label.replace(' ', "") == name.replace(' ', "") {
        return Some(LabelMatch::Exact);
    }
    let (short, long) = if label.len() <= name.len() {
        (&label, &name)
    } else {
        (&name, &label)
    };
    if let Some(rest) = long.strip_prefix(short.as_str()) {
        // A word boundary or a plural ending: `vswitch` / `vswitches`, `release` / `release instance`.
        if rest.starts_with(' ') || rest == "s" || rest == "es" {
            return Some(LabelMatch::Prefix);
        }
    }
    let label_tokens = tokens(&label);
    let name_tokens = tokens(&name);
    let shared = label_tokens.iter().filter(|t| name_tokens.contains(t)).count();
    (shared > 0).then_some(LabelMatch::Overlap)
}

/// A label without the former name it carries: `CLB (FKA SLB)` is the console's `CLB`.
fn without_former_name(label: &str) -> &str {
    let trimmed = label.trim_end();
    let Some(open) = trimmed.rfind('(').filter(|_| trimmed.ends_with(')')) else {
        return label;
    };
    let inside = trimmed[open + 1..trimmed.len() - 1].trim_start().to_lowercase();
    if ["fka ", "formerly "].iter().any(|p| inside.starts_with(p)) && open > 0 {
        trimmed[..open].trim_end()
    } else {
        label
    }
}

/// Whether `label` and `name` name the same thing, one perhaps in the plural ("the Bucket page"
/// and a page headed `Buckets`).
pub fn same_name(label: &str, name: &str) -> bool {
    let (label, name) = (normalise(label), normalise(name));
    !label.is_empty() && (label == name || singular(&label) == singular(&name))
}

/// A word or phrase in the singular, by its ending (`vSwitches` → `vSwitch`, `groups` → `group`).
pub fn singular(s: &str) -> &str {
    s.strip_suffix("es")
        .filter(|stem| stem.ends_with(['s', 'x', 'h']))
        .or_else(|| s.strip_suffix('s'))
        .unwrap_or(s)
}

/// Token overlap as a fraction of the longer label's words, for ranking alternatives.
pub fn overlap_score(label: &str, name: &str) -> f64 {
    let label = normalise(label);
    let name = normalise(name);
    let a = tokens(&label);
    let b = tokens(&name);
    let longest = a.len().max(b.len());
    if longest == 0 {
        return 0.0;
    }
    let shared = a.iter().filter(|t| b.contains(t)).count();
    shared as f64 / longest as f64
}

/// Whether `haystack` mentions `label` as whole words (a row named `vpc-1 web-vpc` mentions `web-vpc`).
pub fn mentions(haystack: &str, label: &str) -> bool {
    fn words(text: &str) -> Vec<String> {
        text.split_whitespace()
            .map(|w| {
                // A sentence's full stop is no part of its last word ("a new password.").
                w.trim_matches(|c: char| !(c.is_alphanumeric() || matches!(c, '-' | '_' | '.' | '/')))
                    .trim_end_matches('.')
                    .to_lowercase()
            })
            .filter(|w| !w.is_empty())
            .collect()
    }
    let haystack = words(haystack);
    let label = words(label);
    !label.is_empty() && haystack.windows(label.len()).any(|window| window == label.as_slice())
}

/// Labels consoles use for the button that submits a form or confirms a dialog.
pub const CONFIRM_LABELS: &[&str] = &[
    "OK",
    "Confirm",
    "Create",
    "Save",
    "Submit",
    "Buy Now",
    "Complete",
    "Close",
    "Confirm Order",
    "Create Order",
    "Apply",
    "Done",
];

/// Whether a label is one of the [`CONFIRM_LABELS`].
pub fn is_confirm_label(label: &str) -> bool {
    CONFIRM_LABELS.iter().any(|c| normalise(c) == normalise(label))
}

/// Names consoles give the trigger of an overflow menu.
const MORE_TRIGGERS: &[&str] = &["More", "More Actions", "⋯", "...", "…"];

/// Whether a label names an overflow menu's trigger (`More`, `⋯`).
pub fn is_more_label(label: &str) -> bool {
    let name = label.trim();
    MORE_TRIGGERS
        .iter()
        .any(|m| normalise(m) == normalise(name) && !normalise(m).is_empty())
        || matches!(name, "⋯" | "..." | "…")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_in_the_plural_is_the_same_name() {
        assert!(same_name("Bucket", "Buckets"));
        assert!(same_name("vSwitches", "vSwitch"));
        assert!(same_name("Instances", "Instance"));
        assert!(!same_name("Bucket", "Bucket Name"));
        assert!(!same_name("", ""));
    }

    #[test]
    fn normalising_ignores_case_spacing_and_punctuation() {
        assert_eq!(normalise("  Create   VPC… "), "create vpc");
        assert_eq!(normalise("Instances & Images"), "instances and images");
        assert_eq!(normalise("Protocol&Listener"), normalise("Protocol and Listener"));
        assert_eq!(
            match_label("Protocol and Listener", "Protocol & Listener"),
            Some(LabelMatch::Exact)
        );
        assert_eq!(normalise("IPv4 CIDR Block:"), "ipv4 cidr block");
    }

    #[test]
    fn exact_beats_prefix_beats_overlap() {
        assert_eq!(match_label("Create VPC", "create  vpc"), Some(LabelMatch::Exact));
        assert_eq!(match_label("Create Access Key", "Create AccessKey"), Some(LabelMatch::Exact));
        assert_eq!(match_label("vSwitches", "vSwitch"), Some(LabelMatch::Prefix));
        assert_eq!(match_label("Release", "Release Instance"), Some(LabelMatch::Prefix));
        assert_eq!(
            match_label("Configure Rules", "Manage Rules"),
            Some(LabelMatch::Overlap)
        );
        assert_eq!(match_label("OK", "Confirm"), None);
        // A prefix inside a word is no prefix: `Create` does not start `Created At`'s words.
        assert_eq!(match_label("Create", "Created At"), None);
        assert_eq!(match_label("⋯", "..."), Some(LabelMatch::Exact));
        assert_eq!(match_label("⋯", "More"), None);
        assert!(LabelMatch::Exact < LabelMatch::Prefix && LabelMatch::Prefix < LabelMatch::Overlap);
    }

    #[test]
    fn a_former_name_in_parentheses_is_not_part_of_the_label() {
        assert_eq!(match_label("CLB (FKA SLB)", "CLB"), Some(LabelMatch::Exact));
        assert_eq!(match_label("CLB", "CLB (formerly SLB)"), Some(LabelMatch::Exact));
        assert_eq!(match_label("Zone (Optional)", "Zone"), Some(LabelMatch::Prefix));
        assert_eq!(without_former_name("(FKA SLB)"), "(FKA SLB)");
    }

    #[test]
    fn mentions_need_whole_words() {
        assert!(mentions("vpc-bp1 web-vpc", "web-vpc"));
        assert!(!mentions("vpc-bp1 web-vpc-2", "web-vpc"));
        assert!(mentions(
            "enter the current password and a new password.",
            "New Password"
        ));
        assert!(mentions("open example.com.", "example.com"));
    }

    #[test]
    fn confirm_labels_are_recognised() {
        assert!(is_confirm_label("ok"));
        assert!(is_confirm_label("Confirm"));
        assert!(!is_confirm_label("Create VPC"));
    }
}
