//! The real-page corpus (`tests/real-pages/<product>/`): every page has exactly one `sources.toml`
//! entry naming a real help-page URL (an archived source only when marked `archived = true`),
//! old-flow pages name their current page and how they differ, and every page parses into steps
//! that keep the UI labels the page marks in bold.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use aca_docs::real_pages::Sources;
use aca_docs::{Format, Procedure, Step, parse};
use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

fn real_pages_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/real-pages")
}

/// The archived public Markdown source of the international help pages (2018–2021).
const ARCHIVE_PREFIX: &str = "https://github.com/AlibabaCloudDocs/";

const URL_PREFIXES: [&str; 4] = [
    "https://www.alibabacloud.com/help",
    "https://alibabacloud.com/help",
    "https://help.aliyun.com",
    ARCHIVE_PREFIX,
];

/// One ordered list item of the Markdown source: its first paragraph as plain text, and the bold
/// spans of the item itself (its paragraphs and bullets, not its tables, callouts or sub-steps).
#[derive(Debug, Default)]
struct RawStep {
    text: String,
    bold: Vec<String>,
}

fn push_text(to: &mut String, t: &str) {
    for ch in t.chars() {
        if ch.is_whitespace() {
            if !to.is_empty() && !to.ends_with(' ') {
                to.push(' ');
            }
        } else {
            to.push(ch);
        }
    }
}

fn is_callout(text: &str) -> bool {
    ["Note", "Important", "Warning", "Notice"].iter().any(|w| {
        text.strip_prefix(w)
            .is_some_and(|rest| rest.starts_with([':', ' ']) || rest.is_empty())
    })
}

/// The ordered list items of a page, in source order, each with the bold it marks.
fn raw_steps(src: &str) -> Vec<RawStep> {
    struct Open {
        step: Option<usize>,
    }
    let mut steps: Vec<RawStep> = Vec::new();
    // Per open list: ordered or not. Per open item: the raw step it feeds.
    let mut lists: Vec<bool> = Vec::new();
    let mut items: Vec<Open> = Vec::new();
    let (mut in_table, mut in_quote) = (0usize, 0usize);
    let mut para = String::new();
    let mut para_bold: Vec<String> = Vec::new();
    let mut strong_at: Vec<usize> = Vec::new();
    let mut in_para = false;
    let mut image = 0usize;

    for ev in Parser::new_ext(src, Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH) {
        match ev {
            Event::Start(Tag::List(start)) => {
                flush(&items, &mut steps, &mut para, &mut para_bold, &mut in_para);
                lists.push(start.is_some());
            }
            Event::End(TagEnd::List(_)) => {
                lists.pop();
            }
            Event::Start(Tag::Item) => {
                flush(&items, &mut steps, &mut para, &mut para_bold, &mut in_para);
                let ordered = lists.last().copied().unwrap_or(false);
                let step = if ordered && in_table == 0 && in_quote == 0 {
                    steps.push(RawStep::default());
                    Some(steps.len() - 1)
                } else {
                    // A bullet feeds the step it sits in.
                    items.last().and_then(|o| o.step)
                };
                items.push(Open { step });
                para.clear();
                para_bold.clear();
                in_para = true;
            }
            Event::End(TagEnd::Item) => {
                flush(&items, &mut steps, &mut para, &mut para_bold, &mut in_para);
                items.pop();
            }
            Event::Start(Tag::Paragraph) => {
                flush(&items, &mut steps, &mut para, &mut para_bold, &mut in_para);
                in_para = true;
            }
            Event::End(TagEnd::Paragraph) if in_quote > 0 => {
                para.clear();
                para_bold.clear();
                in_para = false;
            }
            Event::End(TagEnd::Paragraph) => {
                flush(&items, &mut steps, &mut para, &mut para_bold, &mut in_para);
            }
            Event::Start(Tag::Table(_)) => {
                flush(&items, &mut steps, &mut para, &mut para_bold, &mut in_para);
                in_table += 1;
            }
            Event::End(TagEnd::Table) => in_table -= 1,
            Event::Start(Tag::BlockQuote(_)) => in_quote += 1,
            Event::End(TagEnd::BlockQuote(_)) => in_quote -= 1,
            Event::Start(Tag::Strong) => strong_at.push(para.len()),
            Event::End(TagEnd::Strong) => {
                if let Some(at) = strong_at.pop() {
                    let mut b = String::new();
                    push_text(&mut b, &para[at.min(para.len())..]);
                    para_bold.push(b.trim().to_string());
                }
            }
            Event::Start(Tag::Image { .. }) => image += 1,
            Event::End(TagEnd::Image) => image -= 1,
            Event::Text(t) if image == 0 && in_table == 0 => push_text(&mut para, &t),
            Event::Code(c) if in_table == 0 => push_text(&mut para, &c),
            Event::SoftBreak | Event::HardBreak => push_text(&mut para, " "),
            _ => {}
        }
    }
    return steps;

    fn flush(items: &[Open], steps: &mut [RawStep], para: &mut String, bold: &mut Vec<String>, in_para: &mut bool) {
        if !*in_para {
            return;
        }
        *in_para = false;
        let text = para.trim().to_string();
        let taken = std::mem::take(bold);
        para.clear();
        if text.is_empty() {
            return;
        }
        let Some(i) = items.last().and_then(|o| o.step) else {
            return;
        };
        if is_callout(&text) {
            return;
        }
        if steps[i].text.is_empty() {
            steps[i].text = text;
        }
        steps[i].bold.extend(taken.into_iter().filter(|b| !b.is_empty()));
    }
}

fn flat(p: &Procedure) -> Vec<&Step> {
    p.steps.iter().flat_map(|s| s.flatten()).collect()
}

/// Everything wrong with the real-page folder at `root`, one line each.
fn problems(root: &Path) -> (Vec<String>, usize) {
    let mut out = Vec::new();
    let mut pages = 0usize;
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    for dir in dirs {
        let product = dir.file_name().unwrap().to_string_lossy().to_string();
        let mut md: BTreeSet<String> = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().to_string())
            .filter(|n| n.ends_with(".md"))
            .collect();
        let sources_path = dir.join("sources.toml");
        let sources: Sources = match std::fs::read_to_string(&sources_path) {
            Err(e) => {
                out.push(format!("{product}/sources.toml: {e}"));
                continue;
            }
            Ok(text) => match toml::from_str(&text) {
                Ok(s) => s,
                Err(e) => {
                    out.push(format!("{product}/sources.toml: {e}"));
                    continue;
                }
            },
        };
        let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
        for s in &sources.page {
            *seen.entry(s.file.as_str()).or_default() += 1;
        }
        for (file, n) in &seen {
            if *n > 1 {
                out.push(format!("{product}/{file}: {n} sources entries"));
            }
            if !md.contains(*file) {
                out.push(format!("{product}/{file}: in sources.toml but no such page"));
            }
        }
        for s in &sources.page {
            let at = format!("{product}/{}", s.file);
            if !URL_PREFIXES.iter().any(|p| s.url.starts_with(p)) {
                out.push(format!("{at}: url {} is not an Alibaba Cloud help page", s.url));
            }
            if s.url.starts_with(ARCHIVE_PREFIX) && !s.archived {
                out.push(format!(
                    "{at}: url {} is an archived source: the entry needs archived = true",
                    s.url
                ));
            }
            let date_ok = s.updated == "unknown"
                || s.updated.len() == 10
                    && s.updated.char_indices().all(
                        |(i, c)| {
                            if i == 4 || i == 7 { c == '-' } else { c.is_ascii_digit() }
                        },
                    );
            if !date_ok {
                out.push(format!(
                    "{at}: updated {:?} is neither YYYY-MM-DD nor unknown",
                    s.updated
                ));
            }
            match s.flow.as_str() {
                "current" => {
                    if s.current.is_some() || !s.differences.is_empty() || !s.defects.is_empty() {
                        out.push(format!(
                            "{at}: a current page names no current page, no differences and no defects"
                        ));
                    }
                }
                "defective" => {
                    if s.current.is_some() || !s.differences.is_empty() {
                        out.push(format!(
                            "{at}: a defective page names no current page and no differences"
                        ));
                    }
                    if s.defects.iter().all(|d| d.trim().is_empty()) {
                        out.push(format!("{at}: a defective page must list at least one defect"));
                    }
                }
                "old" => {
                    match &s.current {
                        None => out.push(format!("{at}: an old page must name its current page")),
                        Some(c) => {
                            let cur = sources.page.iter().find(|p| &p.file == c);
                            // A defective page is still the current flow: its text is wrong, not its console.
                            if !md.contains(c) || cur.is_none_or(|p| p.flow != "current" && p.flow != "defective") {
                                out.push(format!("{at}: current = {c:?} is not a current page of {product}"));
                            }
                        }
                    }
                    if s.differences.iter().all(|d| d.trim().is_empty()) {
                        out.push(format!("{at}: an old page must list at least one difference"));
                    }
                    if !s.defects.is_empty() {
                        out.push(format!("{at}: an old page lists differences, not defects"));
                    }
                }
                other => out.push(format!("{at}: flow {other:?} is not current, old or defective")),
            }
        }
        for file in std::mem::take(&mut md) {
            pages += 1;
            let at = format!("{product}/{file}");
            if !seen.contains_key(file.as_str()) {
                out.push(format!("{at}: no sources.toml entry"));
            }
            let path = dir.join(&file);
            let proc = match parse(path.to_str().unwrap(), Format::Markdown) {
                Ok(p) => p,
                Err(e) => {
                    out.push(format!("{at}: does not parse: {e}"));
                    continue;
                }
            };
            if proc.steps.is_empty() {
                out.push(format!("{at}: no steps"));
                continue;
            }
            if let Some(s) = sources.page.iter().find(|s| s.file == file)
                && s.updated != "unknown"
                && proc.last_updated.as_deref() != Some(s.updated.as_str())
            {
                out.push(format!(
                    "{at}: the page says Last Updated {:?}, sources.toml {:?}",
                    proc.last_updated, s.updated
                ));
            }
            let steps = flat(&proc);
            let src = std::fs::read_to_string(&path).unwrap();
            for raw in raw_steps(&src) {
                let Some(step) = steps.iter().find(|s| s.text.starts_with(&raw.text)) else {
                    continue;
                };
                for b in &raw.bold {
                    // The console a step logs on to is kept as the console it opens.
                    let console = b.strip_suffix(" console").is_some_and(|name| {
                        step.opens_console
                            .as_deref()
                            .is_some_and(|c| name == c || name.ends_with(c) || c.ends_with(name))
                    });
                    // "Access RDS Instances": the console's page the step opens.
                    let page = step.opens_console.as_deref().is_some_and(|c| {
                        b.strip_prefix(c)
                            .is_some_and(|rest| step.menu_path.iter().any(|p| p == rest.trim()))
                    });
                    let kept = console || page || step.labels.iter().chain(&step.menu_path).any(|l| l == b);
                    if !kept {
                        out.push(format!(
                            "{at}: step {} loses the label {b:?} (labels {:?}, menu path {:?})",
                            step.number, step.labels, step.menu_path
                        ));
                    }
                }
            }
        }
    }
    (out, pages)
}

#[test]
fn every_real_page_is_sourced_and_parses_with_its_labels() {
    let (problems, pages) = problems(&real_pages_dir());
    assert!(pages > 0, "no pages under {}", real_pages_dir().display());
    assert!(
        problems.is_empty(),
        "{} problem(s) in {} pages:\n{}",
        problems.len(),
        pages,
        problems.join("\n")
    );
}

#[test]
fn the_checks_catch_a_broken_folder() {
    let dir = tempfile::tempdir().unwrap();
    let product = dir.path().join("demo");
    std::fs::create_dir(&product).unwrap();
    // No steps at all, a step whose bold label the parser cannot keep, and an unsourced page.
    std::fs::write(product.join("no-steps.md"), "# Demo:No steps\n\nJust prose.\n").unwrap();
    std::fs::write(
        product.join("orphan.md"),
        "# Demo:Orphan\n\n## Procedure\n\n1. Click **OK**.\n",
    )
    .unwrap();
    for name in ["archived.md", "archived-marked.md", "defective.md"] {
        std::fs::write(
            product.join(name),
            "# Demo:Archived\n\n## Procedure\n\n1. Click **OK**.\n",
        )
        .unwrap();
    }
    std::fs::write(
        product.join("sources.toml"),
        r#"
[[page]]
file = "no-steps.md"
url = "https://example.com/help"
updated = "soon"
flow = "old"

[[page]]
file = "archived.md"
url = "https://github.com/AlibabaCloudDocs/demo/blob/master/intl.en-US/Archived.md"
updated = "unknown"
flow = "current"

[[page]]
file = "archived-marked.md"
url = "https://github.com/AlibabaCloudDocs/demo/blob/master/intl.en-US/Marked.md"
updated = "unknown"
flow = "current"
archived = true

[[page]]
file = "defective.md"
url = "https://www.alibabacloud.com/help/en/demo/defective"
updated = "unknown"
flow = "defective"
"#,
    )
    .unwrap();
    let (problems, pages) = problems(dir.path());
    assert_eq!(pages, 5);
    let all = problems.join("\n");
    for expected in [
        "no-steps.md: does not parse",
        "no-steps.md: url https://example.com/help",
        "no-steps.md: updated \"soon\"",
        "no-steps.md: an old page must name its current page",
        "no-steps.md: an old page must list at least one difference",
        "orphan.md: no sources.toml entry",
        "defective.md: a defective page must list at least one defect",
        "archived.md: url https://github.com/AlibabaCloudDocs/demo/blob/master/intl.en-US/Archived.md is an archived source",
    ] {
        assert!(all.contains(expected), "missing {expected:?} in:\n{all}");
    }
    // An archived source marked as such is accepted.
    assert!(!all.contains("archived-marked.md"), "{all}");
}

#[test]
fn raw_steps_keep_bold_of_bullets_but_not_of_tables_callouts_or_substeps() {
    let src = "1. On the **Instances** page, do one of the following:\n   - Click **Start**.\n\n   **Note** Keep **this** out.\n\n   | Parameter | Description |\n   |---|---|\n   | **Name** | x |\n\n   1. Click **OK**.\n";
    let raw = raw_steps(src);
    assert_eq!(raw.len(), 2);
    assert_eq!(raw[0].text, "On the Instances page, do one of the following:");
    assert_eq!(raw[0].bold, ["Instances", "Start"]);
    assert_eq!(raw[1].bold, ["OK"]);
}
