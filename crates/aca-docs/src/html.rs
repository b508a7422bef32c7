//! HTML → blocks, over html5ever's tree (through `scraper`). Containers (`body`, `div`, `section`,
//! `li`, …) are transparent: their loose text becomes paragraphs, their block children blocks.

use scraper::{ElementRef, Html, Node};

use crate::DocError;
use crate::blocks::{Block, Inline, Item, clean};

const SKIP: &[&str] = &[
    "script", "style", "nav", "header", "footer", "noscript", "template", "head", "svg", "button",
];
const BLOCK: &[&str] = &[
    "p",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "ol",
    "ul",
    "table",
    "blockquote",
    "div",
    "section",
    "article",
    "main",
    "body",
    "li",
    "pre",
    "dl",
    "aside",
];

pub(crate) fn blocks(src: &str) -> Result<Vec<Block>, DocError> {
    if src.contains('\0') {
        return Err(DocError::UnreadableHtml(
            "the text is binary (it holds NUL bytes)".into(),
        ));
    }
    if !src.contains('<') || !src.contains('>') {
        return Err(DocError::UnreadableHtml("the text holds no HTML elements".into()));
    }
    let doc = Html::parse_document(src);
    let root = doc.root_element();
    let body = root
        .children()
        .filter_map(ElementRef::wrap)
        .find(|e| e.value().name() == "body")
        .unwrap_or(root);
    let out = container(body);
    if out.is_empty() {
        return Err(DocError::EmptyPage);
    }
    Ok(out)
}

fn is_block(e: &ElementRef) -> bool {
    BLOCK.contains(&e.value().name())
}

/// The blocks of a container element.
fn container(el: ElementRef) -> Vec<Block> {
    let mut out = Vec::new();
    let mut buf = Inline::default();
    let flush = |buf: &mut Inline, out: &mut Vec<Block>| {
        let p = std::mem::take(buf).finish();
        if !p.is_blank() {
            out.push(Block::Para(p));
        }
    };
    for child in el.children() {
        match child.value() {
            Node::Text(t) => buf.push_text(t),
            Node::Element(_) => {
                let Some(e) = ElementRef::wrap(child) else { continue };
                let name = e.value().name();
                if SKIP.contains(&name) {
                    continue;
                }
                if is_block(&e) {
                    flush(&mut buf, &mut out);
                    out.extend(block(e));
                } else {
                    inline(e, &mut buf);
                }
            }
            _ => {}
        }
    }
    flush(&mut buf, &mut out);
    out
}

fn block(e: ElementRef) -> Vec<Block> {
    let name = e.value().name();
    match name {
        "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => {
            let mut i = Inline::default();
            inline_children(e, &mut i);
            vec![Block::Heading {
                level: name.as_bytes()[1] - b'0',
                text: i.finish().text,
            }]
        }
        "p" | "pre" => {
            let mut i = Inline::default();
            inline_children(e, &mut i);
            let i = i.finish();
            if i.is_blank() { vec![] } else { vec![Block::Para(i)] }
        }
        "ol" | "ul" => {
            let start = e.value().attr("start").and_then(|s| s.parse().ok()).unwrap_or(1);
            let items = e
                .children()
                .filter_map(ElementRef::wrap)
                .filter(|c| c.value().name() == "li")
                .map(|li| {
                    let mut blocks = container(li);
                    let inline = match blocks.first() {
                        Some(Block::Para(_)) => match blocks.remove(0) {
                            Block::Para(p) => p,
                            _ => Inline::default(),
                        },
                        _ => Inline::default(),
                    };
                    Item { inline, blocks }
                })
                .collect();
            vec![Block::List {
                ordered: name == "ol",
                start,
                items,
            }]
        }
        "table" => vec![table(e)],
        "blockquote" | "aside" => vec![Block::Quote(container(e))],
        _ => container(e),
    }
}

fn table(e: ElementRef) -> Block {
    let mut header = Vec::new();
    let mut rows = Vec::new();
    let mut trs = Vec::new();
    collect_rows(e, &mut trs);
    for tr in trs {
        let cells: Vec<ElementRef> = tr
            .children()
            .filter_map(ElementRef::wrap)
            .filter(|c| matches!(c.value().name(), "td" | "th"))
            .collect();
        let is_head = header.is_empty() && rows.is_empty() && cells.iter().all(|c| c.value().name() == "th")
            || header.is_empty()
                && rows.is_empty()
                && tr
                    .parent()
                    .and_then(ElementRef::wrap)
                    .is_some_and(|p| p.value().name() == "thead");
        let inl: Vec<Inline> = cells
            .into_iter()
            .map(|c| {
                // A cell's paragraphs run together as one text.
                let mut i = Inline::default();
                inline_children(c, &mut i);
                i.finish()
            })
            .collect();
        if is_head {
            header = inl.into_iter().map(|i| i.text).collect();
        } else {
            rows.push(inl);
        }
    }
    Block::Table { header, rows }
}

fn collect_rows<'a>(e: ElementRef<'a>, out: &mut Vec<ElementRef<'a>>) {
    for c in e.children().filter_map(ElementRef::wrap) {
        match c.value().name() {
            "tr" => out.push(c),
            "thead" | "tbody" | "tfoot" => collect_rows(c, out),
            _ => {}
        }
    }
}

fn inline_children(e: ElementRef, buf: &mut Inline) {
    for child in e.children() {
        match child.value() {
            Node::Text(t) => buf.push_text(t),
            Node::Element(_) => {
                if let Some(c) = ElementRef::wrap(child) {
                    if SKIP.contains(&c.value().name()) {
                        continue;
                    }
                    if is_block(&c) {
                        buf.push_text(" ");
                    }
                    inline(c, buf);
                    if is_block(&c) {
                        buf.push_text(" ");
                    }
                }
            }
            _ => {}
        }
    }
}

/// The alt text of the first image inside `e`.
fn icon_alt(e: ElementRef) -> Option<String> {
    e.descendants()
        .filter_map(ElementRef::wrap)
        .find(|d| d.value().name() == "img")
        .and_then(|img| img.value().attr("alt"))
        .map(clean)
        .filter(|alt| !alt.is_empty())
}

fn inline(e: ElementRef, buf: &mut Inline) {
    match e.value().name() {
        "br" => buf.push_text(" "),
        "img" => {}
        "strong" | "b" | "code" | "kbd" => {
            let mut inner = Inline::default();
            inline_children(e, &mut inner);
            if inner.is_blank() && !matches!(e.value().name(), "code" | "kbd") {
                // A bold icon: its image's alt text is its name.
                inner.push_text(&icon_alt(e).unwrap_or_default());
            }
            let text = clean(&inner.text);
            buf.push_text(&inner.text);
            buf.bold.extend(inner.bold);
            buf.code.extend(inner.code);
            if matches!(e.value().name(), "code" | "kbd") {
                buf.code.push(text);
            } else {
                buf.bold.push(text);
            }
        }
        _ => inline_children(e, buf),
    }
}
