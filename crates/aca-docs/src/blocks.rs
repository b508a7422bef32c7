//! The page as a few kinds of blocks, the same for Markdown and HTML, so that one builder reads both.

/// A run of text with the spans the source marked: bold (UI labels) and code (values).
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Inline {
    pub text: String,
    pub bold: Vec<String>,
    pub code: Vec<String>,
}

impl Inline {
    pub fn push_text(&mut self, t: &str) {
        for ch in t.chars() {
            if ch.is_whitespace() {
                if !self.text.is_empty() && !self.text.ends_with(' ') {
                    self.text.push(' ');
                }
            } else {
                self.text.push(ch);
            }
        }
    }
    pub fn is_blank(&self) -> bool {
        self.text.trim().is_empty()
    }
    pub fn finish(mut self) -> Self {
        self.text = self.text.trim().to_string();
        self.bold.retain(|b| !b.is_empty());
        self.code.retain(|b| !b.is_empty());
        self
    }
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Block {
    Heading {
        level: u8,
        text: String,
    },
    Para(Inline),
    List {
        ordered: bool,
        start: u64,
        items: Vec<Item>,
    },
    Table {
        header: Vec<String>,
        rows: Vec<Vec<Inline>>,
    },
    Quote(Vec<Block>),
}

/// A list item: its first paragraph, then whatever else it holds (paragraphs, lists, tables).
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Item {
    pub inline: Inline,
    pub blocks: Vec<Block>,
}

/// Trimmed, whitespace collapsed.
pub(crate) fn clean(s: &str) -> String {
    let mut i = Inline::default();
    i.push_text(s);
    i.text.trim().to_string()
}
