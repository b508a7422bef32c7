//! Blocks → [`Procedure`]: the page's sections, its steps, tables and callouts.

use aca_core::{Callout, CalloutKind, Parameter, ParameterTable, Procedure, Step};

use crate::DocError;
use crate::blocks::{Block, Inline, Item};
use crate::sentence::{analyse, analyse_further};

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
    let numbered = |word: &str| {
        h.strip_prefix(word)
            .is_some_and(|rest| rest.trim_start().starts_with(|c: char| c.is_ascii_digit()))
    };
    // "Step 2: Create a vSwitch", "Method 1: Reset the password in the ECS console".
    if numbered("step ") || numbered("method ") {
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
        h.iter().any(|c| NAME_COLUMNS.contains(&c.as_str()))
            && h.iter().any(|c| c == "description" || c.starts_with("example"))
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
    // "Parameter | Example" tables put the instruction in the Example column.
    let desc_col = h
        .iter()
        .position(|c| c == "description")
        .or_else(|| h.iter().position(|c| c.starts_with("example")))?;
    let example_col = h
        .iter()
        .position(|c| c.starts_with("example"))
        .filter(|c| *c != desc_col);
    let option_col = h
        .iter()
        .position(|c| c == "option" || c == "value" || c == "valid value");
    let default_col = h.iter().position(|c| c == "default" || c == "default value");
    let required_col = h.iter().position(|c| c == "required");
    let mut out: Vec<Parameter> = Vec::new();
    for r in rows {
        let cell = |i: usize| r.get(i).map(|c| c.text.trim().to_string()).filter(|s| !s.is_empty());
        let mut desc_inline = r.get(desc_col).cloned().unwrap_or_default();
        // "Parameter | Option | Description": each option is a clause of its parameter's text.
        if let Some(opt) = option_col.and_then(cell) {
            desc_inline.text = format!("{opt}: {}", desc_inline.text);
        }
        let Some(name) = cell(name_col) else {
            // A blank name continues the row above (a cell that spans rows in the page).
            if let Some(last) = out.last_mut()
                && !desc_inline.text.trim().is_empty()
            {
                last.description.push(' ');
                last.description.push_str(desc_inline.text.trim());
            }
            continue;
        };
        let description = desc_inline.text.clone();
        let example = example_col.and_then(cell).or_else(|| example_in(&desc_inline));
        let default = default_col.and_then(cell).or_else(|| default_in(&description));
        let required = required_col
            .and_then(cell)
            .and_then(|v| yes_no(&v))
            .or_else(|| required_in(&description));
        out.push(Parameter {
            name,
            description,
            example,
            default,
            required,
        });
    }
    Some(ParameterTable { step, rows: out })
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

/// "In this example, TCP is selected." → `TCP`; "In this example, enter web-vpc." → `web-vpc`;
/// "HTTP is selected in this example." → `HTTP`; "In this topic, select HTTP." → `HTTP`;
/// "In this example, the port number is set to 80." → `80`.
fn example_in(desc: &Inline) -> Option<String> {
    if let Some(v) = only_a_choice(desc) {
        return Some(v);
    }
    if let Some(v) = example_before(&desc.text) {
        return Some(v);
    }
    let s =
        sentence_after(&desc.text, "In this example, ").or_else(|| sentence_after(&desc.text, "In this topic, "))?;
    if let Some(p) = s.find(" is set to ").or_else(|| s.find(" are set to ")) {
        let v = &s[p..];
        let v = v[v.find(" to ").map_or(0, |q| q + 4)..].trim();
        return Some(unquote(v)).filter(|v| !v.is_empty());
    }
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

/// A description that is nothing but "Select **TCP**.": the option it names is the example.
fn only_a_choice(desc: &Inline) -> Option<String> {
    let rest = desc.text.trim().strip_prefix("Select ")?.trim_end_matches('.').trim();
    desc.bold.iter().find(|b| b.as_str() == rest).cloned()
}

/// The sentence "X is selected in this example." (or "is used", "is entered") → `X`.
fn example_before(text: &str) -> Option<String> {
    let low = text.to_lowercase();
    let p = low.find(" in this example")?;
    let head = &text[..p];
    let start = head.rfind(". ").map_or(0, |q| q + 2);
    let sentence = &head[start..];
    for tail in [
        " is selected",
        " are selected",
        " is used",
        " is entered",
        " is specified",
    ] {
        if let Some(v) = sentence.strip_suffix(tail) {
            let v = unquote(v.trim_start_matches("the ").trim_start_matches("The "));
            return Some(v).filter(|v| !v.is_empty() && v.split_whitespace().count() <= 6);
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

const NAME_COLUMNS: &[&str] = &[
    "parameter",
    "item",
    "setting",
    "field",
    "configuration item",
    "configuration",
];

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
        let (blocks, alternatives) = split_methods(&item.inline, &item.blocks);
        for b in &blocks {
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
                    for clause in bullet_clauses(items) {
                        append(&mut inl, &clause);
                    }
                    tables.extend(bullet_tables(items));
                    if inl.text.to_lowercase().contains("following parameters")
                        && let Some(rows) = parameter_bullets(items)
                    {
                        tables.push((vec!["Parameter".into(), "Description".into()], rows));
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
            alternatives: alternatives.iter().map(|a| a.text.clone()).collect(),
            ..Step::default()
        };
        let mut acted: Vec<String> = Vec::new();
        let mut options_follow = false;
        for (i, clause) in clauses(&item.inline, &blocks).iter().enumerate() {
            let mut a = if i == 0 {
                analyse(clause)
            } else {
                analyse_further(clause)
            };
            // "For **Principal Name**, choose one of the following: - **Current Account**: … -
            // **Other Account**: … Enter the ID of the trusted account.": each bullet describes an
            // option and what choosing it asks for; which one is the reader's choice, so the
            // options and the field they belong to are named in passing.
            if options_follow && let Some((name, _)) = named_before_colon(clause) {
                // Without bold the option's name is only the words before its colon.
                if !a.labels.iter().any(|l| l == name) {
                    a.labels.insert(0, name.to_owned());
                }
                a.mentions = a.labels.clone();
                a.actions.clear();
                a.values.clear();
            }
            if offers_options(clause) {
                options_follow = true;
                if let Some(field) = field_of_options(clause) {
                    if !a.labels.contains(&field) {
                        a.labels.push(field.clone());
                    }
                    a.mentions.push(field);
                }
            }
            for l in a.labels {
                if a.mentions.contains(&l) {
                    push_new(&mut step.mentions, &l);
                } else {
                    push_new(&mut acted, &l);
                }
                push_new(&mut step.labels, &l);
            }
            if step.menu_path.is_empty() {
                step.menu_path = a.menu_path;
                step.navigation = a.navigation;
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
            if step.opens_console.is_none() && a.opens_own_console {
                step.opens_console = self.proc.product.as_deref().map(product_name);
            }
            for v in a.values {
                if !step.values.contains(&v) {
                    step.values.push(v);
                }
            }
            for act in a.actions {
                if !step.actions.contains(&act) {
                    step.actions.push(act);
                }
            }
        }
        // The other ways name their labels in passing: kept, never targets.
        for way in &alternatives {
            for l in analyse_further(way).labels {
                push_new(&mut step.labels, &l);
                push_new(&mut step.mentions, &l);
            }
        }
        // A label one clause names in passing and another acts on is a target.
        step.mentions.retain(|l| !acted.contains(l));
        let lead = step.text.trim_start().to_lowercase();
        step.optional =
            lead.starts_with("(optional)") || lead.starts_with("optional:") || lead.starts_with("optional.");
        step
    }
}

/// How a step offers several ways of doing it ("Use one of the following methods:").
const WAYS: &[&str] = &["methods", "ways", "operations"];

/// Whether a clause offers options of a field ("choose one of the following:"), not ways of doing
/// the step.
fn offers_options(clause: &Inline) -> bool {
    let low = clause.text.to_lowercase();
    low.find("one of the following").is_some_and(|at| {
        let rest = low[at + "one of the following".len()..].trim_start();
        !WAYS.iter().any(|w| rest.starts_with(w))
    })
}

/// The field whose options a clause offers ("For **Principal Name**, choose one of the following:").
fn field_of_options(clause: &Inline) -> Option<String> {
    let low = clause.text.to_ascii_lowercase();
    let before = &low[..low.find("one of the following")?];
    if clause.bold.is_empty() {
        // Without bold: the words between "For" and the comma.
        let at = before.rfind("for ")? + "for ".len();
        let name = &clause.text[at..at + before[at..].find(", ")?];
        return option_name(name).then(|| name.to_owned());
    }
    clause
        .bold
        .iter()
        .find(|b| before.contains(&format!("for {}, ", b.to_lowercase())))
        .cloned()
}

/// Words that can name an option where the page lost its bold: at most four, the first
/// capitalised ("Current Account").
fn option_name(words: &str) -> bool {
    let count = words.split_whitespace().count();
    (1..=4).contains(&count) && words.starts_with(char::is_uppercase)
}

/// The name a clause opens with before its colon, and what follows it: its bold name ("**Other
/// Account**: Allows RAM users …"), or without bold its first words ("Other Account: Allows …").
fn named_before_colon(clause: &Inline) -> Option<(&str, &str)> {
    let text = clause.text.trim_start();
    match clause.bold.first() {
        Some(b) => {
            let rest = text.strip_prefix(b.as_str())?.trim_start().strip_prefix(':')?;
            Some((b.as_str(), rest.trim()))
        }
        None => text
            .split_once(": ")
            .filter(|(head, _)| option_name(head))
            .map(|(head, rest)| (head, rest.trim())),
    }
}

fn push_new(list: &mut Vec<String>, item: &str) {
    if !list.iter().any(|l| l == item) {
        list.push(item.to_owned());
    }
}

/// "Use one of the following methods to open the wizard:" and a bullet per method: the step is
/// the first method; the other bullets come back on their own, each with its nested bullets.
fn split_methods(lead: &Inline, blocks: &[Block]) -> (Vec<Block>, Vec<Inline>) {
    let low = lead.text.to_lowercase();
    let offers_ways = WAYS.iter().any(|w| low.contains(&format!("one of the following {w}")));
    let mut kept = Vec::with_capacity(blocks.len());
    let mut others = Vec::new();
    for b in blocks {
        match b {
            Block::List {
                ordered: false, items, ..
            } if (offers_ways || for_cases(items) || operations(items)) && others.is_empty() && items.len() > 1 => {
                let mut ways: Vec<&Item> = items.iter().collect();
                ways.sort_by_key(|it| following_order(it));
                let mut first = b.clone();
                if let Block::List { items, .. } = &mut first {
                    *items = vec![ways[0].clone()];
                }
                kept.push(first);
                others.extend(ways[1..].iter().map(|it| {
                    let mut way = Inline::default();
                    for clause in bullet_clauses(std::slice::from_ref(it)) {
                        append(&mut way, &clause);
                    }
                    way
                }));
            }
            _ => kept.push(b.clone()),
        }
    }
    (kept, others)
}

/// Which of a step's ways the verifier follows first (lowest), page order among equals.
///
/// - A way that only shows something ("View the authorization records …") goes last: only a
///   change leaves the audit event that proves the step was done.
/// - A way that adds ("Attach the policy to a principal …") goes after one that acts on what is
///   there ("Detach the policy …: Find the authorization record …"): the run provides what a step
///   finds, and an addition may collide with it (the provided grant is the one it would add).
fn following_order(item: &Item) -> u8 {
    let lead = item.inline.text.split_whitespace().next().unwrap_or_default().to_lowercase();
    match lead.as_str() {
        "view" | "query" => 2,
        "add" | "attach" | "grant" | "create" | "bind" | "associate" => 1,
        _ => 0,
    }
}

/// Bullets that each say what to do in a case of their own ("To release only one instance, …",
/// "If you want to release multiple instances, …"): ways of doing the step, the first one
/// followed.
fn for_cases(items: &[Item]) -> bool {
    items.iter().all(|it| {
        let low = it.inline.text.trim_start().to_lowercase();
        ["to ", "if you want to ", "if you need to "]
            .iter()
            .any(|lead| low.starts_with(lead))
            && low.split_once(", ").is_some()
    })
}

/// Bullets that are operations of their own ("View the authorization records …", "Attach the
/// policy to a principal: Click **Grant Permission** …", "Detach the policy from a principal: …"):
/// at least two open with what they do, in plain words, and a colon before the clicks that do it.
/// Each is a way of using what the step opened; the first one is followed.
fn operations(items: &[Item]) -> bool {
    let purpose_first = |it: &&Item| {
        let text = it.inline.text.trim_start();
        let Some((purpose, rest)) = text.split_once(": ") else {
            return false;
        };
        let plain = !it.inline.bold.iter().any(|b| purpose.contains(b.as_str()));
        let opens_with_verb = purpose.split_whitespace().count() >= 3
            && purpose.chars().next().is_some_and(char::is_uppercase);
        let acts = ["click", "find", "select", "enter"]
            .iter()
            .any(|v| rest.to_lowercase().split_whitespace().any(|w| w == *v));
        // A control named in bold, or without bold "click Grant Permission" (a capitalised name).
        let names_a_control = !it.inline.bold.is_empty()
            || rest
                .match_indices("lick ")
                .any(|(at, _)| rest[at + 5..].starts_with(char::is_uppercase));
        plain && opens_with_verb && acts && names_a_control
    };
    items.iter().filter(purpose_first).count() >= 2
}

/// The product of a page title as a console name: "Tair (Redis® OSS-Compatible)" →
/// "Tair (Redis OSS-Compatible)" (trademark signs are no part of the name).
fn product_name(product: &str) -> String {
    product.replace(['®', '™'], "").trim().to_string()
}

fn clauses(first: &Inline, blocks: &[Block]) -> Vec<Inline> {
    let mut out = vec![first.clone()];
    for b in blocks {
        match b {
            Block::Para(p) if callout(p).is_none() => out.push(p.clone()),
            Block::List {
                ordered: false, items, ..
            } => out.extend(bullet_clauses(items)),
            _ => {}
        }
    }
    out
}

/// The clauses of a bullet list, depth first: each bullet with its own paragraphs, then the
/// bullets nested under it ("Console Access: … – Set Console Password: …"). Callouts stay out.
fn bullet_clauses(items: &[Item]) -> Vec<Inline> {
    let mut out = Vec::new();
    for it in items {
        let mut i = it.inline.clone();
        let mut nested = Vec::new();
        for inner in &it.blocks {
            match inner {
                Block::Para(p) if callout(p).is_none() => append(&mut i, p),
                Block::List { items, .. } => nested.extend(bullet_clauses(items)),
                _ => {}
            }
        }
        out.push(i);
        out.extend(nested);
    }
    out
}

/// Bullets that each describe a parameter ("**Logon Name**: The logon name can be …"), after a
/// sentence that announces them, as the rows of a parameter table: every bullet opens with its
/// name and a colon.
fn parameter_bullets(items: &[Item]) -> Option<Vec<Vec<Inline>>> {
    items
        .iter()
        .map(|it| {
            let (name, description) = named_before_colon(&it.inline)?;
            let mut name_cell = Inline::default();
            name_cell.push_text(name);
            let mut description_cell = Inline::default();
            description_cell.push_text(description);
            description_cell.bold = it.inline.bold.iter().skip(1).cloned().collect();
            Some(vec![name_cell, description_cell])
        })
        .collect()
}

/// Tables that sit inside the bullets of a step.
fn bullet_tables(items: &[Item]) -> Vec<(Vec<String>, Vec<Vec<Inline>>)> {
    let mut out = Vec::new();
    for it in items {
        for inner in &it.blocks {
            match inner {
                Block::Table { header, rows } => out.push((header.clone(), rows.clone())),
                Block::List { items, .. } => out.extend(bullet_tables(items)),
                _ => {}
            }
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

/// "Last Updated: Mar 14, 2026" → `2026-03-14`; "Updated at: 2025-04-25 03:20" → `2025-04-25`.
fn last_updated(text: &str) -> Option<Result<String, DocError>> {
    if let Some(p) = text.find("Updated at")
        && !text.contains("Last Updated")
    {
        let rest = text[p + "Updated at".len()..].trim_start_matches([':', ' ']);
        let d: String = rest.chars().take(10).collect();
        let b = d.as_bytes();
        let iso = b.len() == 10
            && b[4] == b'-'
            && b[7] == b'-'
            && d.chars()
                .enumerate()
                .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit());
        return Some(if iso {
            Ok(d)
        } else {
            Err(DocError::BadDate(text[p..].trim().to_string()))
        });
    }
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
    let mut headings = ProcedureHeadings::default();
    let mut skip_to = 0usize;

    for (at, block) in blocks.iter().enumerate() {
        if at < skip_to {
            continue;
        }
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
            let Some(s) = headings.section(*level, text, &section) else {
                continue;
            };
            match &s {
                Section::Procedure => saw_procedure = Some("Procedure".into()),
                Section::Steps(name) => {
                    saw_procedure.get_or_insert_with(|| name.clone());
                    // A "Step N: …" heading whose body has no numbered list is one step.
                    let body = heading_body(&blocks[at + 1..]);
                    if matches!(classify(name), Section::Steps(_))
                        && let Some(item) = heading_step(body)
                    {
                        let sec = Some(name.clone());
                        let step = b.step(&item, step_label(name), &sec);
                        b.proc.steps.push(step);
                        skip_to = at + 1 + body.len();
                    }
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

/// Where the page's headings put it: which heading opened the Procedure section, and the level of
/// the sub-headings that split it ("### Method 1: …", "### Change the password").
#[derive(Default)]
struct ProcedureHeadings {
    procedure_level: Option<u8>,
    sub_level: Option<u8>,
}

impl ProcedureHeadings {
    /// The section a heading opens, or `None` when it opens none (a deeper heading inside a step
    /// section, which leaves that section as it is).
    fn section(&mut self, level: u8, text: &str, current: &Section) -> Option<Section> {
        let s = classify(text);
        if self.procedure_level.is_some_and(|l| level <= l) {
            *self = Self::default();
        }
        if self.procedure_level.is_some() {
            return match s {
                Section::Other | Section::Steps(_) => {
                    let sub = *self.sub_level.get_or_insert(level);
                    if level > sub && !matches!(s, Section::Steps(_)) {
                        return None;
                    }
                    Some(Section::Steps(text.trim().to_string()))
                }
                other => {
                    *self = Self::default();
                    Some(other)
                }
            };
        }
        if s == Section::Procedure {
            self.procedure_level = Some(level);
            return Some(s);
        }
        // Other sub-headings inside a "Step N: …" section do not end it.
        if s == Section::Other && matches!(current, Section::Procedure | Section::Steps(_)) && level > 2 {
            return None;
        }
        Some(s)
    }
}

/// The blocks after a heading, up to the next heading.
fn heading_body(blocks: &[Block]) -> &[Block] {
    let end = blocks
        .iter()
        .position(|b| matches!(b, Block::Heading { .. }))
        .unwrap_or(blocks.len());
    &blocks[..end]
}

/// A step section written as paragraphs, without a numbered list: the whole body as one step
/// (its first paragraph the sentence, the rest its further text, tables and callouts).
fn heading_step(body: &[Block]) -> Option<Item> {
    if body.iter().any(|b| matches!(b, Block::List { ordered: true, .. })) {
        return None;
    }
    let first = body
        .iter()
        .position(|b| matches!(b, Block::Para(p) if callout(p).is_none() && !p.is_blank()))?;
    let Block::Para(inline) = &body[first] else {
        return None;
    };
    let mut blocks = body[..first].to_vec();
    blocks.extend(body[first + 1..].iter().cloned());
    Some(Item {
        inline: inline.clone(),
        blocks,
    })
}

/// "Step 2: Create a vSwitch" → "Step 2"; "Step 1 Open the wizard" → "Step 1".
fn step_label(section: &str) -> String {
    let mut words = section.split_whitespace();
    match (words.next(), words.next()) {
        (Some(step), Some(n)) => {
            let n: String = n.chars().take_while(|c| c.is_ascii_digit()).collect();
            if n.is_empty() {
                section.split(':').next().unwrap_or(section).trim().to_string()
            } else {
                format!("{step} {n}")
            }
        }
        _ => section.split(':').next().unwrap_or(section).trim().to_string(),
    }
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
    fn bullets_naming_parameters_after_following_parameters_are_a_parameter_table() {
        let p = crate::parse_markdown(
            "# Create a RAM user\n\n## Procedure\n\n\
             1. In the **User Account Information** section, configure the following parameters:\n   \
             - **Logon Name**: The logon name can be up to 64 characters in length.\n   \
             - **Display Name**: Up to 128 characters. In this example, `Alice` is used.\n",
        )
        .unwrap();
        assert_eq!(p.parameters.len(), 1);
        let rows = &p.parameters[0].rows;
        assert_eq!(
            rows.iter().map(|r| r.name.as_str()).collect::<Vec<_>>(),
            ["Logon Name", "Display Name"]
        );
        assert_eq!(rows[1].example.as_deref(), Some("Alice"));
        // Bullets that are not all "**Name**: …" stay sentences.
        let q = crate::parse_markdown(
            "# T\n\n## Procedure\n\n1. Configure the following parameters:\n   - **Name**: web.\n   - Keep the rest.\n",
        )
        .unwrap();
        assert!(q.parameters.is_empty());
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

    fn cells(row: &[&str]) -> Vec<Inline> {
        row.iter().map(|c| inline(c)).collect()
    }

    #[test]
    fn tables_with_option_example_or_configuration_columns() {
        let h = |cols: &[&str]| cols.iter().map(|c| c.to_string()).collect::<Vec<_>>();
        // A cell spanning two rows comes as a blank name: the option joins the row above.
        let t = parameter_table(
            &h(&["Parameter", "Option", "Description"]),
            &[
                cells(&["Stopped By", "Stop", "Gracefully shuts down."]),
                cells(&["", "Force Stop", "Powers off."]),
            ],
            None,
        )
        .unwrap();
        assert_eq!(t.rows.len(), 1);
        assert_eq!(
            t.rows[0].description,
            "Stop: Gracefully shuts down. Force Stop: Powers off."
        );
        // "Parameter | Example": the instruction sits in the Example column.
        let t = parameter_table(
            &h(&["Parameter", "Example"]),
            &[cells(&["Instance Type", "Select ECS Instance."])],
            None,
        )
        .unwrap();
        assert_eq!(t.rows[0].description, "Select ECS Instance.");
        // "Configuration | Description".
        let t = parameter_table(
            &h(&["Configuration", "Description"]),
            &[cells(&["Listener Port", "The port."])],
            None,
        )
        .unwrap();
        assert_eq!(t.rows[0].name, "Listener Port");
    }

    #[test]
    fn examples_in_more_wordings() {
        assert_eq!(
            example_in(&inline("Select the protocol. HTTP is selected in this example.")).as_deref(),
            Some("HTTP")
        );
        assert_eq!(
            example_in(&inline("Select the protocol type. In this topic, select HTTP.")).as_deref(),
            Some("HTTP")
        );
        assert_eq!(
            example_in(&inline("The port. In this example, the port number is set to 80.")).as_deref(),
            Some("80")
        );
        // A description that only names the option to select.
        let only = Inline {
            text: "Select TCP.".into(),
            bold: vec!["TCP".into()],
            code: vec![],
        };
        assert_eq!(example_in(&only).as_deref(), Some("TCP"));
        assert_eq!(example_in(&inline("Select a protocol.")), None);
    }

    #[test]
    fn updated_at_dates_and_step_headings_without_a_colon() {
        assert_eq!(
            last_updated("Updated at: 2025-04-25 03:20").unwrap().unwrap(),
            "2025-04-25"
        );
        assert!(last_updated("Updated at: yesterday").unwrap().is_err());
        assert_eq!(step_label("Step 1 Open the listener configuration wizard"), "Step 1");
        assert_eq!(step_label("Step 2: Create a vSwitch"), "Step 2");
    }

    #[test]
    fn nested_bullets_are_clauses_of_their_step() {
        let outer = Item {
            inline: Inline {
                text: "Console Access: select it.".into(),
                bold: vec!["Console Access".into()],
                code: vec![],
            },
            blocks: vec![Block::List {
                ordered: false,
                start: 1,
                items: vec![Item {
                    inline: Inline {
                        text: "Set Console Password: select Reset Custom Password.".into(),
                        bold: vec!["Set Console Password".into(), "Reset Custom Password".into()],
                        code: vec![],
                    },
                    blocks: vec![],
                }],
            }],
        };
        let c = bullet_clauses(&[outer]);
        assert_eq!(c.len(), 2);
        assert_eq!(c[1].bold, ["Set Console Password", "Reset Custom Password"]);
    }

    #[test]
    fn bullets_that_each_say_what_they_do_before_a_colon_are_ways_of_the_step() {
        let item = |text: &str, bold: &[&str]| Item {
            inline: Inline {
                text: text.into(),
                bold: bold.iter().map(|b| b.to_string()).collect(),
                code: vec![],
            },
            blocks: vec![],
        };
        let operations_list = [
            item("View the records, including Principal.", &["Principal"]),
            item("Attach the policy to a principal: Click Grant Permission.", &["Grant Permission"]),
            item("Detach the policy from a principal: click Revoke Permission.", &["Revoke Permission"]),
        ];
        assert!(operations(&operations_list));
        // The same bullets scraped without bold.
        let scraped: Vec<Item> = operations_list.iter().map(|it| item(&it.inline.text, &[])).collect();
        assert!(operations(&scraped));
        // Plain prose with a colon is no way of the step.
        let prose = [
            item("Note the following: the policy takes effect at once.", &[]),
            item("Keep in mind: a principal can hold ten policies.", &[]),
        ];
        assert!(!operations(&prose));
        // Parameters named in bold before their colon are clauses of one step.
        let parameters = [
            item("Account: The authorization takes effect on the account. Click OK.", &["Account"]),
            item("ResourceGroup: The authorization takes effect on a group. Click OK.", &["ResourceGroup"]),
        ];
        assert!(!operations(&parameters));
    }

    #[test]
    fn options_described_without_bold_are_named_in_passing() {
        let md = "# RAM:Create a role\n\n## Procedure\n\n\
                  1. On the Create Role page, set Principal Type to Cloud Account. Click OK.\n\n   \
                  For Principal Name, choose one of the following:\n\n   \
                  - Current Account: Allows all RAM users of the current account to assume this role.\n   \
                  - Other Account: Allows another account. You can find an account ID on the Security Settings page.\n";
        let step = &crate::parse_markdown(md).unwrap().steps[0];
        // The page an option's description points to is no target of the step.
        assert!(step.mentions.contains(&"Security Settings".to_owned()), "{:?}", step.mentions);
        assert!(!step.mentions.contains(&"OK".to_owned()), "{:?}", step.mentions);
        // The field and its options, as bold would name them: what the reader chooses among.
        for option in ["Principal Name", "Current Account", "Other Account"] {
            assert!(step.mentions.contains(&option.to_owned()), "{option}: {:?}", step.mentions);
        }
    }

    #[test]
    fn a_way_that_acts_on_what_is_there_is_followed_first_and_one_that_only_looks_last() {
        let md = "# RAM:Manage policy-based authorization\n\n## Procedure\n\n\
                  1. Click the **Grants** tab to manage the authorization.\n   \
                  - View the authorization records, including **Principal** and **Granted At**.\n   \
                  - Attach the policy to a principal: Click **Grant Permission**. In the **Grant Permission** panel, attach the policy.\n   \
                  - Detach the policy from a principal: Find the record and click **Revoke Permission**.\n";
        let step = &crate::parse_markdown(md).unwrap().steps[0];
        assert!(step.text.contains("Detach the policy"), "{}", step.text);
        assert!(step.labels.contains(&"Revoke Permission".to_owned()));
        assert!(!step.mentions.contains(&"Revoke Permission".to_owned()));
        assert!(step.alternatives[0].starts_with("Attach"), "{:?}", step.alternatives);
        assert!(step.alternatives[1].starts_with("View"), "{:?}", step.alternatives);
        assert!(step.mentions.contains(&"Principal".to_owned()));
    }

    fn numbers(md: &str) -> Vec<String> {
        let p = crate::parse_markdown(md).unwrap();
        p.steps.iter().map(|s| s.number.clone()).collect()
    }

    #[test]
    fn sub_headings_under_procedure_are_sections_of_their_own() {
        let md = "# RAM:Add a user to a group\n\n## Procedure\n\n### Method 1: On the Users page\n\n\
                  1. Log on to the RAM console.\n2. Click **OK**.\n\n### Method 2: On the Groups page\n\n\
                  1. Log on to the RAM console.\n\n### Change the password\n\n1. Click **Change Password**.\n";
        assert_eq!(
            numbers(md),
            [
                "Method 1 › 1",
                "Method 1 › 2",
                "Method 2 › 1",
                "Change the password › 1"
            ]
        );
        let p = crate::parse_markdown(md).unwrap();
        assert_eq!(p.steps[2].section.as_deref(), Some("Method 2: On the Groups page"));
        // A deeper heading inside a sub-section does not split it, and a Result heading ends it.
        let md = "# X:Y\n\n## Procedure\n\n### Change the password\n\n1. Click **A**.\n\n#### Details\n\n\
                  2. Click **B**.\n\n## Result\n\nDone.\n";
        assert_eq!(numbers(md), ["Change the password › 1", "Change the password › 2"]);
        // A sub-heading of prose only is no step; a "Step N" heading of prose only is one.
        let md = "# X:Y\n\n## Procedure\n\n### Parameters\n\nSee the table.\n\n### Step 2: Save\n\nClick **OK**.\n";
        assert_eq!(numbers(md), ["Step 2"]);
        // "Method N" headings are sections without a Procedure heading too.
        let md = "# X:Y\n\n## Method 1: In the ECS console\n\n1. Log on to the ECS console.\n";
        assert_eq!(numbers(md), ["Method 1 › 1"]);
    }

    #[test]
    fn a_step_heading_without_a_numbered_list_is_one_step() {
        let md = "# ActionTrail:Create a trail\n\n## Procedure\n\n### Step 1: Open the console\n\n\
                  Log on to the **ActionTrail console**.\n\n### Step 2: Go to Trails\n\n\
                  In the left-side navigation pane, click **Trails**.\n\n> **Note** The region is the home region.\n\n\
                  ### Step 3: Configure parameters\n\nConfigure the following parameters.\n\n\
                  | Parameter | Description |\n|---|---|\n| Trail Name | The name. |\n";
        let p = crate::parse_markdown(md).unwrap();
        let n: Vec<_> = p.steps.iter().map(|s| s.number.as_str()).collect();
        assert_eq!(n, ["Step 1", "Step 2", "Step 3"]);
        assert_eq!(p.steps[0].opens_console.as_deref(), Some("ActionTrail"));
        assert_eq!(p.steps[1].menu_path, ["Trails"]);
        assert_eq!(p.steps[1].section.as_deref(), Some("Step 2: Go to Trails"));
        assert_eq!(p.notes.len(), 1);
        assert_eq!(p.parameters.len(), 1);
        assert_eq!(p.parameters[0].step.as_deref(), Some("Step 3"));
    }

    #[test]
    fn log_on_to_the_console_opens_the_console_of_the_title() {
        let md = "# Tair (Redis® OSS-Compatible):Configure whitelists\n\n## Procedure\n\n\
                  1. Log on to the console and go to the **Instances** page.\n2. Log on to the **ECS console**.\n";
        let p = crate::parse_markdown(md).unwrap();
        assert_eq!(p.steps[0].opens_console.as_deref(), Some("Tair (Redis OSS-Compatible)"));
        assert_eq!(p.steps[1].opens_console.as_deref(), Some("ECS"));
        // Without a product in the title the console stays unnamed.
        let p = crate::parse_markdown("# Whitelists\n\n1. Log on to the console.\n").unwrap();
        assert_eq!(p.steps[0].opens_console, None);
        assert_eq!(p.steps[0].actions, [aca_core::StepAction::OpenConsole]);
    }

    #[test]
    fn a_bold_image_is_an_icon_named_by_its_alt_text() {
        let md = "# SLS:Delete\n\n1. Choose **![Modify a Logstore](https://example.com/p52318.png)** > **Delete**.\n";
        let p = crate::parse_markdown(md).unwrap();
        assert_eq!(p.steps[0].menu_path, ["Modify a Logstore", "Delete"]);
        let html = "<h1>SLS:Delete</h1><ol><li>Choose <b><img src=\"p.png\" alt=\"Modify a Logstore\"></b> &gt; <b>Delete</b>.</li></ol>";
        let p = crate::parse_html(html).unwrap();
        assert_eq!(p.steps[0].menu_path, ["Modify a Logstore", "Delete"]);
        // An image outside bold stays out of the text.
        let md = "# SLS:Delete\n\n1. Click ![icon](x.png) **Delete**.\n";
        let p = crate::parse_markdown(md).unwrap();
        assert_eq!(p.steps[0].text, "Click Delete.");
    }
}
