//! Markdown → blocks, over pulldown-cmark's event stream.

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

use crate::blocks::{Block, Inline, Item, clean};

enum Frame {
    Root(Vec<Block>),
    Quote(Vec<Block>),
    List {
        ordered: bool,
        start: u64,
        items: Vec<Item>,
    },
    Item(Item),
    Table {
        header: Vec<String>,
        rows: Vec<Vec<Inline>>,
        row: Vec<Inline>,
        in_head: bool,
    },
}

pub(crate) fn blocks(src: &str) -> Vec<Block> {
    let mut frames = vec![Frame::Root(Vec::new())];
    let mut buf = Inline::default();
    let mut strong_at: Vec<usize> = Vec::new();
    let mut image_depth = 0usize;

    fn push(frames: &mut [Frame], block: Block) {
        match frames.last_mut() {
            Some(Frame::Root(v)) | Some(Frame::Quote(v)) => v.push(block),
            Some(Frame::Item(item)) => match block {
                Block::Para(p) if item.inline.is_blank() && item.blocks.is_empty() => item.inline = p,
                b => item.blocks.push(b),
            },
            _ => {}
        }
    }
    fn flush_tight(frames: &mut [Frame], buf: &mut Inline) {
        if matches!(frames.last(), Some(Frame::Item(_))) && !buf.is_blank() {
            let p = std::mem::take(buf).finish();
            push(frames, Block::Para(p));
        }
    }

    for ev in Parser::new_ext(src, Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH) {
        match ev {
            Event::Start(tag) => match tag {
                Tag::Paragraph | Tag::Heading { .. } => {
                    flush_tight(&mut frames, &mut buf);
                    buf = Inline::default();
                }
                Tag::BlockQuote(_) => {
                    flush_tight(&mut frames, &mut buf);
                    frames.push(Frame::Quote(Vec::new()));
                }
                Tag::List(start) => {
                    flush_tight(&mut frames, &mut buf);
                    frames.push(Frame::List {
                        ordered: start.is_some(),
                        start: start.unwrap_or(1),
                        items: Vec::new(),
                    });
                }
                Tag::Item => {
                    buf = Inline::default();
                    frames.push(Frame::Item(Item::default()));
                }
                Tag::Table(_) => {
                    flush_tight(&mut frames, &mut buf);
                    frames.push(Frame::Table {
                        header: Vec::new(),
                        rows: Vec::new(),
                        row: Vec::new(),
                        in_head: false,
                    });
                }
                Tag::TableHead => {
                    if let Some(Frame::Table { in_head, .. }) = frames.last_mut() {
                        *in_head = true;
                    }
                }
                Tag::TableCell => buf = Inline::default(),
                Tag::Strong => strong_at.push(buf.text.len()),
                Tag::Image { .. } => image_depth += 1,
                _ => {}
            },
            Event::End(end) => match end {
                TagEnd::Paragraph => {
                    let p = std::mem::take(&mut buf).finish();
                    if !p.is_blank() {
                        push(&mut frames, Block::Para(p));
                    }
                }
                TagEnd::Heading(level) => {
                    let text = std::mem::take(&mut buf).finish().text;
                    push(
                        &mut frames,
                        Block::Heading {
                            level: level as u8,
                            text,
                        },
                    );
                }
                TagEnd::BlockQuote(_) => {
                    if let Some(Frame::Quote(v)) = frames.pop() {
                        push(&mut frames, Block::Quote(v));
                    }
                }
                TagEnd::Item => {
                    flush_tight(&mut frames, &mut buf);
                    if let Some(Frame::Item(item)) = frames.pop()
                        && let Some(Frame::List { items, .. }) = frames.last_mut()
                    {
                        items.push(item);
                    }
                }
                TagEnd::List(_) => {
                    if let Some(Frame::List { ordered, start, items }) = frames.pop() {
                        push(&mut frames, Block::List { ordered, start, items });
                    }
                }
                TagEnd::TableCell => {
                    let cell = std::mem::take(&mut buf).finish();
                    if let Some(Frame::Table {
                        header, row, in_head, ..
                    }) = frames.last_mut()
                    {
                        if *in_head {
                            header.push(cell.text);
                        } else {
                            row.push(cell);
                        }
                    }
                }
                TagEnd::TableHead => {
                    if let Some(Frame::Table { in_head, .. }) = frames.last_mut() {
                        *in_head = false;
                    }
                }
                TagEnd::TableRow => {
                    if let Some(Frame::Table { rows, row, .. }) = frames.last_mut() {
                        rows.push(std::mem::take(row));
                    }
                }
                TagEnd::Table => {
                    if let Some(Frame::Table { header, rows, .. }) = frames.pop() {
                        push(&mut frames, Block::Table { header, rows });
                    }
                }
                TagEnd::Strong => {
                    if let Some(at) = strong_at.pop() {
                        let s = clean(&buf.text[at.min(buf.text.len())..]);
                        buf.bold.push(s);
                    }
                }
                TagEnd::Image => image_depth = image_depth.saturating_sub(1),
                _ => {}
            },
            // An image inside bold is an icon button: its alt text is its name.
            Event::Text(t) if image_depth == 0 || !strong_at.is_empty() => buf.push_text(&t),
            Event::Code(c) => {
                buf.push_text(&c);
                buf.code.push(clean(&c));
            }
            Event::SoftBreak | Event::HardBreak => buf.push_text(" "),
            _ => {}
        }
    }
    match frames.into_iter().next() {
        Some(Frame::Root(v)) => v,
        _ => Vec::new(),
    }
}
