//! Blocks → [`Procedure`]: the page's sections, its steps, tables and callouts.

use aca_core::{Callout, CalloutKind, Parameter, ParameterTable, Procedure, Step};

use crate::DocError;
use crate::blocks::{Block, Inline, Item};
use crate::sentence::analyse;

#[derive(Debug, Clone, PartialEq)]
enum Section {
    Intro,
    Prerequisites,
    Background,
    Precautions,
    Procedure,
    Steps(String),
    Result,
    Next,
    RelatedApi,
    Other,
}

fn classify(heading: &str) -> Section {
    let h = heading.trim().trim_end_matches(':').to_lowercase();
    if h.starts_with("step ") && h[5..].trim_start().starts_with(|c: char| c.is_ascii_digit()) {
        return Section::Steps(heading.trim().to_string());
    }
    match h.as_str() {
        "prerequisites" | "prerequisite" | "before you begin" => Section::Prerequisites,
        "background information" | "background" | "context" => Section::Background,
        "precautions" | "limits" | "limitations" | "considerations" | "usage notes" | "usage limits" => {
            Section::Precautions
        }
        "procedure" | "procedures" | "steps" => Section::Procedure,
        "result" | "results" | "expected result" | "verify the result" => Section::Result,
        "what to do next" | "next steps" | "what's next" => Section::Next,
        "related api operations" | "related operations" | "api reference" | "related api" => Section::RelatedApi,
        _ => Section::Other,
    }
}

/// "Note The VPC …", "**Note**: …", "Warning: …".
fn callout(p: &Inline) -> Option<Callout> {
    let kinds = [
        ("Note", CalloutKind::Note),
        ("Important", CalloutKind::Important),
        ("Warning", CalloutKind::Warning),
        ("Notice", CalloutKind::Notice),
    ];
    for (word, kind) in kinds {
        let Some(rest) = p.text.strip_prefix(word) else {
            continue;
        };
        let bold_lead = p.bold.first().is_some_and(|b| b == word);
        let rest_trim = rest.trim_start_matches([':', ' ']);
        let marked =
            rest.starts_with(':') || bold_lead || rest.starts_with(' ') && rest_trim.starts_with(char::is_uppercase);
        if marked && !rest_trim.is_empty() {
            return Some(Callout {
                kind,
                text: rest_trim.trim().to_string(),
            });
        }
        if marked && rest_trim.is_empty() {
            // The label stands alone; its text follows in the next block.
            return Some(Callout {
                kind,
                text: String::new(),
            });
        }
    }
    None
}

fn quote_callouts(blocks: &[Block], notes: &mut Vec<Callout>) {
    let mut pending: Option<Callout> = None;
    for b in blocks {
        match b {
            Block::Para(p) => {
                if let Some(c) = callout(p) {
                    if let Some(done) = pending.take() {
                        notes.push(done);
                    }
                    pending = Some(c);
                } else if let Some(c) = pending.as_mut() {
                    if !c.text.is_empty() {
                        c.text.push(' ');
                    }
                    c.text.push_str(&p.text);
                }
            }
            Block::List { items, .. } => {
                if let Some(c) = pending.as_mut() {
                    for it in items {
                        c.text.push_str(if c.text.is_empty() { "" } else { " " });
                        c.text.push_str(&it.inline.text);
                    }
                }
            }
            Block::Quote(inner) => quote_callouts(inner, notes),
            _ => {}
        }
    }
    if let Some(c) = pending {
        notes.push(c);
    }
}

fn parameter_table(header: &[String], rows: &[Vec<Inline>], step: Option<String>) -> Option<ParameterTable> {
    // Scraped tables often carry their header as a plain first row.
    let is_header = |h: &[String]| {
        let h: Vec<String> = h.iter().map(|c| c.trim().to_lowercase()).collect();
        h.iter().any(|c| NAME_COLUMNS.contains(&c.as_str())) && h.iter().any(|c| c == "description")
    };
    if !is_header(header) {
        let first: Vec<String> = rows.first()?.iter().map(|c| c.text.clone()).collect();
        return if is_header(&first) {
            parameter_table(&first, &rows[1..], step)
        } else {
            None
        };
    }
    let h: Vec<String> = header.iter().map(|h| h.trim().to_lowercase()).collect();
    let name_col = h.iter().position(|c| NAME_COLUMNS.contains(&c.as_str()))?;
    let desc_col = h.iter().position(|c| c == "description")?;
    let example_col = h.iter().position(|c| c.starts_with("example"));
    let default_col = h.iter().position(|c| c == "default" || c == "default value");
    let required_col = h.iter().position(|c| c == "required");
    let rows = rows
        .iter()
        .filter_map(|r| {
            let cell = |i: usize| r.get(i).map(|c| c.text.trim().to_string()).filter(|s| !s.is_empty());
            let name = cell(name_col)?;
            let desc_inline = r.get(desc_col).cloned().unwrap_or_default();
            let description = desc_inline.text.clone();
            let example = example_col.and_then(cell).or_else(|| example_in(&desc_inline));
            let default = default_col.and_then(cell).or_else(|| default_in(&description));
            let required = required_col
                .and_then(cell)
                .and_then(|v| yes_no(&v))
                .or_else(|| required_in(&description));
            Some(Parameter {
                name,
                description,
                example,
                default,
                required,
            })
        })
        .collect();
    Some(ParameterTable { step, rows })
}

fn yes_no(v: &str) -> Option<bool> {
    match v.to_lowercase().as_str() {
        "yes" | "required" | "true" => Some(true),
        "no" | "optional" | "false" => Some(false),
        _ => None,
    }
}

fn sentence_after(text: &str, lead: &str) -> Option<String> {
    let low = text.to_lowercase();
    let p = low.find(&lead.to_lowercase())? + lead.len();
    let rest = &text[p..];
    let end = rest.find(". ").unwrap_or(rest.len());
    Some(rest[..end].trim().trim_end_matches('.').trim().to_string()).filter(|s| !s.is_empty())
}

/// "In this example, TCP is selected." → `TCP`; "In this example, enter web-vpc." → `web-vpc`.
fn example_in(desc: &Inline) -> Option<String> {
    let s = sentence_after(&desc.text, "In this example, ")?;
    if let Some(code) = desc.code.iter().find(|c| s.contains(c.as_str())) {
        return Some(code.clone());
    }
    for verb in ["select ", "enter ", "use ", "choose ", "set "] {
        if let Some(v) = s.strip_prefix(verb) {
            return Some(unquote(v));
        }
    }
    for tail in [
        " is selected",
        " are selected",
        " is used",
        " is entered",
        " is specified",
        " is set",
        " are used",
        " is configured",
    ] {
        if let Some(p) = s.find(tail) {
            return Some(unquote(s[..p].trim_start_matches("the ")));
        }
    }
    None
}

fn unquote(s: &str) -> String {
    s.trim().trim_matches(['"', '“', '”', '\'', '`']).to_string()
}

fn default_in(desc: &str) -> Option<String> {
    sentence_after(desc, "Default value: ")
        .or_else(|| sentence_after(desc, "Default: "))
        .or_else(|| sentence_after(desc, "The default value is "))
        .map(|s| unquote(&s))
}

fn required_in(desc: &str) -> Option<bool> {
    let low = desc.to_lowercase();
    if low.contains("this parameter is required") || low.starts_with("required") || low.contains("(required)") {
        Some(true)
    } else if low.contains("this parameter is optional") || low.starts_with("optional") || low.contains("(optional)") {
        Some(false)
    } else {
        None
    }
}

const NAME_COLUMNS: &[&str] = &["parameter", "item", "setting", "field", "configuration item"];

struct Builder {
    proc: Procedure,
}

impl Builder {
    /// One list item → one step; nested ordered lists are sub-steps, nested bullet lists are
    /// clauses of the step itself.
    fn step(&mut self, item: &Item, number: String, section: &Option<String>) -> Step {
        let mut inl = item.inline.clone();
        let mut substeps = Vec::new();
        let mut tables = Vec::new();
        for b in &item.blocks {
            match b {
                Block::Para(p) => {
                    if let Some(c) = callout(p) {
                        self.proc.notes.push(c);
                    } else {
                        append(&mut inl, p);
                    }
                }
                Block::Quote(q) => quote_callouts(q, &mut self.proc.notes),
                Block::List {
                    ordered: true,
                    start,
                    items,
                } => {
                    for (i, it) in items.iter().enumerate() {
                        let n = format!("{number}.{}", *start as usize + i);
                        substeps.push(self.step(it, n, section));
                    }
                }
                Block::List {
                    ordered: false, items, ..
                } => {
                    for it in items {
                        append(&mut inl, &it.inline);
                        for inner in &it.blocks {
                            if let Block::Para(p) = inner {
                                append(&mut inl, p);
                            }
                        }
                    }
                }
                Block::Table { header, rows } => tables.push((header.clone(), rows.clone())),
                Block::Heading { .. } => {}
            }
        }
        for (h, r) in tables {
            if let Some(t) = parameter_table(&h, &r, Some(number.clone())) {
                self.proc.parameters.push(t);
            }
        }
        // Each clause (the item's sentence, then every bullet) is read on its own so that a
        // bullet's "Name: enter web-vpc" does not borrow a label from the sentence before it.
        let mut step = Step {
            number,
            text: inl.text.clone(),
            section: section.clone(),
            substeps,
            ..Step::default()
        };
        for clause in clauses(&item.inline, &item.blocks) {
            let a = analyse(&clause);
            for l in a.labels {
                if !step.labels.contains(&l) {
                    step.labels.push(l);
                }
            }
            if step.menu_path.is_empty() {
                step.menu_path = a.menu_path;
            }
            if step.container.is_none() {
                step.container = a.container;
            }
            if step.column.is_none() {
                step.column = a.column;
            }
            if step.opens_console.is_none() {
                step.opens_console = a.opens_console;
            }
            step.values.extend(a.values);
            for act in a.actions {
                if !step.actions.contains(&act) {
                    step.actions.push(act);
                }
            }
        }
        step
    }
}

fn clauses(first: &Inline, blocks: &[Block]) -> Vec<Inline> {
    let mut out = vec![first.clone()];
    for b in blocks {
        match b {
            Block::Para(p) if callout(p).is_none() => out.push(p.clone()),
            Block::List {
                ordered: false, items, ..
            } => {
                for it in items {
                    let mut i = it.inline.clone();
                    for inner in &it.blocks {
                        if let Block::Para(p) = inner {
                            append(&mut i, p);
                        }
                    }
                    out.push(i);
                }
            }
            _ => {}
        }
    }
    out
}

fn append(to: &mut Inline, p: &Inline) {
    if !to.text.is_empty() {
        to.text.push(' ');
    }
    to.text.push_str(&p.text);
    to.bold.extend(p.bold.iter().cloned());
    to.code.extend(p.code.iter().cloned());
}

fn text_of(b: &Block) -> Vec<String> {
    match b {
        Block::Para(p) => vec![p.text.clone()],
        Block::List { items, .. } => items.iter().map(|i| i.inline.text.clone()).collect(),
        Block::Quote(q) => q.iter().flat_map(text_of).collect(),
        _ => vec![],
    }
}

/// "Last Updated: Mar 14, 2026" → `2026-03-14`.
fn last_updated(text: &str) -> Option<Result<String, DocError>> {
    let p = text.find("Last Updated")?;
    let rest = text[p + "Last Updated".len()..].trim_start_matches([':', ' ']);
    let words: Vec<&str> = rest.split_whitespace().take(3).collect();
    let bad = || DocError::BadDate(text[p..].trim().to_string());
    let parsed = (|| {
        let months = [
            "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
        ];
        let first = *words.first()?;
        let m = months.iter().position(|m| first.starts_with(m))? + 1;
        let d: u32 = words.get(1)?.trim_end_matches(',').parse().ok()?;
        let y: u32 = words.get(2)?.trim_end_matches('.').parse().ok()?;
        ((1..=31).contains(&d) && (1990..=2100).contains(&y)).then(|| format!("{y:04}-{m:02}-{d:02}"))
    })();
    Some(parsed.ok_or_else(bad))
}

pub(crate) fn procedure(blocks: Vec<Block>) -> Result<Procedure, DocError> {
    let has_text = blocks.iter().any(|b| match b {
        Block::Heading { text, .. } => !text.is_empty(),
        _ => !text_of(b).iter().all(|t| t.is_empty()) || matches!(b, Block::Table { .. }),
    });
    if !has_text {
        return Err(DocError::EmptyPage);
    }
    let mut b = Builder {
        proc: Procedure::default(),
    };
    let mut section = Section::Intro;
    let mut saw_procedure = None::<String>;
    let mut loose_lists: Vec<Item> = Vec::new();
    let mut step_counter_by_section: Option<String> = None;
    let mut next_number = 1usize;
    let mut title_seen = false;
    let mut background: Vec<String> = Vec::new();
    let mut result: Vec<String> = Vec::new();

    for block in &blocks {
        if let Block::Heading { level, text } = block {
            if *level == 1 && !title_seen {
                title_seen = true;
                b.proc.title = text.clone();
                match text.split_once(':') {
                    Some((p, t)) if !p.trim().is_empty() && !t.trim().is_empty() => {
                        b.proc.product = Some(p.trim().to_string());
                        b.proc.task = t.trim().to_string();
                    }
                    _ => b.proc.task = text.trim().to_string(),
                }
                continue;
            }
            let s = classify(text);
            // "Step N: …" headings split the Procedure section; other sub-headings inside it do not end it.
            if s == Section::Other && matches!(section, Section::Procedure | Section::Steps(_)) && *level > 2 {
                continue;
            }
            match &s {
                Section::Procedure => saw_procedure = Some("Procedure".into()),
                Section::Steps(name) => {
                    saw_procedure.get_or_insert_with(|| name.clone());
                }
                _ => {}
            }
            section = s;
            continue;
        }
        if let Block::Para(p) = block
            && let Some(date) = last_updated(&p.text)
            && b.proc.last_updated.is_none()
        {
            b.proc.last_updated = Some(date?);
            continue;
        }
        if let Block::Para(p) = block
            && let Some(c) = callout(p)
        {
            b.proc.notes.push(c);
            continue;
        }
        if let Block::Quote(q) = block {
            let before = b.proc.notes.len();
            quote_callouts(q, &mut b.proc.notes);
            if b.proc.notes.len() > before {
                continue;
            }
        }
        match (&section, block) {
            (
                Section::Procedure | Section::Steps(_),
                Block::List {
                    ordered: true,
                    start,
                    items,
                },
            ) => {
                let sec = match &section {
                    Section::Steps(n) => Some(n.clone()),
                    _ => None,
                };
                if step_counter_by_section != sec {
                    step_counter_by_section = sec.clone();
                    next_number = 1;
                }
                let first = if *start > 1 { *start as usize } else { next_number };
                for (i, it) in items.iter().enumerate() {
                    let n = first + i;
                    let number = match &sec {
                        Some(name) => format!("{} › {n}", step_label(name)),
                        None => n.to_string(),
                    };
                    let step = b.step(it, number, &sec);
                    b.proc.steps.push(step);
                    next_number = n + 1;
                }
            }
            (_, Block::Table { header, rows }) => {
                let step = match section {
                    Section::Procedure | Section::Steps(_) => b.proc.steps.last().map(|s| s.number.clone()),
                    _ => None,
                };
                if matches!(section, Section::RelatedApi) {
                    b.proc
                        .related_api
                        .extend(rows.iter().filter_map(|r| r.first()).filter_map(api_name));
                } else if let Some(t) = parameter_table(header, rows, step) {
                    b.proc.parameters.push(t);
                }
            }
            (Section::Prerequisites, _) => b.proc.prerequisites.extend(text_of(block)),
            (Section::Precautions, _) => b.proc.precautions.extend(text_of(block)),
            (Section::Background, _) => background.extend(text_of(block)),
            (Section::Result, _) => result.extend(text_of(block)),
            (Section::Next, _) => b.proc.next_steps.extend(text_of(block)),
            (Section::RelatedApi, Block::List { items, .. }) => {
                b.proc
                    .related_api
                    .extend(items.iter().filter_map(|i| api_name(&i.inline)));
            }
            (
                Section::Intro | Section::Other,
                Block::List {
                    ordered: true, items, ..
                },
            ) => loose_lists.extend(items.iter().cloned()),
            _ => {}
        }
    }
    b.proc.background = Some(background.join("\n\n")).filter(|s| !s.is_empty());
    b.proc.expected_result = Some(result.join("\n\n")).filter(|s| !s.is_empty());

    if !title_seen {
        return Err(DocError::NotAProcedurePage("the page has no title heading".into()));
    }
    if b.proc.steps.is_empty() {
        if let Some(name) = saw_procedure {
            return Err(DocError::EmptyProcedure(name));
        }
        if loose_lists.is_empty() {
            return Err(DocError::NoSteps);
        }
        for (i, it) in loose_lists.iter().enumerate() {
            let step = b.step(it, (i + 1).to_string(), &None);
            b.proc.steps.push(step);
        }
    }
    Ok(b.proc)
}

/// "Step 2: Create a vSwitch" → "Step 2".
fn step_label(section: &str) -> String {
    section.split(':').next().unwrap_or(section).trim().to_string()
}

fn api_name(i: &Inline) -> Option<String> {
    if let Some(c) = i.code.first() {
        return Some(c.clone());
    }
    let w = i.text.split(|c: char| !c.is_alphanumeric()).next()?;
    let camel =
        w.chars().next().is_some_and(|c| c.is_ascii_uppercase()) && w.chars().skip(1).any(|c| c.is_ascii_uppercase());
    camel.then(|| w.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inline(text: &str) -> Inline {
        Inline {
            text: text.into(),
            ..Inline::default()
        }
    }

    #[test]
    fn callouts_need_their_label_marked() {
        assert_eq!(
            callout(&inline("Note: Keep a backup.")).unwrap().kind,
            CalloutKind::Note
        );
        assert_eq!(
            callout(&inline("Warning The data is lost.")).unwrap().text,
            "The data is lost."
        );
        // An ordinary sentence that starts with the word is not a callout.
        assert!(callout(&inline("Notice that the name is shown.")).is_none());
        assert!(callout(&inline("Notes are kept for 90 days.")).is_none());
    }

    #[test]
    fn examples_defaults_and_requirement_from_descriptions() {
        assert_eq!(
            example_in(&inline("The protocol. In this example, TCP is selected.")).as_deref(),
            Some("TCP")
        );
        assert_eq!(
            example_in(&inline("In this example, enter web-01.")).as_deref(),
            Some("web-01")
        );
        assert_eq!(
            default_in("Valid values: 1 to 100. Default value: 10."),
            Some("10".into())
        );
        assert_eq!(default_in("The default value is ESSD."), Some("ESSD".into()));
        assert_eq!(required_in("Optional. The description."), Some(false));
        assert_eq!(required_in("The name."), None);
    }

    #[test]
    fn last_updated_reads_the_house_format() {
        assert_eq!(
            last_updated("Last Updated:Aug 25, 2023").unwrap().unwrap(),
            "2023-08-25"
        );
        assert_eq!(
            last_updated("Last Updated: Mar 1, 2024").unwrap().unwrap(),
            "2024-03-01"
        );
        assert!(last_updated("Last Updated: soon").unwrap().is_err());
        assert!(last_updated("Updated yesterday").is_none());
    }

    #[test]
    fn sections_by_heading() {
        assert_eq!(
            classify("Step 3: Configure a listener"),
            Section::Steps("Step 3: Configure a listener".into())
        );
        assert_eq!(classify("Background information"), Section::Background);
        assert_eq!(classify("Usage notes"), Section::Precautions);
        assert_eq!(classify("What to do next"), Section::Next);
        assert_eq!(classify("Stepping stones"), Section::Other);
    }
}
