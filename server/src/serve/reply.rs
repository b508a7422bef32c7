//! Splits generated text, as it streams, into reasoning (`<think>…</think>`), content, and tool
//! calls (`<tool_call>{"name": …, "arguments": …}</tool_call>`), holding back text that may be the
//! start of a marker so that no marker ever leaks into a streamed delta.

use serde_json::Value;

use super::protocol::{FunctionCall, ToolCall};

const THINK_OPEN: &str = "<think>";
const THINK_CLOSE: &str = "</think>";
const TOOL_OPEN: &str = "<tool_call>";
const TOOL_CLOSE: &str = "</tool_call>";

/// A piece of a reply ready to send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece {
    Reasoning(String),
    Content(String),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Nothing but whitespace yet: a `<think>` may open here.
    Start,
    Thinking,
    Content,
    ToolCall,
}

/// Why a tool-call block could not become a call.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the model wrote a tool call that is not {{\"name\", \"arguments\"}} JSON: {0}")]
pub struct BadToolCall(pub String);

pub struct ReplySplitter {
    state: State,
    /// Text not yet classified (it may be the start of a marker).
    pending: String,
    tools: bool,
    tool_blocks: Vec<String>,
    current_block: String,
    call_counter: u32,
    call_prefix: String,
}

impl ReplySplitter {
    /// `tools`: whether `<tool_call>` blocks are calls (tools were offered) or plain text.
    pub fn new(tools: bool, call_prefix: impl Into<String>) -> Self {
        ReplySplitter {
            state: State::Start,
            pending: String::new(),
            tools,
            tool_blocks: Vec::new(),
            current_block: String::new(),
            call_counter: 0,
            call_prefix: call_prefix.into(),
        }
    }

    /// Feeds newly generated text; returns what can be sent now.
    pub fn push(&mut self, text: &str) -> Vec<Piece> {
        self.pending.push_str(text);
        let mut out = Vec::new();
        loop {
            let progressed = match self.state {
                State::Start => self.at_start(),
                State::Thinking => self.until(THINK_CLOSE, State::Content, &mut out, Piece::Reasoning),
                State::Content => {
                    if self.tools {
                        self.until(TOOL_OPEN, State::ToolCall, &mut out, Piece::Content)
                    } else {
                        flush(&mut self.pending, &mut out, Piece::Content);
                        false
                    }
                }
                State::ToolCall => self.in_tool_call(),
            };
            if !progressed {
                break;
            }
        }
        merge(out)
    }

    /// Ends the reply: what was held back is sent, and the tool calls are parsed.
    pub fn finish(mut self) -> (Vec<Piece>, Result<Vec<ToolCall>, BadToolCall>) {
        let mut out = Vec::new();
        let rest = std::mem::take(&mut self.pending);
        match self.state {
            State::Thinking => out.push(Piece::Reasoning(rest)),
            State::ToolCall => {
                // An unclosed block is still the model's attempt at a call.
                self.current_block.push_str(&rest);
                let block = std::mem::take(&mut self.current_block);
                self.tool_blocks.push(block);
            }
            State::Start | State::Content => out.push(Piece::Content(rest)),
        }
        let calls = self
            .tool_blocks
            .iter()
            .map(|block| parse_tool_call(block))
            .collect::<Result<Vec<_>, _>>()
            .map(|calls| {
                calls
                    .into_iter()
                    .map(|(name, arguments)| {
                        self.call_counter += 1;
                        ToolCall {
                            id: format!("{}-{}", self.call_prefix, self.call_counter),
                            kind: "function".into(),
                            function: FunctionCall { name, arguments },
                        }
                    })
                    .collect()
            });
        (merge(out), calls)
    }

    fn at_start(&mut self) -> bool {
        let trimmed = self.pending.trim_start();
        if trimmed.is_empty() {
            return false;
        }
        if let Some(after) = trimmed.strip_prefix(THINK_OPEN) {
            self.pending = after.to_owned();
            self.state = State::Thinking;
            return true;
        }
        if THINK_OPEN.starts_with(trimmed) {
            return false;
        }
        self.state = State::Content;
        true
    }

    /// Sends text up to `marker` as `piece`, then switches to `next`; holds back a possible partial marker.
    fn until(&mut self, marker: &str, next: State, out: &mut Vec<Piece>, piece: fn(String) -> Piece) -> bool {
        if let Some(at) = self.pending.find(marker) {
            let before: String = self.pending[..at].to_owned();
            self.pending.drain(..at + marker.len());
            if !before.is_empty() {
                out.push(piece(before));
            }
            self.state = next;
            return true;
        }
        let keep = partial_marker_len(&self.pending, marker);
        let send: String = self.pending[..self.pending.len() - keep].to_owned();
        self.pending.drain(..self.pending.len() - keep);
        if !send.is_empty() {
            out.push(piece(send));
        }
        false
    }

    fn in_tool_call(&mut self) -> bool {
        if let Some(at) = self.pending.find(TOOL_CLOSE) {
            self.current_block.push_str(&self.pending[..at]);
            self.pending.drain(..at + TOOL_CLOSE.len());
            let block = std::mem::take(&mut self.current_block);
            self.tool_blocks.push(block);
            self.state = State::Content;
            return true;
        }
        let keep = partial_marker_len(&self.pending, TOOL_CLOSE);
        let take = self.pending.len() - keep;
        self.current_block.push_str(&self.pending[..take]);
        self.pending.drain(..take);
        false
    }
}

fn flush(pending: &mut String, out: &mut Vec<Piece>, piece: fn(String) -> Piece) {
    if !pending.is_empty() {
        out.push(piece(std::mem::take(pending)));
    }
}

/// The length of the longest suffix of `text` that is a proper prefix of `marker`.
fn partial_marker_len(text: &str, marker: &str) -> usize {
    (1..marker.len())
        .rev()
        .find(|&n| {
            text.len() >= n && text.is_char_boundary(text.len() - n) && marker.starts_with(&text[text.len() - n..])
        })
        .unwrap_or(0)
}

/// Joins neighbouring pieces of the same kind and drops empty ones.
fn merge(pieces: Vec<Piece>) -> Vec<Piece> {
    let mut out: Vec<Piece> = Vec::new();
    for piece in pieces {
        match (out.last_mut(), piece) {
            (_, Piece::Content(t) | Piece::Reasoning(t)) if t.is_empty() => {}
            (Some(Piece::Content(a)), Piece::Content(b)) => a.push_str(&b),
            (Some(Piece::Reasoning(a)), Piece::Reasoning(b)) => a.push_str(&b),
            (_, piece) => out.push(piece),
        }
    }
    out
}

/// `{"name": "f", "arguments": {…}}` → (name, arguments as JSON text).
fn parse_tool_call(block: &str) -> Result<(String, String), BadToolCall> {
    let value: Value = serde_json::from_str(block.trim()).map_err(|e| BadToolCall(format!("{e}: {}", block.trim())))?;
    let name = value
        .get("name")
        .and_then(Value::as_str)
        .ok_or_else(|| BadToolCall(format!("no \"name\": {}", block.trim())))?;
    let arguments = match value.get("arguments") {
        None | Some(Value::Null) => "{}".to_owned(),
        // Some models write the arguments as JSON text already.
        Some(Value::String(text)) => text.clone(),
        Some(other) => other.to_string(),
    };
    Ok((name.to_owned(), arguments))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stream(splitter: &mut ReplySplitter, text: &str, chunk: usize) -> Vec<Piece> {
        let chars: Vec<char> = text.chars().collect();
        let mut out = Vec::new();
        for part in chars.chunks(chunk) {
            out.extend(splitter.push(&part.iter().collect::<String>()));
        }
        out
    }

    fn joined(pieces: &[Piece]) -> (String, String) {
        let mut reasoning = String::new();
        let mut content = String::new();
        for piece in pieces {
            match piece {
                Piece::Reasoning(t) => reasoning.push_str(t),
                Piece::Content(t) => content.push_str(t),
            }
        }
        (reasoning, content)
    }

    #[test]
    fn thinking_content_and_tool_calls_are_separated_whatever_the_chunking() {
        let text = "<think>\nThe user wants a VPC.\n</think>\n\nCreating it now.\n<tool_call>\n{\"name\": \"create_vpc\", \"arguments\": {\"name\": \"web\", \"cidr\": \"10.0.0.0/8\"}}\n</tool_call>";
        for chunk in [1, 2, 3, 7, 1000] {
            let mut splitter = ReplySplitter::new(true, "call");
            let mut pieces = stream(&mut splitter, text, chunk);
            let (rest, calls) = splitter.finish();
            pieces.extend(rest);
            let (reasoning, content) = joined(&pieces);
            assert_eq!(reasoning, "\nThe user wants a VPC.\n", "chunk {chunk}");
            assert_eq!(content.trim(), "Creating it now.", "chunk {chunk}");
            assert!(!content.contains('<'), "a marker leaked at chunk {chunk}: {content:?}");
            let calls = calls.unwrap();
            assert_eq!(calls.len(), 1);
            assert_eq!(calls[0].function.name, "create_vpc");
            let arguments: Value = serde_json::from_str(&calls[0].function.arguments).unwrap();
            assert_eq!(arguments["cidr"], "10.0.0.0/8");
            assert_eq!(calls[0].id, "call-1");
        }
    }

    #[test]
    fn without_tools_a_tool_call_block_is_plain_text_and_a_lone_angle_bracket_is_not_held() {
        let mut splitter = ReplySplitter::new(false, "call");
        let mut pieces = splitter.push("a < b and <tool_call>{}</tool_call>");
        let (rest, calls) = splitter.finish();
        pieces.extend(rest);
        assert_eq!(joined(&pieces).1, "a < b and <tool_call>{}</tool_call>");
        assert!(calls.unwrap().is_empty());

        let mut splitter = ReplySplitter::new(true, "call");
        assert_eq!(splitter.push("x < y"), vec![Piece::Content("x < y".into())]);
        assert_eq!(splitter.push(" <tool"), vec![Piece::Content(" ".into())]);
    }

    #[test]
    fn a_malformed_tool_call_is_an_error_that_quotes_it() {
        let mut splitter = ReplySplitter::new(true, "call");
        splitter.push("<tool_call>{\"arguments\": {}}</tool_call>");
        let (_, calls) = splitter.finish();
        assert!(calls.unwrap_err().to_string().contains("no \"name\""));
        let mut splitter = ReplySplitter::new(true, "call");
        splitter.push("<tool_call>not json");
        let (_, calls) = splitter.finish();
        assert!(calls.unwrap_err().to_string().contains("not json"));
    }

    #[test]
    fn unfinished_thinking_is_reasoning_and_multibyte_text_is_never_split() {
        let mut splitter = ReplySplitter::new(true, "call");
        let mut pieces = splitter.push("<think>想一想");
        let (rest, _) = splitter.finish();
        pieces.extend(rest);
        assert_eq!(pieces, vec![Piece::Reasoning("想一想".into())]);
        let mut splitter = ReplySplitter::new(true, "call");
        let pieces = splitter.push("创建专有网络<");
        assert_eq!(pieces, vec![Piece::Content("创建专有网络".into())]);
    }
}
