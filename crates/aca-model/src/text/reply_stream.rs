//! The streaming counterpart of [`parse_assistant_reply`](crate::text::parse_assistant_reply): text
//! pieces in, reasoning and content deltas and whole tool calls out, as an OpenAI stream sends them.
//!
//! A piece that might be the start of a tag (`<thi`, `</tool`) is held until the next piece decides
//! it, so no tag text ever leaks into a delta. Leading and trailing whitespace of the reasoning and
//! the content is dropped as the non-streaming parser trims it, so the deltas of a whole reply add up
//! to exactly what `parse_assistant_reply` returns for its full text.

use crate::text::TextError;
use crate::text::reply::{ParsedToolCall, THINK_END, THINK_START, TOOL_CALL_END, TOOL_CALL_START, parse_call};

/// One change to the reply as it streams.
#[derive(Clone, Debug, PartialEq)]
pub enum ReplyDelta {
    Reasoning(String),
    Content(String),
    /// A complete tool call, sent once its closing tag arrives.
    ToolCall(ParsedToolCall),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Section {
    /// Nothing decided yet: the reply may open with `<think>`.
    Start,
    Reasoning,
    Content,
    /// Inside `<tool_call>…`: the body is gathered until `</tool_call>`.
    ToolCall,
}

/// Incremental reply parser for one sequence.
#[derive(Clone, Debug)]
pub struct ReplyStream {
    section: Section,
    /// Text received but not yet attributed (a possible tag start, a tool-call body).
    buffer: String,
    /// Whitespace at the end of the section so far, sent only if more text follows it.
    trailing_space: String,
    /// Whether the current section has sent any text (its leading whitespace is dropped).
    section_started: bool,
    tool_calls: usize,
    /// Whether `<tool_call>` blocks become tool calls (else they stay content, as text).
    parse_tool_calls: bool,
}

impl ReplyStream {
    /// `reasoning_open`: the prompt already ends inside `<think>` (thinking templates that open it for
    /// the model), so the reply begins as reasoning. Otherwise a reply that opens with `<think>` is
    /// reasoning up to `</think>`, and any other reply is content.
    pub fn new(reasoning_open: bool) -> Self {
        Self {
            section: if reasoning_open {
                Section::Reasoning
            } else {
                Section::Start
            },
            buffer: String::new(),
            trailing_space: String::new(),
            section_started: false,
            tool_calls: 0,
            parse_tool_calls: true,
        }
    }

    /// A stream that leaves `<tool_call>` blocks in the content as text: for replies where no tool
    /// may be called (OpenAI's `tool_choice: "none"`, or no tools offered).
    pub fn without_tool_calls(mut self) -> Self {
        self.parse_tool_calls = false;
        self
    }

    /// Feeds the next piece of generated text (from the incremental decoder).
    pub fn push(&mut self, text: &str) -> Result<Vec<ReplyDelta>, TextError> {
        self.buffer.push_str(text);
        let mut deltas = Vec::new();
        while self.step(&mut deltas)? {}
        Ok(deltas)
    }

    /// Ends the reply: text held as a possible tag start is sent; an unclosed tool call is an error.
    pub fn finish(&mut self) -> Result<Vec<ReplyDelta>, TextError> {
        let mut deltas = Vec::new();
        let rest = std::mem::take(&mut self.buffer);
        match self.section {
            Section::ToolCall => {
                return Err(TextError::MalformedToolCall {
                    index: self.tool_calls,
                    reason: format!("no closing {TOOL_CALL_END}"),
                });
            }
            Section::Start | Section::Content => self.send(Section::Content, &rest, &mut deltas),
            Section::Reasoning => self.send(Section::Reasoning, &rest, &mut deltas),
        }
        Ok(deltas)
    }

    /// Ends a reply cut off by the token limit: an unclosed tool call cannot be parsed, so it is sent
    /// as content, tag and all, as far as it came (the caller reports `finish_reason: "length"`).
    pub fn finish_cut(&mut self) -> Vec<ReplyDelta> {
        if self.section == Section::ToolCall {
            let text = format!("{TOOL_CALL_START}{}", std::mem::take(&mut self.buffer));
            self.section = Section::Content;
            let mut deltas = Vec::new();
            self.send(Section::Content, &text, &mut deltas);
            return deltas;
        }
        self.finish().unwrap_or_default()
    }

    /// Attributes as much of the buffer as can be decided; returns whether it changed section.
    fn step(&mut self, deltas: &mut Vec<ReplyDelta>) -> Result<bool, TextError> {
        match self.section {
            Section::Start => {
                let trimmed = self.buffer.trim_start();
                if let Some(after) = trimmed.strip_prefix(THINK_START) {
                    self.buffer = after.to_string();
                    self.enter(Section::Reasoning);
                    Ok(true)
                } else if THINK_START.starts_with(trimmed) {
                    Ok(false)
                } else {
                    self.enter(Section::Content);
                    Ok(true)
                }
            }
            Section::Reasoning => Ok(self.send_until(THINK_END, Section::Reasoning, Section::Content, deltas)),
            Section::Content if !self.parse_tool_calls => {
                let text = std::mem::take(&mut self.buffer);
                self.send(Section::Content, &text, deltas);
                Ok(false)
            }
            Section::Content => Ok(self.send_until(TOOL_CALL_START, Section::Content, Section::ToolCall, deltas)),
            Section::ToolCall => {
                let Some(end) = self.buffer.find(TOOL_CALL_END) else {
                    return Ok(false);
                };
                let call = parse_call(self.tool_calls, self.buffer[..end].trim())?;
                self.tool_calls += 1;
                deltas.push(ReplyDelta::ToolCall(call));
                self.buffer.drain(..end + TOOL_CALL_END.len());
                // Back in content, keeping its whitespace state: text between calls joins the content.
                self.section = Section::Content;
                Ok(true)
            }
        }
    }

    /// Sends the buffer as `kind` up to `tag` (then switches to `next`), or up to a possible start of
    /// `tag` at its end. Returns whether the tag was found.
    fn send_until(&mut self, tag: &str, kind: Section, next: Section, deltas: &mut Vec<ReplyDelta>) -> bool {
        if let Some(start) = self.buffer.find(tag) {
            let before = self.buffer[..start].to_string();
            self.buffer.drain(..start + tag.len());
            self.send(kind, &before, deltas);
            if next == Section::ToolCall {
                self.section = next;
            } else {
                self.enter(next);
            }
            return true;
        }
        let keep = longest_tag_prefix_at_end(&self.buffer, tag);
        let sendable: String = self.buffer.drain(..self.buffer.len() - keep).collect();
        self.send(kind, &sendable, deltas);
        false
    }

    fn enter(&mut self, section: Section) {
        self.section = section;
        self.trailing_space.clear();
        self.section_started = false;
    }

    /// Sends `text` as a delta of `kind`, dropping the section's leading whitespace and holding its
    /// trailing whitespace until more text follows.
    fn send(&mut self, kind: Section, text: &str, deltas: &mut Vec<ReplyDelta>) {
        let text = if self.section_started { text } else { text.trim_start() };
        let body = text.trim_end();
        if body.is_empty() {
            if self.section_started {
                self.trailing_space.push_str(text);
            }
            return;
        }
        let mut delta = std::mem::take(&mut self.trailing_space);
        delta.push_str(body);
        self.trailing_space.push_str(&text[body.len()..]);
        self.section_started = true;
        deltas.push(match kind {
            Section::Reasoning => ReplyDelta::Reasoning(delta),
            _ => ReplyDelta::Content(delta),
        });
    }
}

/// Length of the longest end of `text` that is a proper beginning of `tag`.
fn longest_tag_prefix_at_end(text: &str, tag: &str) -> usize {
    let longest = tag.len().saturating_sub(1).min(text.len());
    (1..=longest)
        .rev()
        .find(|&len| {
            let start = text.len() - len;
            text.is_char_boundary(start) && text.as_bytes()[start..] == tag.as_bytes()[..len]
        })
        .unwrap_or(0)
}
