//! What one step's sentence says: labels, menu path, container, values, actions.
//!
//! Bold and code spans are used when the page has them; otherwise labels come from the phrases the
//! house style uses ("click X", "On the X page", "choose A > B"), where X is a run of capitalised
//! words ("Create VPC", "Add to Group", "vSwitch"). Nothing is reported that the text does not say.

use aca_core::{Container, ContainerKind, FieldValue, StepAction};

use crate::blocks::Inline;

/// Labels that close a container or finish a flow.
pub(crate) const CONFIRM: &[&str] = &[
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
];

#[derive(Debug, Default)]
pub(crate) struct Analysis {
    pub labels: Vec<String>,
    pub menu_path: Vec<String>,
    /// The path before the menu path when the clause names two: see [`aca_core::Step::navigation`].
    pub navigation: Vec<String>,
    pub container: Option<Container>,
    pub column: Option<String>,
    pub values: Vec<FieldValue>,
    pub actions: Vec<StepAction>,
    pub opens_console: Option<String>,
    /// "Log on to the console." names no product: the console of the page's own product.
    pub opens_own_console: bool,
    /// Labels named only by sentences that ask for nothing (options, results): see
    /// [`aca_core::Step::mentions`].
    pub mentions: Vec<String>,
}

/// The console a step opens (`None`: "the console", unnamed) and the page of it the step names.
struct Opening {
    console: Option<String>,
    page: Option<String>,
}

/// Where a step opens a console: "Log on to the ECS console", "Go to ECS console - Snapshots",
/// "On the Bucket page of the OSS console", "Log in to the Alibaba Cloud DNS - Public
/// Authoritative Resolution page", "Visit the RDS instance list", "Log on to the console".
fn console_opening(text: &str, low: &str, toks: &[Tok]) -> Option<Opening> {
    named_console(text, low, toks)
        .or_else(|| console_of_a_page(low, toks))
        .or_else(|| dashed_console_page(low, toks))
        .or_else(|| instance_list(low, toks))
        .or_else(|| unnamed_console(low))
}

/// "Log on to the ECS console", "Go to the Create Bucket page in the OSS console", "Go to ECS
/// console - Snapshots" (the page after the dash).
fn named_console(text: &str, low: &str, toks: &[Tok]) -> Option<Opening> {
    for lead in ["log on to", "log in to", "go to", "open the"] {
        let Some(p) = find_word(low, lead, 0) else {
            continue;
        };
        let Some(c) = low[p..].find(" console") else {
            continue;
        };
        let end = p + c;
        let Some(ti) = toks.iter().rposition(|t| t.start < end) else {
            continue;
        };
        let Some((name, _)) = run_backward(toks, ti) else {
            continue;
        };
        let after = &text[end + " console".len()..];
        let page = after
            .trim_start()
            .strip_prefix(['-', '–', '—'])
            .and_then(|rest| run_forward(&tokens(rest), 0))
            .map(|r| r.0);
        return Some(Opening {
            console: Some(name),
            page,
        });
    }
    None
}

/// "On the Bucket page of the OSS console": a page named inside a console opens that console.
fn console_of_a_page(low: &str, toks: &[Tok]) -> Option<Opening> {
    let mut at = 0;
    while let Some(p) = find_word(low, "console", at) {
        at = p + "console".len();
        let Some(ti) = toks.iter().rposition(|t| t.start + 1 < p) else {
            continue;
        };
        let Some((name, pos)) = run_backward(toks, ti) else {
            continue;
        };
        let before = low[..pos].trim_end();
        let of_a_page = ["page of the", "page in the", "tab of the", "tab in the"]
            .iter()
            .any(|lead| before.ends_with(lead));
        if of_a_page {
            return Some(Opening {
                console: Some(name),
                page: None,
            });
        }
    }
    None
}

/// "Log in to the Alibaba Cloud DNS - Public Authoritative Resolution page": the console before
/// the dash, its page after.
fn dashed_console_page(low: &str, toks: &[Tok]) -> Option<Opening> {
    for lead in ["log in to the ", "log on to the ", "go to the "] {
        let Some(p) = find_word(low, lead.trim_end(), 0) else {
            continue;
        };
        let Some(ti) = tok_at(toks, p + lead.len()) else {
            continue;
        };
        let Some((label, _, end)) = run_forward(toks, ti) else {
            continue;
        };
        if !low[end..].starts_with(" page") {
            continue;
        }
        if let Some((console, page)) = label.split_once(" - ") {
            return Some(Opening {
                console: Some(console.trim().to_string()),
                page: Some(page.trim().to_string()),
            });
        }
    }
    None
}

/// "Visit the RDS instance list", "Access RDS Instances": a product's instance list.
fn instance_list(low: &str, toks: &[Tok]) -> Option<Opening> {
    for lead in ["visit the ", "access the ", "access "] {
        let Some(p) = find_word(low, lead.trim_end(), 0) else {
            continue;
        };
        let Some(ti) = tok_at(toks, p + lead.len()) else {
            continue;
        };
        let word = strip(toks[ti].s).0;
        let acronym = word.len() >= 2 && word.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit());
        let next_word = toks.get(ti + 1).map(|t| strip(t.s).0).unwrap_or_default();
        if acronym && next_word.to_lowercase().starts_with("instance") {
            // "Access RDS Instances" names the console's Instances page; "the RDS instance list"
            // names no page title.
            let page = next_word.starts_with('I').then(|| next_word.to_string());
            return Some(Opening {
                console: Some(word.to_string()),
                page,
            });
        }
    }
    None
}

/// "Log on to the console." with no product named.
fn unnamed_console(low: &str) -> Option<Opening> {
    ["log on to the console", "log in to the console"]
        .iter()
        .any(|lead| find_word(low, lead, 0).is_some())
        .then_some(Opening {
            console: None,
            page: None,
        })
}

struct Tok<'a> {
    s: &'a str,
    start: usize,
}

fn tokens(text: &str) -> Vec<Tok<'_>> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, ch) in text.char_indices() {
        if ch.is_whitespace() {
            if let Some(st) = start.take() {
                out.push(Tok {
                    s: &text[st..i],
                    start: st,
                });
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(st) = start {
        out.push(Tok {
            s: &text[st..],
            start: st,
        });
    }
    out
}

const CONNECTORS: &[&str] = &[
    "to", "of", "and", "a", "the", "for", "or", "with", "by", "as", "&", "/", "-",
];
const ICONS: &[&str] = &["⋯", "…", "...", "···"];

/// An icon that a scraped copy turned into a word: `icon`, `icon1`, `icon-more`, or the file name
/// of its image, `image.png`, `more.svg`.
fn stray_icon(t: &str) -> bool {
    let t = t.to_ascii_lowercase();
    let image = [".png", ".svg", ".gif", ".jpg", ".jpeg"]
        .iter()
        .any(|ext| t.strip_suffix(ext).is_some_and(|stem| !stem.is_empty()));
    image
        || t.strip_prefix("icon")
            .is_some_and(|rest| rest.chars().all(|c| c.is_ascii_digit() || c == '-' || c == '_'))
}

fn labelish(t: &str) -> bool {
    let t = t.trim_start_matches(['(', '"', '“', '\'']);
    ICONS.contains(&t)
        || t.chars().next().is_some_and(|c| c.is_uppercase() || c.is_ascii_digit())
        || (t.chars().any(|c| c.is_uppercase()) && t.chars().next().is_some_and(|c| c.is_lowercase()) && t.len() > 1)
}

fn strip(t: &str) -> (&str, bool) {
    let s = t.trim_end_matches(['.', ',', ';', ':', '!', '?', '"', '”', '\'']);
    (s, s.len() != t.len())
}

/// The run of capitalised words starting at token `i`.
fn run_forward(toks: &[Tok], i: usize) -> Option<(String, usize, usize)> {
    let mut words: Vec<&str> = Vec::new();
    let mut j = i;
    let start = toks.get(i)?.start;
    let mut end = start;
    while j < toks.len() {
        let (w, stop) = strip(toks[j].s);
        let ok = if words.is_empty() {
            labelish(w)
        } else if w == "or" {
            // "click Enable Console Logon or Modify Logon Settings": two controls, not one label.
            false
        } else if CONNECTORS.contains(&w) {
            !stop && toks.get(j + 1).is_some_and(|n| n.s.starts_with(char::is_uppercase))
        } else {
            labelish(w) && w != ">" && w != "›"
        };
        if !ok || w == ">" || w == "›" {
            break;
        }
        words.push(if words.is_empty() {
            w.trim_start_matches(['“', '"', '\''])
        } else {
            w
        });
        end = toks[j].start + w.len();
        j += 1;
        if stop {
            break;
        }
    }
    if words.is_empty() {
        None
    } else {
        Some((words.join(" "), start, end))
    }
}

/// Without bold, a name with lower-case words ("vServer groups", "Batch operation"): tokens
/// `from..to`, when the first is capitalised and none ends a clause.
fn name_with_lower_case_words(toks: &[Tok], from: usize, to: usize) -> Option<(String, usize)> {
    let words = toks.get(from..to)?;
    let first = words.first()?;
    if !labelish(first.s) || words.iter().any(|t| strip(t.s).1) {
        return None;
    }
    Some((words.iter().map(|t| t.s).collect::<Vec<_>>().join(" "), first.start))
}

/// Without bold, a switch named with lower-case words up to the clause's end ("turn on Automatic
/// renewal, read the prompt"): at most three words from token `i`, the first capitalised.
fn name_to_clause_end(toks: &[Tok], i: usize) -> Option<(String, usize, usize)> {
    let first = toks.get(i)?;
    if !labelish(first.s) {
        return None;
    }
    let last = (i..toks.len())
        .take(3)
        .find(|&k| strip(toks[k].s).1 || toks.get(k + 1).is_none_or(|next| next.s == "and"))?;
    let end = strip(toks[last].s).0;
    let words: Vec<&str> = toks[i..last].iter().map(|t| t.s).chain([end]).collect();
    Some((words.join(" "), first.start, toks[last].start + end.len()))
}

/// Without bold, a control named by one lower-case word that ends the clause: "click restart.".
fn lone_lower_case_word(toks: &[Tok], i: usize) -> Option<(String, usize, usize)> {
    const NOT_NAMES: [&str; 9] = ["here", "it", "them", "this", "that", "next", "again", "once", "there"];
    let t = toks.get(i)?;
    let (word, stop) = strip(t.s);
    let named = stop && word.len() > 1 && word.chars().all(|c| c.is_ascii_lowercase()) && !NOT_NAMES.contains(&word);
    named.then(|| (word.to_string(), t.start, t.start + word.len()))
}

/// The name a clause opens with before its colon, lower-case words and all ("Region: Select …",
/// "IPv4 CIDR block: Select …"): at most five words, the first capitalised, and the byte where
/// the name ends.
fn name_before_colon(toks: &[Tok]) -> Option<(String, usize)> {
    // What a callout or an aside opens with, never a field.
    const ASIDES: [&str; 6] = ["Example:", "Note:", "Notice:", "Important:", "Warning:", "Tip:"];
    let colon = toks.iter().take(5).position(|t| t.s.ends_with(':'))?;
    let first = toks.first()?;
    if !labelish(first.s) || toks[..colon].iter().any(|t| strip(t.s).1) || (colon == 0 && ASIDES.contains(&first.s)) {
        return None;
    }
    let last = toks[colon].s.trim_end_matches(':');
    let words: Vec<&str> = toks[..colon].iter().map(|t| t.s).chain([last]).collect();
    Some((words.join(" "), toks[colon].start + last.len()))
}

/// A container named with lower-case words ("Click the vServer groups tab"): the words from "the"
/// to token `i`, at most three.
fn named_after_the(toks: &[Tok], i: usize) -> Option<(String, usize)> {
    let the = (i.saturating_sub(3)..i).rev().find(|&k| toks[k].s.eq_ignore_ascii_case("the"))?;
    name_with_lower_case_words(toks, the + 1, i + 1)
}

/// A verb that opens a menu path: "select", "choose" or "click".
fn menu_verb(word: &str) -> bool {
    ["select", "choose", "click"].iter().any(|v| word.eq_ignore_ascii_case(v))
}

/// A menu's first level named with lower-case words ("select Batch operation > Delete"): the words
/// between the verb and the `>` at token `sep`.
fn menu_after_verb(toks: &[Tok], sep: usize) -> Option<(String, usize)> {
    let verb = (0..sep)
        .rev()
        .take(5)
        .find(|&i| menu_verb(toks[i].s))?;
    name_with_lower_case_words(toks, verb + 1, sep)
}

/// The run of capitalised words ending at token `i` (inclusive).
fn run_backward(toks: &[Tok], i: usize) -> Option<(String, usize)> {
    let mut words: Vec<&str> = Vec::new();
    let mut j = i as isize;
    while j >= 0 {
        let raw = toks[j as usize].s;
        let (w, stop) = strip(raw);
        if stop && !words.is_empty() {
            break;
        }
        let ok = if words.is_empty() {
            labelish(w)
        } else if CONNECTORS.contains(&w) {
            j > 0 && labelish(strip(toks[j as usize - 1].s).0) && !matches!(toks[j as usize - 1].s, ">" | "›")
        } else {
            labelish(w) && w != ">" && w != "›"
        };
        if !ok {
            break;
        }
        words.push(w);
        j -= 1;
    }
    if words.is_empty() {
        return None;
    }
    words.reverse();
    // Only the label's first word loses an opening quote or parenthesis: "Capacity (GiB)" keeps its.
    words[0] = words[0].trim_start_matches(['(', '"', '“']);
    // A sentence-initial word ("Click", "In", "On") is no part of a label.
    // "Log" only as in "Log On": "Log Storage" is a label. A verb right after an article is
    // ("the Set Alert Contact panel", "the Select Product/Service drop-down list").
    const VERBS: &[&str] = &["Click", "Choose", "Select", "Set", "Enter", "Go", "Open"];
    let article = |w: &str| ["the", "a", "an"].contains(&w);
    let mut after_article = j >= 0 && article(strip(toks[j as usize].s).0);
    while words.first().is_some_and(|w| {
        let lead = ["In", "On", "From", "At", "The"].contains(w)
            || VERBS.contains(w) && !after_article
            || CONNECTORS.contains(w)
            || (*w == "Log" && words.get(1).is_some_and(|n| n.eq_ignore_ascii_case("on")));
        after_article = article(w);
        lead
    }) {
        words.remove(0);
    }
    if words.is_empty() {
        return None;
    }
    let name = words.join(" ");
    let pos = toks[..=i]
        .iter()
        .rev()
        .find(|t| t.s.trim_start_matches(['(', '"', '“']).starts_with(words[0]))
        .map_or(0, |t| t.start);
    Some((name, pos))
}

fn lower(s: &str) -> String {
    s.to_lowercase()
}

/// Position of a phrase (case-insensitive) at a word boundary, from `from`.
fn find_word(hay_lower: &str, needle: &str, from: usize) -> Option<usize> {
    let mut at = from;
    while let Some(p) = hay_lower.get(at..).and_then(|h| h.find(needle)) {
        let p = at + p;
        let before_ok = p == 0 || !hay_lower[..p].chars().next_back().is_some_and(|c| c.is_alphanumeric());
        let after = p + needle.len();
        let after_ok = !hay_lower[after..].chars().next().is_some_and(|c| c.is_alphanumeric());
        if before_ok && after_ok {
            return Some(p);
        }
        at = p + needle.len();
    }
    None
}

fn tok_at(toks: &[Tok], byte: usize) -> Option<usize> {
    toks.iter().position(|t| t.start >= byte)
}

/// The field a clause names before the value at byte `at`: "For **Metric**, select **…**".
fn field_selected_at(
    low: &str,
    at: usize,
    label_at: &dyn Fn(usize) -> Option<(String, usize, usize)>,
    toks: &[Tok],
) -> Option<(String, usize)> {
    let head = low.get(..at)?.trim_end();
    let head = head.strip_suffix("select")?.trim_end().strip_suffix(',')?;
    let for_at = head.rfind("for ")?;
    if for_at > 0 && head[..for_at].chars().next_back().is_some_and(char::is_alphanumeric) {
        return None;
    }
    let (field, pos, end) = label_at(tok_at(toks, for_at + "for ".len())?)?;
    // The field's name runs up to the comma.
    (low[end..].trim_start().starts_with(',') && end <= head.len() + 1).then_some((field, pos))
}

/// A value token: a code span, a quoted string, or a word with digits or punctuation in it.
fn value_at(inl: &Inline, toks: &[Tok], i: usize) -> Option<String> {
    let t = toks.get(i)?;
    if let Some(c) = inl.code.iter().find(|c| inl.text[t.start..].starts_with(c.as_str())) {
        return Some(c.clone());
    }
    let (w, _) = strip(t.s);
    let w = w.trim_matches(['"', '“', '”', '\'']);
    (valueish(w) && !w.is_empty()).then(|| w.to_string())
}

/// The value of "the port number is set to 80" in the sentence starting at `from`.
fn set_to_value(inl: &Inline, toks: &[Tok], low: &str, from: usize) -> Option<String> {
    let end = low[from..].find(". ").map_or(low.len(), |q| from + q);
    let q = [" is set to ", " are set to "]
        .iter()
        .find_map(|k| low[from..end].find(k).map(|q| from + q + k.len()))?;
    value_at(inl, toks, tok_at(toks, q)?)
}

/// A word with digits or punctuation in it: typed, not chosen from a list.
fn valueish(w: &str) -> bool {
    w.chars()
        .any(|c| c.is_ascii_digit() || matches!(c, '-' | '.' | '/' | '_' | '@'))
}

/// What the opening clause of a step says. Sentences that only describe a result or an option
/// ("The state changes from Enabled to Disabled.", "You can also click Enable …") name labels but
/// ask for nothing; when every sentence is such a one, the first is the step's instruction.
pub(crate) fn analyse(inl: &Inline) -> Analysis {
    analyse_sentences(inl, true)
}

/// What a further clause of a step says (a paragraph or bullet under it): a clause made only of
/// results and options names labels and asks for nothing.
pub(crate) fn analyse_further(inl: &Inline) -> Analysis {
    analyse_sentences(inl, false)
}

/// Nouns after which a bold word names a row of a list ("the **default** group"), not a control.
const ROW_NOUNS: &[&str] = &["group", "whitelist", "account", "instance", "policy", "rule", "record"];

fn analyse_sentences(inl: &Inline, lead: bool) -> Analysis {
    let mut a = analyse_own_sentences(inl, lead);
    // "Click Modify to the right of the **default** group": the row, not something to click.
    let low = inl.text.to_lowercase();
    for label in &a.labels {
        let named = label.to_lowercase();
        let names_a_row = ROW_NOUNS
            .iter()
            .any(|noun| low.contains(&format!("the {named} {noun}")));
        if names_a_row && !a.mentions.contains(label) {
            a.mentions.push(label.clone());
        }
    }
    // "**Private**: Only the owner … can read and write objects": a further clause that asks for
    // nothing describes what it names.
    if !lead && a.actions.is_empty() && a.values.is_empty() && a.menu_path.is_empty() {
        a.mentions = a.labels.clone();
    }
    a
}

fn analyse_own_sentences(inl: &Inline, lead: bool) -> Analysis {
    let parts = sentences(inl);
    // "You can also click Buckets. Then, click Configure in the Versioning column …": the sentence
    // that goes on from an aside is the same alternative.
    // "You can either use a free instance or purchase one. Then, click OK.": a choice inside the
    // step, after which the step itself goes on.
    let mut previous_way = false;
    let asides: Vec<bool> = parts
        .iter()
        .map(|s| {
            let low = s.text.to_lowercase();
            let goes_on = ["then, ", "then ", "after that, "]
                .iter()
                .any(|lead| low.starts_with(lead));
            let aside = is_aside(&s.text) || (previous_way && goes_on);
            previous_way = aside && !low.starts_with("you can either ");
            aside
        })
        .collect();
    let mut own: Vec<&Inline> = parts
        .iter()
        .zip(&asides)
        .filter(|(_, aside)| !**aside)
        .map(|(s, _)| s)
        .collect();
    if own.len() == parts.len() {
        return analyse_clause(inl);
    }
    if own.is_empty() && lead {
        own.extend(parts.first());
    }
    let mut instruction = Inline::default();
    for s in own {
        join(&mut instruction, s);
    }
    let mut a = analyse_clause(&instruction);
    // The labels are every label the clause names, asides included, in text order.
    let all = analyse_clause(inl).labels;
    a.mentions = all.iter().filter(|l| !a.labels.contains(l)).cloned().collect();
    a.labels = all;
    a
}

fn join(to: &mut Inline, s: &Inline) {
    if !to.text.is_empty() {
        to.text.push(' ');
    }
    to.text.push_str(&s.text);
    to.bold.extend(s.bold.iter().cloned());
    to.code.extend(s.code.iter().cloned());
}

/// The sentences of a clause, each with the bold and code spans that lie in it.
fn sentences(inl: &Inline) -> Vec<Inline> {
    let text = inl.text.as_str();
    let mut cuts = vec![0];
    for (i, _) in text.match_indices(". ") {
        cuts.push(i + 2);
    }
    cuts.push(text.len());
    let spans = |list: &[String]| -> Vec<(usize, String)> {
        let mut out = Vec::new();
        let mut from = 0;
        for b in list {
            if let Some(p) = text[from.min(text.len())..].find(b.as_str()) {
                out.push((from + p, b.clone()));
                from += p + b.len();
            }
        }
        out
    };
    let (bold, code) = (spans(&inl.bold), spans(&inl.code));
    cuts.windows(2)
        .filter(|w| w[0] < w[1])
        .map(|w| {
            let inside = |list: &[(usize, String)]| {
                list.iter()
                    .filter(|(p, _)| *p >= w[0] && *p < w[1])
                    .map(|(_, b)| b.clone())
                    .collect::<Vec<_>>()
            };
            Inline {
                text: text[w[0]..w[1]].trim().to_string(),
                bold: inside(&bold),
                code: inside(&code),
            }
        })
        .collect()
}

/// A sentence that describes a result or an option rather than asking for an action: "You can
/// also click Enable …", "The state changes from Enabled to Disabled.", "Alternatively, …".
fn is_aside(sentence: &str) -> bool {
    let low = sentence.to_lowercase();
    // "Set Console Password: You can select …": the option text after a label.
    let low = match low.split_once(": ") {
        Some((head, rest)) if head.split_whitespace().count() <= 6 => rest.to_string(),
        _ => low,
    };
    // "For a RAM role that fails to be deleted, you can click Role Deletion …": an option for a
    // case the procedure does not meet.
    let conditional_option = ["if ", "for ", "when ", "in case "].iter().any(|c| low.starts_with(c))
        && low
            .split_once(", ")
            .is_some_and(|(_, main)| main.starts_with("you can "));
    let option = ["you can ", "alternatively", "optionally, you can"]
        .iter()
        .any(|lead| low.starts_with(lead))
        || conditional_option;
    let result = [" changes from ", " changes to ", " is changed to ", " change from "]
        .iter()
        .any(|phrase| low.contains(phrase));
    option || result
}

fn analyse_clause(inl: &Inline) -> Analysis {
    let text = inl.text.as_str();
    let low = lower(text);
    let toks = tokens(text);
    let mut a = Analysis::default();
    // (position, label)
    let mut labels: Vec<(usize, String)> = Vec::new();
    let mut bold_spans: Vec<(usize, usize)> = Vec::new();
    let mut from = 0;
    for b in &inl.bold {
        if let Some(p) = text[from.min(text.len())..].find(b.as_str()) {
            let p = from + p;
            bold_spans.push((p, p + b.len()));
            labels.push((p, b.clone()));
            from = p + b.len();
        }
    }
    let in_bold = |p: usize| bold_spans.iter().any(|&(s, e)| p >= s && p < e);
    // The label starting at token i: the bold span that starts there, else the capitalised run.
    let label_at = |i: usize| -> Option<(String, usize, usize)> {
        let t = toks.get(i)?;
        if let Some(&(s0, e0)) = bold_spans.iter().find(|&&(s0, _)| s0 == t.start) {
            return Some((text[s0..e0].to_string(), s0, e0));
        }
        run_forward(&toks, i)
    };
    let tok_count = |start: usize, end: usize| toks.iter().filter(|t| t.start >= start && t.start < end).count();
    let add_phrase = |labels: &mut Vec<(usize, String)>, pos: usize, l: String| {
        if !in_bold(pos) && !l.is_empty() {
            labels.push((pos, l));
        }
    };
    // "**Prefix**: If you select …, enter `img/`", "Region: Select …": the label that opens the
    // clause, its bold span or the words before its colon.
    let before_colon = name_before_colon(&toks);
    let lead_label = match bold_spans.iter().find(|&&(s0, _)| s0 == 0) {
        Some(&(_, e0)) => text[e0..].starts_with(':').then(|| text[..e0].to_string()),
        None => before_colon.as_ref().map(|(name, _)| name.clone()),
    };
    // Without bold, "Region: Select the region …" names its field only before the colon.
    if let Some((name, end)) = before_colon
        && let after = low[end..].trim_start_matches(':').trim_start()
        && ["select ", "enter ", "specify ", "set ", "choose ", "configure ", "turn ", "click "]
            .iter()
            .any(|verb| after.starts_with(verb))
    {
        add_phrase(&mut labels, 0, name);
    }
    // Quoted labels.
    for (open, close) in [('“', '”'), ('"', '"')] {
        let mut rest = 0;
        while let Some(p) = text[rest..].find(open) {
            let s = rest + p + open.len_utf8();
            let Some(q) = text[s..].find(close) else { break };
            let inner = &text[s..s + q];
            if !inner.is_empty() && inner.len() < 60 && labelish(inner) {
                labels.push((s, inner.to_string()));
            }
            rest = s + q + close.len_utf8();
        }
    }

    // Console.
    let opening = console_opening(text, &low, &toks);
    if let Some(o) = &opening {
        match &o.console {
            Some(name) => a.opens_console = Some(name.clone()),
            None => a.opens_own_console = true,
        }
        if let Some(page) = &o.page {
            a.menu_path = vec![page.clone()];
        }
        a.actions.push(StepAction::OpenConsole);
    }

    // Containers and column.
    // `None`: a column, not a container.
    let kinds: [(&str, Option<ContainerKind>); 9] = [
        (" dialog box", Some(ContainerKind::Dialog)),
        // "In the Protocol & Listener step": a step of a wizard.
        (" step", Some(ContainerKind::Wizard)),
        (" buy page", Some(ContainerKind::Page)),
        (" dialog", Some(ContainerKind::Dialog)),
        (" panel", Some(ContainerKind::Panel)),
        (" page", Some(ContainerKind::Page)),
        (" tab", Some(ContainerKind::Tab)),
        (" wizard", Some(ContainerKind::Wizard)),
        (" column", None),
    ];
    let mut found: Vec<(usize, Option<ContainerKind>, String)> = Vec::new();
    for (kw, kind) in kinds {
        let mut at = 0;
        while let Some(p) = find_word(&low, kw.trim_start(), at) {
            at = p + kw.len();
            if p == 0 || found.iter().any(|f| f.0 == p) {
                continue;
            }
            let Some(ti) = toks.iter().rposition(|t| t.start < p - 1) else {
                continue;
            };
            // "the Disable confirmation dialog box": the word says what the dialog is for; the
            // name is before it.
            let (ti, name_end) = match ti.checked_sub(1) {
                Some(before) if toks[ti].s == "confirmation" => (before, toks[ti].start),
                _ => (ti, p),
            };
            // Where the page marked the name in bold ("the **Disable** confirmation dialog box"),
            // the bold is the name.
            let unmarked = |(_, pos): &(String, usize)| !in_bold(*pos);
            let Some((name, pos)) = run_backward(&toks, ti).or_else(|| named_after_the(&toks, ti).filter(unmarked)) else {
                continue;
            };
            if name.len() + pos + 1 != name_end && !text[pos..name_end].trim_end().ends_with(&name) {
                continue;
            }
            // Names ending in a sentence stop belong to the previous clause.
            if text[..p].trim_end().ends_with(['.', ',']) {
                continue;
            }
            add_phrase(&mut labels, pos, name.clone());
            found.push((p, kind, name));
        }
    }
    // Phrases that name a label but no container.
    for kw in ["section", "field", "drop-down list", "text box", "check box", "button"] {
        let mut at = 0;
        while let Some(p) = find_word(&low, kw, at) {
            at = p + kw.len();
            if p < 2 || text[..p].trim_end().ends_with(['.', ',']) {
                continue;
            }
            let Some(ti) = toks.iter().rposition(|t| t.start < p - 1) else {
                continue;
            };
            if let Some((name, pos)) = run_backward(&toks, ti) {
                add_phrase(&mut labels, pos, name);
            }
        }
    }
    // What the clause clicks, in order: "click All Actions. In the pane that appears, …".
    let clicked: Vec<(usize, String)> = ["click", "choose"]
        .iter()
        .flat_map(|verb| {
            let mut out = Vec::new();
            let mut at = 0;
            while let Some(p) = find_word(&low, verb, at) {
                at = p + verb.len();
                if let Some((l, pos, _)) = tok_at(&toks, at + 1).and_then(label_at) {
                    out.push((pos, l));
                }
            }
            out
        })
        .collect();
    found.extend(lowercase_containers(&low, &toks, &clicked));
    found.sort_by_key(|f| f.0);
    for (_, kind, name) in found {
        let name = either_name(name);
        match kind {
            None => {
                a.column.get_or_insert(name);
            }
            Some(kind) if a.container.is_none() => a.container = Some(Container { kind, name }),
            Some(_) => {}
        }
    }
    // "the Alibaba Cloud DNS - Public Authoritative Resolution page" is that console's page.
    if let (Some(c), Some(page)) = (a.container.as_mut(), opening.as_ref().and_then(|o| o.page.as_ref()))
        && c.name.ends_with(&format!(" - {page}"))
    {
        c.name = page.clone();
    }

    // Menu paths: the last "A > B" chain of the clause wins (an earlier one leads to its page).
    let is_sep = |t: &Tok| t.s == ">" || t.s == "›";
    // The label at token `vi` (ending at byte `end`) opens a menu path: "select Batch operation >
    // Delete", lower-case words and all, where the page lost its bold.
    let opens_a_menu = |vi: usize, end: usize| {
        toks.get(vi + tok_count(toks[vi].start, end)).is_some_and(is_sep)
            || toks[vi..]
                .iter()
                .take(5)
                .position(is_sep)
                .is_some_and(|k| name_with_lower_case_words(&toks, vi, vi + k).is_some())
    };
    // The bold span that ends right before token `i`.
    let bold_before = |i: usize| {
        bold_spans
            .iter()
            .copied()
            .find(|&(s0, e0)| e0 <= toks[i].start && text[e0..toks[i].start].trim().is_empty() && s0 < e0)
    };
    let mut cascades: Vec<(usize, String, String)> = Vec::new();
    let mut from_tok = 0;
    while let Some(first) = toks[from_tok..].iter().position(is_sep).map(|i| i + from_tok) {
        let mut path = Vec::new();
        // Where the chain's first segment starts.
        let mut chain_start = first.checked_sub(1).map_or(0, |i| toks[i].start);
        if first > 0
            && let Some((s0, e0)) = bold_before(first)
        {
            let seg = &text[s0..e0];
            path.push(if stray_icon(seg) {
                "⋯".to_string()
            } else {
                seg.to_string()
            });
            chain_start = s0;
        } else if first > 0
            && (stray_icon(toks[first - 1].s)
                || menu_verb(toks[first - 1].s))
        {
            // Scraped copies write the row's "⋯" icon as a stray word such as "icon1", or lose it
            // and leave the verb before the `>` ("choose > Delete").
            path.push("⋯".to_string());
        } else if first > 0
            && let Some((seg, pos)) = run_backward(&toks, first - 1)
        {
            add_phrase(&mut labels, pos, seg.clone());
            path.push(seg);
            chain_start = pos;
        } else if let Some((seg, pos)) = menu_after_verb(&toks, first) {
            add_phrase(&mut labels, pos, seg.clone());
            path.push(seg);
            chain_start = pos;
        }
        let mut j = first;
        while j < toks.len() && is_sep(&toks[j]) {
            let Some((seg, pos, end)) = label_at(j + 1) else {
                break;
            };
            add_phrase(&mut labels, pos, seg.clone());
            path.push(seg);
            j += 1 + tok_count(pos, end).max(1);
            if toks.get(j - 1).is_some_and(|t| strip(t.s).1) {
                break;
            }
        }
        from_tok = j.max(first + 1);
        // "For Metric, select Instance Dimension > (ECS) CPU Utilization": the field's value, a
        // choice within a group of options, not a menu.
        if let Some((field, _)) = field_selected_at(&low, chain_start, &label_at, &toks)
            && !path.is_empty()
        {
            cascades.push((chain_start, field, path.join(" > ")));
            continue;
        }
        if !path.is_empty() {
            if a.navigation.is_empty() && !a.menu_path.is_empty() {
                a.navigation = std::mem::take(&mut a.menu_path);
            }
            a.menu_path = path;
        }
    }

    // Verbs.
    let mut vals: Vec<(usize, FieldValue)> = Vec::new();
    let mut acts: Vec<(usize, StepAction)> = Vec::new();
    for (p, field, value) in cascades {
        vals.push((p, FieldValue { label: Some(field), value }));
        acts.push((p, StepAction::Select));
    }
    // "For Metric Type, select Simple Metric": the field named first, then its value.
    let mut at = 0;
    while let Some(p) = find_word(&low, "select", at) {
        at = p + "select".len();
        let Some(vi) = tok_at(&toks, p + "select ".len()) else { continue };
        let field = field_selected_at(&low, toks[vi].start, &label_at, &toks);
        // "For Service, select the target Alibaba Cloud service": the field, whatever the value.
        if let Some((name, pos)) = &field {
            add_phrase(&mut labels, *pos, name.clone());
        }
        let Some((value, value_pos, end)) = label_at(vi) else { continue };
        let chained = opens_a_menu(vi, end);
        if chained || vals.iter().any(|(_, v)| v.value == value) {
            continue;
        }
        if let Some((field, _)) = field {
            add_phrase(&mut labels, value_pos, value.clone());
            vals.push((p, FieldValue { label: Some(field), value }));
            acts.push((p, StepAction::Select));
        }
    }
    if let Some(p) = low.find("navigation pane") {
        acts.push((p, StepAction::Navigate));
    }
    if let Some(p) = low
        .find("top navigation bar")
        .or_else(|| low.find("top menu bar"))
        .or_else(|| region_choice(&low, 0))
        && low.contains("region")
    {
        acts.push((p, StepAction::SelectRegion));
    }
    if a.opens_console.is_none()
        && let Some(p) = find_word(&low, "go to the", 0).filter(|p| low[*p..].contains(" page"))
    {
        acts.push((p, StepAction::Navigate));
    }
    for w in ["find", "search for"] {
        if let Some(p) = find_word(&low, w, 0) {
            acts.push((p, StepAction::Find));
        }
    }
    // "To configure all parameters, click Create Trail": a purpose, not an instruction.
    let mut at = 0;
    while let Some(p) = find_word(&low, "configure", at) {
        at = p + "configure".len();
        if !low[..p].ends_with("to ") {
            acts.push((p, StepAction::Configure));
            break;
        }
    }
    if let Some((p, act)) = parameters_verb(&low) {
        acts.push((p, act));
    }
    // "In the left-side navigation pane, click Files. Then, click Upload.": the pane is the place of
    // its own sentence's clicks only.
    let nav_sentence = low.find("navigation pane").map(|p| {
        let start = low[..p].rfind(". ").map_or(0, |q| q + 2);
        let end = low[p..].find(". ").map_or(low.len(), |q| p + q);
        start..end
    });
    // In order of place: "in the navigation pane, select Users and click Create User" opens Users
    // from the pane, then clicks Create User on the page it opened.
    let mut clicks: Vec<(usize, &str)> = Vec::new();
    for verb in ["click", "choose", "select"] {
        let mut at = 0;
        while let Some(p) = find_word(&low, verb, at) {
            at = p + verb.len();
            clicks.push((p, verb));
        }
    }
    clicks.sort_by_key(|c| c.0);
    for (p, verb) in clicks {
        let navigating = nav_sentence.as_ref().is_some_and(|s| s.contains(&p));
        // "select" names a value, except as the pane's item.
        if verb == "select" && !(navigating && a.menu_path.is_empty()) {
            continue;
        }
        let Some(ti) = tok_at(&toks, p + verb.len() + 1) else {
            continue;
        };
        let label = label_at(ti).or_else(|| if verb == "click" { lone_lower_case_word(&toks, ti) } else { None });
        if let Some((l, pos, end)) = &label {
            add_phrase(&mut labels, *pos, l.clone());
            if navigating && a.menu_path.is_empty() && !ICONS.contains(&l.as_str()) {
                a.menu_path = vec![l.clone()];
            }
            // "click Enable Console Logon or Modify Logon Settings": the other control it may be.
            let after = ti + tok_count(*pos, *end);
            if toks.get(after).is_some_and(|t| t.s == "or")
                && let Some((other, other_pos, _)) = label_at(after + 1)
            {
                add_phrase(&mut labels, other_pos, other);
            }
        }
        let menu = toks
            .get(ti + label.as_ref().map_or(0, |l| tok_count(l.1, l.2)))
            .is_some_and(|t| t.s == ">" || t.s == "›");
        let confirm = label.as_ref().is_some_and(|(l, _, _)| CONFIRM.contains(&l.as_str()));
        let act = if navigating && verb == "choose" || navigating && !a.menu_path.is_empty() && a.column.is_none() {
            StepAction::Navigate
        } else if confirm && !menu {
            StepAction::Confirm
        } else {
            StepAction::Click
        };
        acts.push((p, act));
    }
    // set X to Y
    // "set X to Y and Z to W": an "and" right after a value starts another pair.
    let mut sets: Vec<usize> = Vec::new();
    let mut at = 0;
    while let Some(p) = find_word(&low, "set", at) {
        sets.push(p);
        at = p + 3;
    }
    let mut k = 0;
    while k < sets.len() {
        let p = sets[k];
        k += 1;
        let Some(ti) = tok_at(&toks, p + 4) else { continue };
        let Some((run, pos, end)) = label_at(ti) else { continue };
        // Without bold, "Storage Class to Standard" comes as one run: split it at " to ".
        // A typed value (code, digits) is entered; a label ("Set Add Method to Import ECS
        // Internal IP Address") is an option to select.
        let (label, value, typed) = if let Some(k) = run.find(" to ") {
            let v = run[k + 4..].split(" and ").next().unwrap_or("").to_string();
            let typed = inl.code.contains(&v) || valueish(&v);
            (run[..k].to_string(), Some(v).filter(|v| !v.is_empty()), typed)
        } else {
            if !low[end..].starts_with(" to ") {
                continue;
            }
            let Some(vi) = tok_at(&toks, end + 4) else { continue };
            match value_at(inl, &toks, vi) {
                Some(v) => (run, Some(v), true),
                None => {
                    let v = label_at(vi).map(|r| r.0.split(" and ").next().unwrap_or("").to_string());
                    (run, v, false)
                }
            }
        };
        if let Some(value) = value {
            add_phrase(&mut labels, pos, label.clone());
            if let Some(vend) = text[pos..].find(&value).map(|x| pos + x + value.len()) {
                let rest = text[vend..].trim_start_matches(['`', '"', '”', '*']);
                if rest.starts_with(" and ") && !sets.contains(&(text.len() - rest.len() + 1)) {
                    sets.push(text.len() - rest.len() + 1);
                }
            }
            vals.push((
                p,
                FieldValue {
                    label: Some(label),
                    value,
                },
            ));
            acts.push((p, if typed { StepAction::Enter } else { StepAction::Select }));
        }
    }
    // "keep Stopped By set to Stop", "leave Force Restart unselected": the value a field is to
    // keep, chosen as any other.
    let mut kept = Vec::new();
    for verb in ["keep", "leave"] {
        let mut at = 0;
        while let Some(p) = find_word(&low, verb, at) {
            at = p + verb.len();
            kept.push((p, verb.len() + 1));
        }
    }
    for (p, skip) in kept {
        let Some(ti) = tok_at(&toks, p + skip) else { continue };
        let Some((label, pos, end)) = label_at(ti) else {
            continue;
        };
        let rest = &low[end..];
        let state = [
            (" unselected", "cleared"),
            (" unchecked", "cleared"),
            (" cleared", "cleared"),
            (" selected", "selected"),
            (" checked", "selected"),
        ]
        .iter()
        .find(|(word, _)| rest.starts_with(word))
        .map(|(_, state)| state.to_string());
        let value = match state {
            Some(state) => state,
            None if rest.starts_with(" set to ") => {
                let Some((value, _, _)) = tok_at(&toks, end + " set to ".len()).and_then(label_at) else {
                    continue;
                };
                value
            }
            None => continue,
        };
        add_phrase(&mut labels, pos, label.clone());
        vals.push((
            p,
            FieldValue {
                label: Some(label),
                value,
            },
        ));
        acts.push((p, StepAction::Select));
    }
    // "turn on Automatic renewal", "turn off Full Text Index": a switch and the state it is set to.
    for (verb, state) in [("turn on", "on"), ("turn off", "off")] {
        let mut at = 0;
        while let Some(p) = find_word(&low, verb, at) {
            at = p + verb.len();
            let Some(ti) = tok_at(&toks, p + verb.len() + 1) else {
                continue;
            };
            let marked = label_at(ti).filter(|(_, pos, _)| in_bold(*pos));
            let Some((label, pos, _)) = marked.or_else(|| name_to_clause_end(&toks, ti)).or_else(|| label_at(ti)) else {
                continue;
            };
            add_phrase(&mut labels, pos, label.clone());
            vals.push((
                p,
                FieldValue {
                    label: Some(label),
                    value: state.to_string(),
                },
            ));
            acts.push((p, StepAction::Select));
        }
    }
    // The label a clause names: "In the X field", "X: enter …", "… in the X field".
    // Clauses end at ", ", "; ", ". " and " and ".
    let mut bounds: Vec<(usize, usize)> = Vec::new();
    for sep in [", ", "; ", ". ", " and "] {
        let mut at = 0;
        while let Some(q) = low[at..].find(sep) {
            bounds.push((at + q, at + q + sep.len()));
            at += q + sep.len();
        }
    }
    let clause = |p: usize| -> (usize, usize) {
        let start = bounds.iter().filter(|b| b.1 <= p).map(|b| b.1).max().unwrap_or(0);
        let end = bounds
            .iter()
            .filter(|b| b.0 > p)
            .map(|b| b.0)
            .min()
            .unwrap_or(text.len());
        (start, end)
    };
    let name_before = |q: usize| -> Option<String> {
        let ti = toks.iter().rposition(|t| t.start < q)?;
        run_backward(&toks, ti).map(|r| r.0)
    };
    const FIELD_KWS: [&str; 4] = [" field", " drop-down list", " text box", " list"];
    // "select Match by Prefix for the Policy", "… for the Trusted entity type parameter",
    // "… for Select Trusted Alibaba Cloud Account field": the field a choice is for.
    let for_the_field = |p: usize, ce: usize| -> Option<String> {
        let q = find_word(&low[p..ce], "for", 0)?;
        let mut start = p + q + "for ".len();
        if low[start.min(ce)..ce].starts_with("the ") {
            start += "the ".len();
        }
        if let Some(&(_, e0)) = bold_spans.iter().find(|&&(s0, _)| s0 == start) {
            return Some(text[start..e0].to_string());
        }
        let rest = &low[start.min(ce)..ce];
        let kw = [" field", " parameter", " drop-down list", " option"]
            .iter()
            .filter_map(|k| find_word(rest, k.trim_start(), 0))
            .min()?;
        let words = text[start..start + kw].trim();
        let plain = words.split_whitespace().count() <= 6 && labelish(words);
        plain.then(|| words.to_string())
    };
    // The field a value goes into: named after the verb in the same clause ("enter x in the X
    // field", "select x as the X"), by a lead-in clause just before ("In the X field of the
    // vSwitch, enter x"), or by a label that opens the clause ("Logon Name: enter x").
    let field_label = |p: usize| -> Option<String> {
        let (cs, ce) = clause(p);
        let after = &low[p..ce];
        if let Some(q) = after.find(" as the ") {
            let ti = tok_at(&toks, p + q + 8)?;
            return label_at(ti).map(|r| r.0);
        }
        if let Some(l) = for_the_field(p, ce) {
            return Some(l);
        }
        if let Some(q) = FIELD_KWS
            .iter()
            .filter_map(|k| find_word(after, k.trim_start(), 0))
            .min()
            && let Some(name) = name_before(p + q)
        {
            return Some(name);
        }
        if let Some(q) = text[cs..p].find(':') {
            return name_before(cs + q);
        }
        if cs > 0 {
            let (ps, _) = clause(cs.saturating_sub(2));
            let lead = &low[ps..cs];
            let verbless = !["click", "enter", "select", "set ", "choose"]
                .iter()
                .any(|v| lead.contains(v));
            if verbless
                && let Some(q) = FIELD_KWS
                    .iter()
                    .filter_map(|k| find_word(lead, k.trim_start(), 0))
                    .min()
            {
                return name_before(ps + q);
            }
        }
        None
    };
    for verb in ["enter", "select"] {
        let mut at = 0;
        while let Some(p) = find_word(&low, verb, at) {
            at = p + verb.len();
            // "**Select Listener Protocol**: …" is a label, not a verb.
            if in_bold(p) {
                continue;
            }
            if verb == "select" && region_choice(&low, p) == Some(p) {
                continue;
            }
            // "the Select Product/Service drop-down list": a word of a label.
            if label_word_at(text, &toks, p) {
                continue;
            }
            let Some(vi) = tok_at(&toks, p + verb.len() + 1) else {
                continue;
            };
            let label = label_at(vi);
            // "select Batch operation > Delete": a menu, not a value.
            if let Some((_, _, end)) = &label
                && opens_a_menu(vi, *end)
            {
                acts.push((p, StepAction::Click));
                continue;
            }
            // "in the navigation pane, select Users": the pane's item, not a value.
            if verb == "select"
                && label
                    .as_ref()
                    .is_some_and(|(l, _, _)| a.menu_path.len() == 1 && a.menu_path[0] == *l)
                && nav_sentence.as_ref().is_some_and(|s| s.contains(&p))
            {
                continue;
            }
            acts.push((
                p,
                if verb == "select" {
                    StepAction::Select
                } else {
                    StepAction::Enter
                },
            ));
            // "Select Product as Elastic Compute Service (ECS)": the field, then its value.
            if verb == "select"
                && let Some((field, _, end)) = &label
                && low[*end..].starts_with(" as ")
                && !low[*end..].starts_with(" as the ")
                && let Some((value, _, _)) = tok_at(&toks, end + 4).and_then(label_at)
            {
                vals.push((
                    p,
                    FieldValue {
                        label: Some(field.clone()),
                        value,
                    },
                ));
                continue;
            }
            let value = if verb == "select" {
                value_at(inl, &toks, vi).or_else(|| label.map(|r| r.0))
            } else {
                value_at(inl, &toks, vi)
            };
            // "For Metric Type, select Simple Metric" was read with its field already.
            if let Some(value) = value
                && !vals.iter().any(|(_, v)| v.value == value)
            {
                vals.push((
                    p,
                    FieldValue {
                        // A typed value goes into the field its bullet opens with.
                        label: field_label(p).or_else(|| lead_label.clone().filter(|_| verb == "enter")),
                        value,
                    },
                ));
            }
        }
    }
    // "In this example, web-vpc is used."; "In this example, the port number is set to 80."
    if let Some(p) = low.find("in this example, ") {
        let s = p + "in this example, ".len();
        if let Some(vi) = tok_at(&toks, s) {
            let v = value_at(inl, &toks, vi)
                .or_else(|| run_forward(&toks, vi).map(|r| r.0))
                .or_else(|| set_to_value(inl, &toks, &low, s));
            if let Some(v) = v
                && !vals.iter().any(|x| x.1.value == v)
            {
                // A bullet that opens with its label: "Name: Enter a name. In this example, …".
                vals.push((
                    p,
                    FieldValue {
                        label: field_label(p).or(lead_label.clone()),
                        value: v,
                    },
                ));
            }
        }
    }
    // "TCP is selected in this example." (the value before the phrase).
    for tail in [" is selected in this example", " is used in this example"] {
        if let Some(p) = low.find(tail)
            && let Some(vi) = toks.iter().rposition(|t| t.start < p)
        {
            let v = value_at(inl, &toks, vi).or_else(|| run_backward(&toks, vi).map(|r| r.0));
            if let Some(v) = v
                && !vals.iter().any(|x| x.1.value == v)
            {
                vals.push((p, FieldValue { label: lead_label.clone(), value: v }));
            }
        }
    }
    vals.sort_by_key(|x| x.0);
    a.values = vals.into_iter().map(|x| x.1).collect();
    acts.sort_by_key(|x| x.0);
    for (_, act) in acts {
        if !a.actions.contains(&act) {
            a.actions.push(act);
        }
    }
    // "Access RDS Instances": the page the step opens, not a control on it.
    let opened_page = opening
        .as_ref()
        .and_then(|o| Some(format!("{} {}", o.console.as_ref()?, o.page.as_ref()?)));
    labels.sort_by_key(|l| l.0);
    for (pos, l) in labels {
        // "Log on to the ECS console": the console the step opens, not a control on the page;
        // "Click Go to RAM console" names a button.
        let opened = (l.ends_with(" console") && opens_before(&low[..pos.min(low.len())]))
            || opened_page.as_deref() == Some(l.as_str());
        if !a.labels.contains(&l) && !ICONS.contains(&l.as_str()) && !opened && !stray_icon(&l) {
            a.labels.push(l);
        }
    }
    a
}

/// "Specify the Policy Name and Note parameters", "set the required parameters", "set relevant
/// parameters": parameters to fill in (configure); "specify Delete In (7-30 days)": a field to fill
/// in (enter). "… is set to the default value" describes, and "set X to Y" is read as a value.
fn parameters_verb(low: &str) -> Option<(usize, StepAction)> {
    for verb in ["specify", "set"] {
        let mut at = 0;
        while let Some(p) = find_word(low, verb, at) {
            at = p + verb.len();
            let before = low[..p].trim_end();
            if ["is", "are", "be", "been"].iter().any(|w| before.ends_with(w)) {
                continue;
            }
            let end = low[p..].find(". ").map_or(low.len(), |q| p + q);
            let object = &low[p + verb.len()..end];
            // "set the following parameters to configure the listener"; "set Name to web-01".
            let head = object.split(" to ").next().unwrap_or(object);
            if head.contains("parameters") || head.contains("settings") {
                return Some((p, StepAction::Configure));
            }
            if object.contains(" to ") {
                continue;
            }
            if verb == "specify" {
                return Some((p, StepAction::Enter));
            }
        }
    }
    None
}

/// "On the Quickly Create Trail or Create Trail page": either page; the first is named.
fn either_name(name: String) -> String {
    match name.split_once(" or ") {
        Some((first, second)) if !first.trim().is_empty() && !second.trim().is_empty() => first.trim().to_string(),
        _ => name,
    }
}

/// Containers the house style names in lowercase: "the instance details page" (a page named
/// `instance details`) and "the pane that appears" after a click (named by the label clicked).
fn lowercase_containers(
    low: &str,
    toks: &[Tok],
    clicked: &[(usize, String)],
) -> Vec<(usize, Option<ContainerKind>, String)> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(p) = find_word(low, "details page", at) {
        at = p + "details page".len();
        let Some(i) = toks.iter().rposition(|t| t.start < p) else {
            continue;
        };
        let noun = strip(toks[i].s).0;
        let after_the = i > 0 && toks[i - 1].s.eq_ignore_ascii_case("the");
        if after_the && noun.chars().all(|c| c.is_ascii_lowercase()) && !["its", "the"].contains(&noun) {
            out.push((toks[i].start, Some(ContainerKind::Page), format!("{noun} details")));
        }
    }
    for (phrase, kind) in [
        ("pane that appears", ContainerKind::Panel),
        ("panel that appears", ContainerKind::Panel),
    ] {
        if let Some(p) = find_word(low, phrase, 0)
            && let Some((_, name)) = clicked.iter().filter(|(q, _)| *q < p).max_by_key(|(q, _)| *q)
        {
            out.push((p, Some(kind), name.clone()));
        }
    }
    out
}

/// Whether the capitalised word at `p` sits inside a label ("for Select Trusted Alibaba Cloud
/// Account field", "the Select Product/Service drop-down list") rather than starting a sentence.
fn label_word_at(text: &str, toks: &[Tok], p: usize) -> bool {
    if !text[p..].starts_with(char::is_uppercase) {
        return false;
    }
    let Some(i) = toks.iter().position(|t| t.start == p) else {
        return false;
    };
    i > 0 && ["for", "the", "a", "an", "of"].contains(&toks[i - 1].s)
}

/// Whether the text before a console name is a phrase that opens it ("log on to the", "go to",
/// "open the", "in the"), rather than a verb that clicks a button of that name.
fn opens_before(before: &str) -> bool {
    let b = before.trim_end();
    [
        "log on to the",
        "log on to",
        "go to the",
        "go to",
        "open the",
        "in the",
        "of the",
        "on the",
    ]
    .iter()
    .any(|lead| b.ends_with(lead))
}

/// Where "select [the|a] [target] region" starts at or after `from`: a region choice, not a value.
fn region_choice(low: &str, from: usize) -> Option<usize> {
    let mut at = from;
    while let Some(p) = find_word(low, "select", at) {
        let rest = low[p + "select".len()..].trim_start();
        let rest = rest
            .strip_prefix("the ")
            .or_else(|| rest.strip_prefix("a "))
            .unwrap_or(rest);
        let rest = rest.strip_prefix("target ").unwrap_or(rest);
        if rest.starts_with("region") {
            return Some(p);
        }
        at = p + "select".len();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(text: &str) -> Analysis {
        analyse(&Inline {
            text: text.into(),
            ..Inline::default()
        })
    }

    #[test]
    fn capitalised_runs_take_connectors_only_before_capitals() {
        let toks = tokens("click Add to Group in the Actions column.");
        assert_eq!(run_forward(&toks, 1).unwrap().0, "Add to Group");
        let toks = tokens("click OK and then close the page");
        assert_eq!(run_forward(&toks, 1).unwrap().0, "OK");
        let toks = tokens("In the left-side navigation pane, click vSwitch.");
        assert_eq!(run_forward(&toks, 6).unwrap().0, "vSwitch");
    }

    #[test]
    fn a_menu_path_without_bold_keeps_its_lower_case_words() {
        let a = plain("Select one or more objects, and then select Batch operation > Delete.");
        assert_eq!(a.menu_path, ["Batch operation", "Delete"]);
        assert!(a.values.is_empty(), "{:?}", a.values);
    }

    #[test]
    fn a_tab_named_without_bold_keeps_its_lower_case_words() {
        let a = plain("Click the vServer groups tab and click Create vServer Group.");
        assert_eq!(a.container.map(|c| (c.kind, c.name)), Some((ContainerKind::Tab, "vServer groups".into())));
        assert!(a.labels.contains(&"Create vServer Group".to_owned()), "{:?}", a.labels);
        // "confirmation" says what a dialog is for, bold or not.
        let dialog = Some((ContainerKind::Dialog, "Disable".to_owned()));
        let marked = bold("In the Disable confirmation dialog box, click Disable.", &["Disable"]);
        assert_eq!(marked.container.map(|c| (c.kind, c.name)), dialog);
        let unmarked = plain("In the Disable confirmation dialog box, click Disable.");
        assert_eq!(unmarked.container.map(|c| (c.kind, c.name)), dialog);
        // Words that open lower-case name nothing.
        assert_eq!(named_after_the(&tokens("on the user details page"), 3), None);
        assert_eq!(
            named_after_the(&tokens("click the vServer groups tab"), 3),
            Some(("vServer groups".to_owned(), 10))
        );
    }

    #[test]
    fn a_field_named_before_its_colon_without_bold_is_a_label() {
        let a = plain("Region: Select the region where you want to create cloud resources.");
        assert_eq!(a.labels, ["Region"]);
        let a = plain("IPv4 CIDR block: Select a CIDR block suggested by the console.");
        assert_eq!(a.labels, ["IPv4 CIDR block"]);
        let a = plain("Name: Enter a name. In this example, web-vpc is used.");
        assert_eq!(pairs(&a), [(Some("Name"), "web-vpc")]);
        // A description after the colon names no field, nor does an example or a note.
        let a = plain("Restart Now: The instance restarts immediately.");
        assert!(a.labels.is_empty(), "{:?}", a.labels);
        let a = plain("Example: Set an alert rule that sends an alert notification.");
        assert!(a.labels.is_empty(), "{:?}", a.labels);
    }

    #[test]
    fn a_lower_case_control_that_ends_the_clause_is_clicked() {
        let a = plain("In the Actions column for the target instance, click restart.");
        assert!(a.labels.contains(&"restart".to_owned()), "{:?}", a.labels);
        assert_eq!(a.column.as_deref(), Some("Actions"));
        let a = plain("For details, click here.");
        assert!(a.labels.is_empty(), "{:?}", a.labels);
        // Only a word that ends the clause: "click the instance ID" names no "the".
        let a = plain("Find the instance and click the instance ID.");
        assert!(!a.labels.iter().any(|l| l == "the"), "{:?}", a.labels);
    }

    #[test]
    fn click_x_or_y_names_two_controls_not_one() {
        let a = plain("On the Authentication tab, click Enable Console Logon or Modify Logon Settings.");
        assert!(a.labels.contains(&"Enable Console Logon".to_owned()), "{:?}", a.labels);
        assert!(a.labels.contains(&"Modify Logon Settings".to_owned()), "{:?}", a.labels);
        assert!(!a.labels.iter().any(|l| l.contains(" or ")), "{:?}", a.labels);
    }

    #[test]
    fn deep_links_name_the_console_and_the_page() {
        let a = plain("Go to ECS console - Snapshots.");
        assert_eq!(a.opens_console.as_deref(), Some("ECS"));
        assert_eq!(a.menu_path, ["Snapshots"]);
        assert_eq!(a.actions, [StepAction::OpenConsole]);
        let a = plain("Go to the Create Bucket page in the OSS console.");
        assert_eq!(a.opens_console.as_deref(), Some("OSS"));
        assert_eq!(
            a.container,
            Some(Container {
                kind: ContainerKind::Page,
                name: "Create Bucket".into()
            })
        );
        let a = plain("Log on to the ApsaraDB RDS console.");
        assert_eq!(a.opens_console.as_deref(), Some("ApsaraDB RDS"));
    }

    #[test]
    fn menu_paths_with_either_separator_and_icons() {
        assert_eq!(
            plain("choose Storage & Snapshots › Snapshots.").menu_path,
            ["Storage & Snapshots", "Snapshots"]
        );
        let a = plain("find the disk and choose More > Release in the Actions column.");
        assert_eq!(a.menu_path, ["More", "Release"]);
        assert_eq!(a.column.as_deref(), Some("Actions"));
        assert_eq!(
            plain("choose icon1 > Instance Status > Stop.").menu_path,
            ["⋯", "Instance Status", "Stop"]
        );
        assert_eq!(
            plain("choose Log Storage > Logstores.").menu_path,
            ["Log Storage", "Logstores"]
        );
        // Two paths: the page to go to, then the row's menu.
        let a = plain("Choose Log Storage > Logstores. On the Logstores tab, find the Logstore, and then choose Modify a Logstore > Delete.");
        assert_eq!(a.navigation, ["Log Storage", "Logstores"]);
        assert_eq!(a.menu_path, ["Modify a Logstore", "Delete"]);
        assert!(plain("choose More > Release.").navigation.is_empty());
    }

    #[test]
    fn values_with_and_without_a_named_field() {
        let a = plain("In the Description field, enter test-vpc-01.");
        assert_eq!(
            a.values,
            [FieldValue {
                label: Some("Description".into()),
                value: "test-vpc-01".into()
            }]
        );
        let a = plain("From the Zone drop-down list, select Zone B.");
        assert_eq!(
            a.values,
            [FieldValue {
                label: Some("Zone".into()),
                value: "Zone B".into()
            }]
        );
        // "enter a name" names no value.
        assert!(plain("Enter a name for the VPC.").values.is_empty());
        // "list" in "Listener" is no drop-down list.
        let a = plain("Enter 443 in the Listener Port field and click Next.");
        assert_eq!(a.values[0].label.as_deref(), Some("Listener Port"));
        let a = plain("In the Deletion Period (Days) field, enter 30.");
        assert_eq!(a.values[0].label.as_deref(), Some("Deletion Period (Days)"));
        let a = plain("Name: Enter a name. In this example, web-vpc is used.");
        assert_eq!(
            a.values,
            [FieldValue {
                label: Some("Name".into()),
                value: "web-vpc".into()
            }]
        );
    }

    #[test]
    fn newer_pages_act_on_the_details_page() {
        let a = plain("Click the instance ID to open its details page.");
        assert_eq!(a.actions, [StepAction::Click]);
        assert!(a.labels.is_empty() && a.container.is_none());
        let a = plain("Click All Actions in the upper-right corner, then search for and click Stop.");
        assert_eq!(a.labels, ["All Actions", "Stop"]);
        assert_eq!(a.actions, [StepAction::Click, StepAction::Find]);
        let a = plain("Configure the stop parameters and click Confirm.");
        assert_eq!(a.actions, [StepAction::Configure, StepAction::Confirm]);
        let a = plain("In the navigation pane on the left, click vSwitch.");
        assert_eq!(a.menu_path, ["vSwitch"]);
        assert_eq!(a.actions, [StepAction::Navigate]);
        // The pane is the place of its own sentence's clicks.
        let a = bold(
            "In the left-side navigation pane, click Files. Then, click Upload.",
            &["Files", "Upload"],
        );
        assert_eq!(a.menu_path, ["Files"]);
        assert_eq!(a.actions, [StepAction::Navigate, StepAction::Click]);
        // "set the following parameters" names no field.
        assert!(
            plain("On the Create VPC page, set the following parameters and click OK.")
                .values
                .is_empty()
        );
    }

    #[test]
    fn quoted_labels_count_as_labels() {
        let a = plain("Click “Create VPC” and then \"OK\".");
        assert_eq!(a.labels, ["Create VPC", "OK"]);
    }

    #[test]
    fn containers_of_every_kind() {
        let kind = |t: &str| plain(t).container.map(|c| (c.kind, c.name));
        assert_eq!(
            kind("In the Release dialog box, click OK."),
            Some((ContainerKind::Dialog, "Release".into()))
        );
        assert_eq!(
            kind("In the Create User panel, click OK."),
            Some((ContainerKind::Panel, "Create User".into()))
        );
        assert_eq!(
            kind("On the Security Groups page, click Create."),
            Some((ContainerKind::Page, "Security Groups".into()))
        );
        assert_eq!(
            kind("On the Basic Information tab, click Edit."),
            Some((ContainerKind::Tab, "Basic Information".into()))
        );
        assert_eq!(
            kind("In the Create Listener wizard, click Next."),
            Some((ContainerKind::Wizard, "Create Listener".into()))
        );
        assert_eq!(kind("In the top navigation bar, select a region."), None);
    }

    #[test]
    fn stray_icon_words_and_image_names_are_the_row_menu() {
        let a = plain(
            "find the instance and choose image.png > Instance Attributes > Reset Instance Password in the Actions column.",
        );
        assert_eq!(a.menu_path, ["⋯", "Instance Attributes", "Reset Instance Password"]);
        assert!(!a.labels.iter().any(|l| l.contains("png")));
        assert_eq!(a.column.as_deref(), Some("Actions"));
        // A menu path the scraped copy lost entirely names nothing.
        let a = bold(
            "If you have not created a RAM user, in the left-side navigation pane, select Users and click Create User.",
            &["Users", "Create User"],
        );
        assert_eq!(a.menu_path, ["Users"]);
        assert_eq!(a.labels, ["Users", "Create User"]);
        assert!(!a.actions.contains(&StepAction::Select), "{:?}", a.actions);
        let a = plain("In the left-side navigation pane, choose .");
        assert!(a.labels.is_empty() && a.menu_path.is_empty());
        assert_eq!(a.actions, [StepAction::Navigate]);
    }

    #[test]
    fn newer_deep_links_and_open_the_console() {
        let a =
            plain("Go to ECS console - Instance. In the top-left corner, select the target region and resource group.");
        assert_eq!(a.opens_console.as_deref(), Some("ECS"));
        assert_eq!(a.menu_path, ["Instance"]);
        assert!(a.actions.contains(&StepAction::SelectRegion));
        assert!(a.values.is_empty(), "a region choice is no value: {:?}", a.values);
        let a = plain("Open the CLB console and go to CLB > Certificates.");
        assert_eq!(a.opens_console.as_deref(), Some("CLB"));
        assert_eq!(a.menu_path, ["CLB", "Certificates"]);
        let a = plain("Go to the Instances page of the ALB console and click Create ALB.");
        assert_eq!(a.opens_console.as_deref(), Some("ALB"));
        assert_eq!(a.labels, ["Instances", "Create ALB"]);
    }

    #[test]
    fn a_button_named_after_a_console_is_a_label() {
        let a = analyse(&Inline {
            text: "Click Go to RAM console to go to the Cloud Resource Access Authorization page.".into(),
            bold: vec!["Go to RAM console".into(), "Cloud Resource Access Authorization".into()],
            code: vec![],
        });
        assert_eq!(a.labels, ["Go to RAM console", "Cloud Resource Access Authorization"]);
        // The console a step logs on to is not.
        assert!(plain("Log on to the ECS console.").labels.is_empty());
    }

    #[test]
    fn wizard_steps_are_containers() {
        let a = plain("In the Protocol & Listener step, configure the following parameters and click Next.");
        assert_eq!(
            a.container,
            Some(Container {
                kind: ContainerKind::Wizard,
                name: "Protocol & Listener".into()
            })
        );
        assert_eq!(a.labels, ["Protocol & Listener", "Next"]);
    }

    #[test]
    fn values_named_before_in_this_example() {
        let a = analyse(&Inline {
            text: "Select Listener Protocol: Select a listener protocol. TCP is selected in this example.".into(),
            bold: vec!["Select Listener Protocol".into()],
            code: vec![],
        });
        assert_eq!(
            a.values,
            [FieldValue {
                label: Some("Select Listener Protocol".into()),
                value: "TCP".into()
            }]
        );
    }

    #[test]
    fn region_choices_in_every_wording() {
        for t in [
            "Select the region where the CLB instance is deployed.",
            "In the top menu bar, select the region where the EIP is deployed.",
            "Select the target region.",
        ] {
            let a = plain(t);
            assert_eq!(a.actions, [StepAction::SelectRegion], "{t}");
            assert!(a.values.is_empty(), "{t}: {:?}", a.values);
        }
    }

    #[test]
    fn console_openings_in_real_wording() {
        let bold = |text: &str, bold: &[&str]| {
            analyse(&Inline {
                text: text.into(),
                bold: bold.iter().map(|b| b.to_string()).collect(),
                code: vec![],
            })
        };
        let a = bold(
            "On the Bucket page of the OSS console, click Create Bucket.",
            &["Bucket", "Create Bucket"],
        );
        assert_eq!(a.opens_console.as_deref(), Some("OSS"));
        assert_eq!(a.actions, [StepAction::OpenConsole, StepAction::Click]);
        assert_eq!(a.container.map(|c| c.name).as_deref(), Some("Bucket"));
        let a = bold(
            "Log in to the Alibaba Cloud DNS - Public Authoritative Resolution page and click Add Domain Name.",
            &["Alibaba Cloud DNS - Public Authoritative Resolution", "Add Domain Name"],
        );
        assert_eq!(a.opens_console.as_deref(), Some("Alibaba Cloud DNS"));
        assert_eq!(a.menu_path, ["Public Authoritative Resolution"]);
        assert_eq!(
            a.container.map(|c| c.name).as_deref(),
            Some("Public Authoritative Resolution")
        );
        assert!(
            a.labels
                .contains(&"Alibaba Cloud DNS - Public Authoritative Resolution".to_string())
        );
        let a =
            plain("Visit the RDS instance list, select a region at the top, and then click the target instance ID.");
        assert_eq!(a.opens_console.as_deref(), Some("RDS"));
        let a = bold(
            "Access RDS Instances, select a region at the top, and then click the ID of the target RDS instance.",
            &["RDS Instances"],
        );
        assert_eq!(a.opens_console.as_deref(), Some("RDS"));
        assert_eq!(a.menu_path, ["Instances"]);
        assert!(a.labels.is_empty(), "{:?}", a.labels);
        // "the console" names no product: the page's title does.
        let a = plain("Log on to the console and go to the Instances page.");
        assert!(a.opens_console.is_none() && a.opens_own_console);
        assert_eq!(a.actions[0], StepAction::OpenConsole);
        assert!(!plain("Log on to the ECS console.").opens_own_console);
        // A page of a console that is not opened by the step: no console.
        assert!(plain("On the Instances page, click Create.").opens_console.is_none());
    }

    fn bold(text: &str, bold: &[&str]) -> Analysis {
        analyse(&Inline {
            text: text.into(),
            bold: bold.iter().map(|b| b.to_string()).collect(),
            code: vec![],
        })
    }

    fn further(text: &str, bold: &[&str]) -> Analysis {
        analyse_further(&Inline {
            text: text.into(),
            bold: bold.iter().map(|b| b.to_string()).collect(),
            code: vec![],
        })
    }

    fn pairs(a: &Analysis) -> Vec<(Option<&str>, &str)> {
        a.values
            .iter()
            .map(|v| (v.label.as_deref(), v.value.as_str()))
            .collect()
    }

    #[test]
    fn select_a_menu_path_is_a_click_and_its_alternative_is_no_action() {
        let a = bold(
            "Select one or more objects, and then select Batch operation > Delete. You can also select More > Delete on the right of the object.",
            &["Batch operation", "Delete", "More", "Delete"],
        );
        assert_eq!(a.menu_path, ["Batch operation", "Delete"]);
        assert!(a.values.is_empty(), "{:?}", a.values);
        assert!(a.actions.contains(&StepAction::Click));
        // The alternative's labels are still named.
        assert!(a.labels.contains(&"More".to_string()));
    }

    #[test]
    fn an_icon_named_by_its_alt_text_starts_a_menu_path() {
        let a = bold(
            "Choose Log Storage > Logstores. On the Logstores tab, find the Logstore, and then choose Modify a Logstore > Delete.",
            &["Log Storage", "Logstores", "Modify a Logstore", "Delete"],
        );
        assert_eq!(a.menu_path, ["Modify a Logstore", "Delete"]);
        assert_eq!(a.labels, ["Log Storage", "Logstores", "Modify a Logstore", "Delete"]);
        // Without bold the image is gone; the `>` after the verb still says an icon opened the menu.
        let a = plain("Find the Logstore, and then choose > Delete.");
        assert_eq!(a.menu_path, ["⋯", "Delete"]);
    }

    #[test]
    fn values_in_real_wording() {
        let a = bold(
            "Select Product as Elastic Compute Service (ECS).",
            &["Product", "Elastic Compute Service (ECS)"],
        );
        assert_eq!(pairs(&a), [(Some("Product"), "Elastic Compute Service (ECS)")]);
        let a = bold(
            "Set Add Method to Import ECS Internal IP Address.",
            &["Add Method", "Import ECS Internal IP Address"],
        );
        assert_eq!(pairs(&a), [(Some("Add Method"), "Import ECS Internal IP Address")]);
        assert_eq!(a.actions, [StepAction::Select]);
        let a = bold(
            "For Metric, select Instance Dimension > (ECS) CPU Utilization.",
            &["Metric", "Instance Dimension", "(ECS) CPU Utilization"],
        );
        assert_eq!(
            pairs(&a),
            [(Some("Metric"), "Instance Dimension > (ECS) CPU Utilization")]
        );
        assert!(a.menu_path.is_empty(), "{:?}", a.menu_path);
        let a = plain("For Effect, select Allow or Deny.");
        assert_eq!(pairs(&a), [(Some("Effect"), "Allow")]);
        assert_eq!(a.labels, ["Effect", "Allow"]);
        let a = plain("For Service, select the target Alibaba Cloud service.");
        assert_eq!(a.labels, ["Service"]);
        let a = plain("For Metric, select Instance Dimension > (ECS) CPU Utilization.");
        assert_eq!(
            pairs(&a),
            [(Some("Metric"), "Instance Dimension > (ECS) CPU Utilization")]
        );
        assert!(a.menu_path.is_empty(), "{:?}", a.menu_path);
        let a = bold("For Metric Type, select Simple Metric.", &["Metric Type", "Simple Metric"]);
        assert_eq!(pairs(&a), [(Some("Metric Type"), "Simple Metric")]);
        let a = bold(
            "In the Instance Status section, turn on Automatic renewal.",
            &["Instance Status", "Automatic renewal"],
        );
        assert_eq!(pairs(&a), [(Some("Automatic renewal"), "on")]);
        assert_eq!(a.actions, [StepAction::Select]);
        let a = plain("In the Automatic renewal panel, turn on Automatic renewal, read the prompt, and select a duration.");
        assert_eq!(pairs(&a), [(Some("Automatic renewal"), "on")]);
        let a = plain("In the Instance Status section, turn on Automatic renewal.");
        assert_eq!(pairs(&a), [(Some("Automatic renewal"), "on")]);
        let a = plain("Turn on Deletion Protection for the instance.");
        assert_eq!(pairs(&a), [(Some("Deletion Protection"), "on")]);
        let a = bold(
            "Select Current Alibaba Cloud Account for Select Trusted Alibaba Cloud Account field and click OK.",
            &["Current Alibaba Cloud Account", "OK"],
        );
        assert_eq!(
            pairs(&a),
            [(
                Some("Select Trusted Alibaba Cloud Account"),
                "Current Alibaba Cloud Account"
            )]
        );
        let a = plain("In the Add Statement panel, select a service from the Select Product/Service drop-down list.");
        assert!(a.values.is_empty(), "{:?}", a.values);
        assert!(a.labels.contains(&"Select Product/Service".to_string()));
        let a = analyse(&Inline {
            text: "Prefix: If you select Match by Prefix for the Policy, enter the prefix. For example, enter img/ in this field."
                .into(),
            bold: vec!["Prefix".into(), "Match by Prefix".into(), "Policy".into()],
            code: vec!["img/".into()],
        });
        assert_eq!(
            pairs(&a),
            [(Some("Policy"), "Match by Prefix"), (Some("Prefix"), "img/")]
        );
    }

    #[test]
    fn containers_in_real_wording() {
        let name = |a: Analysis| a.container.map(|c| (c.kind, c.name));
        assert_eq!(
            name(bold(
                "In the Set Alert Contact panel, enter the name.",
                &["Set Alert Contact"]
            )),
            Some((ContainerKind::Panel, "Set Alert Contact".into()))
        );
        assert_eq!(
            name(plain("In the Set Alert Contact panel,enter the name.")),
            Some((ContainerKind::Panel, "Set Alert Contact".into()))
        );
        assert_eq!(
            name(bold(
                "On the Quickly Create Trail or Create Trail page, configure the following parameters.",
                &["Quickly Create Trail", "Create Trail"],
            )),
            Some((ContainerKind::Page, "Quickly Create Trail".into()))
        );
        let a = analyse_further(&Inline {
            text: "You can view the upload progress of objects on the Upload Tasks tab.".into(),
            ..Inline::default()
        });
        assert!(a.container.is_none() && a.actions.is_empty());
        assert_eq!(a.labels, ["Upload Tasks"]);
    }

    #[test]
    fn filling_in_parameters_is_configure() {
        for t in [
            "Specify the Policy Name and Note parameters.",
            "In the Create Logstore panel, set the required parameters.",
            "On the Create Alert Rule page, set relevant parameters of the alert rule.",
        ] {
            assert_eq!(plain(t).actions, [StepAction::Configure], "{t}");
        }
        assert_eq!(plain("Specify a new valid password.").actions, [StepAction::Enter]);
        // A parameter "is set to" its default: a description.
        assert!(
            plain("Make sure that the Language parameter is set to the default value.")
                .actions
                .is_empty()
        );
    }

    #[test]
    fn results_and_options_ask_for_nothing() {
        let a = further(
            "After the key is disabled, the status of the key changes from Enabled to Disabled. You can also click Enable to enable the key again.",
            &["Enabled", "Disabled", "Enable"],
        );
        assert!(a.actions.is_empty(), "{:?}", a.actions);
        assert_eq!(a.labels, ["Enabled", "Disabled", "Enable"]);
        let a = further(
            "You can choose More > Cancel Key Deletion in the Actions column to cancel the task.",
            &["More", "Cancel Key Deletion", "Actions"],
        );
        assert!(a.menu_path.is_empty() && a.actions.is_empty() && a.column.is_none());
        // The sentence that goes on from an option is part of it.
        let a = bold(
            "Choose Redundancy for Fault Tolerance > Versioning. You can also click Buckets. Then, click Configure in the Versioning column corresponding to the target bucket.",
            &[
                "Redundancy for Fault Tolerance",
                "Versioning",
                "Buckets",
                "Configure",
                "Versioning",
            ],
        );
        assert_eq!(a.menu_path, ["Redundancy for Fault Tolerance", "Versioning"]);
        assert!(a.column.is_none(), "{:?}", a.column);
        // A bold word naming a row of the list is no control.
        let a = bold(
            "Click Modify to the right of the default group, and in the dialog box that appears, add IP addresses.",
            &["Modify", "default"],
        );
        assert_eq!(a.mentions, ["default"]);
        // A choice inside the step: the sentence after it goes on with the step.
        let a = bold(
            "Enter the primary domain name and select an instance. You can either use a free instance or purchase an instance. Then, click OK.",
            &["OK"],
        );
        assert!(a.mentions.is_empty(), "{:?}", a.mentions);
        // An option for a case the procedure does not meet.
        let a = bold(
            "Enter the name of the RAM role and click Delete Role. For a RAM role that fails to be deleted, you can click Role Deletion in the upper-right corner of the RAM role list to view the details.",
            &["Delete Role", "Role Deletion"],
        );
        assert_eq!(a.mentions, ["Role Deletion"]);
        // A step whose only sentence is an option is still the step's instruction.
        let a = bold("You can choose to ship events to Log Service.", &["Log Service"]);
        assert_eq!(a.actions, [StepAction::Click]);
    }

    #[test]
    fn a_field_kept_at_a_value_is_set_to_it() {
        let a = bold(
            "In the Stop Instance dialog box, keep Stopped By set to Stop and click Confirm.",
            &["Stop Instance", "Stopped By", "Stop", "Confirm"],
        );
        assert_eq!(pairs(&a), [(Some("Stopped By"), "Stop")]);
        assert!(a.actions.contains(&StepAction::Confirm), "{:?}", a.actions);
        let a = bold(
            "In the Restart Instance dialog box, leave Force Restart unselected and click Confirm.",
            &["Restart Instance", "Force Restart", "Confirm"],
        );
        assert_eq!(pairs(&a), [(Some("Force Restart"), "cleared")]);
    }

    #[test]
    fn example_values_in_step_text() {
        let a = plain("Listening Port: Specify the frontend port. In this example, the port number is set to 80.");
        assert_eq!(pairs(&a), [(Some("Listening Port"), "80")]);
    }

    #[test]
    fn lowercase_containers_of_the_house_style() {
        let a = plain("Click the instance ID. On the instance details page, click the Listener tab.");
        assert_eq!(
            a.container.map(|c| (c.kind, c.name)),
            Some((ContainerKind::Page, "instance details".into()))
        );
        let a = bold(
            "In the upper-right corner of the page, click All Actions. In the pane that appears, search for and click Restart.",
            &["All Actions", "Restart"],
        );
        assert_eq!(
            a.container.map(|c| (c.kind, c.name)),
            Some((ContainerKind::Panel, "All Actions".into()))
        );
        // Its own details page names no page, and a panel nothing opened names none.
        assert!(
            plain("Click the instance ID to open its details page.")
                .container
                .is_none()
        );
        assert!(
            plain("In the panel that appears, enter a new password.")
                .container
                .is_none()
        );
    }
}
