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
    pub container: Option<Container>,
    pub column: Option<String>,
    pub values: Vec<FieldValue>,
    pub actions: Vec<StepAction>,
    pub opens_console: Option<String>,
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

/// An icon that a scraped copy turned into a word: `icon`, `icon1`, `icon-more`.
fn stray_icon(t: &str) -> bool {
    let t = t.to_ascii_lowercase();
    t.strip_prefix("icon")
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
    // "Log" only as in "Log On": "Log Storage" is a label.
    while words.first().is_some_and(|w| {
        [
            "In", "On", "Click", "Choose", "Select", "From", "At", "The", "Set", "Enter", "Go",
        ]
        .contains(w)
            || CONNECTORS.contains(w)
            || (*w == "Log" && words.get(1).is_some_and(|n| n.eq_ignore_ascii_case("on")))
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

/// A value token: a code span, a quoted string, or a word with digits or punctuation in it.
fn value_at(inl: &Inline, toks: &[Tok], i: usize) -> Option<String> {
    let t = toks.get(i)?;
    if let Some(c) = inl.code.iter().find(|c| inl.text[t.start..].starts_with(c.as_str())) {
        return Some(c.clone());
    }
    let (w, _) = strip(t.s);
    let w = w.trim_matches(['"', '“', '”', '\'']);
    let valueish = w
        .chars()
        .any(|c| c.is_ascii_digit() || matches!(c, '-' | '.' | '/' | '_' | '@'));
    if valueish && !w.is_empty() {
        Some(w.to_string())
    } else {
        None
    }
}

pub(crate) fn analyse(inl: &Inline) -> Analysis {
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
    for lead in ["log on to the ", "log on to ", "go to the ", "go to "] {
        if let Some(p) = find_word(&low, lead.trim_end(), 0) {
            if let Some(c) = low[p..].find(" console") {
                let end = p + c;
                let ti = toks.iter().rposition(|t| t.start < end);
                if let Some(ti) = ti
                    && let Some((name, _)) = run_backward(&toks, ti)
                {
                    a.opens_console = Some(name);
                    // "Go to ECS console - Snapshots."
                    let after = &text[end + " console".len()..];
                    if let Some(rest) = after.trim_start().strip_prefix(['-', '–', '—']) {
                        let rt = tokens(rest);
                        if let Some((page, _, _)) = run_forward(&rt, 0) {
                            a.menu_path = vec![page];
                        }
                    }
                }
            }
            if a.opens_console.is_some() {
                a.actions.push(StepAction::OpenConsole);
            }
            break;
        }
    }

    // Containers and column.
    // `None`: a column, not a container.
    let kinds: [(&str, Option<ContainerKind>); 8] = [
        (" dialog box", Some(ContainerKind::Dialog)),
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
            let Some((name, pos)) = run_backward(&toks, ti) else {
                continue;
            };
            if name.len() + pos + 1 != p && !text[pos..p].trim_end().ends_with(&name) {
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
    for kw in [
        "section",
        "field",
        "drop-down list",
        "text box",
        "check box",
        "button",
        "step",
    ] {
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
    found.sort_by_key(|f| f.0);
    for (_, kind, name) in found {
        match kind {
            None => {
                a.column.get_or_insert(name);
            }
            Some(kind) if a.container.is_none() => a.container = Some(Container { kind, name }),
            Some(_) => {}
        }
    }

    // Menu paths.
    if let Some(first) = toks.iter().position(|t| t.s == ">" || t.s == "›") {
        let mut path = Vec::new();
        if first > 0 && stray_icon(toks[first - 1].s) {
            // Scraped copies write the row's "⋯" icon as a stray word such as "icon1".
            path.push("⋯".to_string());
        } else if first > 0
            && let Some((seg, pos)) = run_backward(&toks, first - 1)
        {
            add_phrase(&mut labels, pos, seg.clone());
            path.push(seg);
        }
        let mut j = first;
        while j < toks.len() && (toks[j].s == ">" || toks[j].s == "›") {
            let Some((seg, pos, _)) = run_forward(&toks, j + 1) else {
                break;
            };
            add_phrase(&mut labels, pos, seg.clone());
            let n = seg.split(' ').count();
            path.push(seg);
            j += 1 + n;
            if toks.get(j - 1).is_some_and(|t| strip(t.s).1) {
                break;
            }
        }
        a.menu_path = path;
    }

    // Verbs.
    let mut vals: Vec<(usize, FieldValue)> = Vec::new();
    let mut acts: Vec<(usize, StepAction)> = Vec::new();
    if let Some(p) = low.find("navigation pane") {
        acts.push((p, StepAction::Navigate));
    }
    if let Some(p) = low
        .find("top navigation bar")
        .or_else(|| low.find("select a region"))
        .or_else(|| low.find("select the region"))
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
    if let Some(p) = find_word(&low, "configure", 0) {
        acts.push((p, StepAction::Configure));
    }
    let navigating = low.contains("navigation pane");
    for verb in ["click", "choose"] {
        let mut at = 0;
        while let Some(p) = find_word(&low, verb, at) {
            at = p + verb.len();
            let Some(ti) = tok_at(&toks, p + verb.len() + 1) else {
                continue;
            };
            let label = label_at(ti);
            if let Some((l, pos, _)) = &label {
                add_phrase(&mut labels, *pos, l.clone());
                if navigating && a.menu_path.is_empty() && !ICONS.contains(&l.as_str()) {
                    a.menu_path = vec![l.clone()];
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
        let (label, value) = if let Some(k) = run.find(" to ") {
            let v = run[k + 4..].split(" and ").next().unwrap_or("").to_string();
            (run[..k].to_string(), Some(v).filter(|v| !v.is_empty()))
        } else {
            if !low[end..].starts_with(" to ") {
                continue;
            }
            let Some(vi) = tok_at(&toks, end + 4) else { continue };
            let v = value_at(inl, &toks, vi)
                .or_else(|| label_at(vi).map(|r| r.0.split(" and ").next().unwrap_or("").to_string()));
            (run, v)
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
            acts.push((p, StepAction::Enter));
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
        if let Some(q) = FIELD_KWS
            .iter()
            .filter_map(|k| find_word(after, k.trim_start(), 0))
            .min()
        {
            return name_before(p + q);
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
            if verb == "select"
                && (low[p..].starts_with("select the region") || low[p..].starts_with("select a region"))
            {
                continue;
            }
            let Some(vi) = tok_at(&toks, p + verb.len() + 1) else {
                continue;
            };
            let value = if verb == "select" {
                value_at(inl, &toks, vi).or_else(|| label_at(vi).map(|r| r.0))
            } else {
                value_at(inl, &toks, vi)
            };
            acts.push((
                p,
                if verb == "select" {
                    StepAction::Select
                } else {
                    StepAction::Enter
                },
            ));
            if let Some(value) = value {
                vals.push((
                    p,
                    FieldValue {
                        label: field_label(p),
                        value,
                    },
                ));
            }
        }
    }
    // "In this example, web-vpc is used."
    if let Some(p) = low.find("in this example, ") {
        let s = p + "in this example, ".len();
        if let Some(vi) = tok_at(&toks, s) {
            let v = value_at(inl, &toks, vi).or_else(|| run_forward(&toks, vi).map(|r| r.0));
            if let Some(v) = v
                && !vals.iter().any(|x| x.1.value == v)
            {
                // A bullet that opens with its label: "Name: Enter a name. In this example, …".
                let lead = text.find(':').and_then(|q| {
                    let ti = toks.iter().rposition(|t| t.start < q)?;
                    run_backward(&toks, ti).filter(|r| r.1 == 0).map(|r| r.0)
                });
                vals.push((
                    p,
                    FieldValue {
                        label: field_label(p).or(lead),
                        value: v,
                    },
                ));
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
    labels.sort_by_key(|l| l.0);
    for (_, l) in labels {
        if !a.labels.contains(&l) && !ICONS.contains(&l.as_str()) && !l.ends_with(" console") {
            a.labels.push(l);
        }
    }
    a
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
}
