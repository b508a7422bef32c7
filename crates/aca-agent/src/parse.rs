//! The tolerant reply parser: a model's reply → one [`Thought`] and exactly one [`Action`], or a
//! typed [`ParseError`] whose message goes back to the model as a retry request.
//!
//! Accepted forms: labelled lines (`Thought:` / `Progress:` / `Observation:` / `Next:` and
//! `Action: click(12)`), a JSON object (`{"action": "click", "index": 12}`, the aca-core shape, or
//! `{"thought": …, "action": …}`), either inside ``` fences or with prose around, and call syntax
//! with positional or keyword arguments (`type(index=3, text="vpc-prod")`).

use aca_core::{Action, ControlAction, GuiAction, ScrollDirection, Thought};
use serde_json::{Map, Value};

/// What a reply said.
#[derive(Debug, Clone, PartialEq)]
pub struct ParsedReply {
    pub thought: Thought,
    pub action: Action,
    /// The documented step the reply says it works on (`Step: 4`, or "step 4" in its progress).
    pub step: Option<String>,
}

/// Why a reply could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseError {
    #[error("the reply is empty")]
    Empty,
    #[error("the reply names no action")]
    NoAction,
    #[error("the reply names {} actions ({}); exactly one is allowed per turn", .0.len(), .0.join(", "))]
    MultipleActions(Vec<String>),
    #[error("`{0}` is not an action")]
    UnknownAction(String),
    #[error("`{action}`: {problem}")]
    BadArguments { action: String, problem: String },
    #[error("cannot read the call `{call}`: {problem}")]
    Syntax { call: String, problem: String },
}

impl ParseError {
    /// The retry request the model reads.
    pub fn retry_message(&self) -> String {
        format!(
            "Your last reply could not be used: {self}. Reply again with a Thought (Progress, Observation, Next) \
             and exactly one line `Action: <call>`, for example `Action: click(12)` or \
             `Action: type(3, \"vpc-prod\")`."
        )
    }
}

/// The action names the grammar knows.
pub const ACTION_NAMES: &[&str] = &[
    "click",
    "type",
    "select",
    "hover",
    "press",
    "scroll",
    "goto",
    "wait",
    "request_resource",
    "task_complete",
    "task_unachievable",
];

/// Reads one reply.
pub fn parse_reply(reply: &str) -> Result<ParsedReply, ParseError> {
    let without_thinking = strip_thinking(reply);
    let text = without_thinking.trim();
    if text.is_empty() {
        return Err(ParseError::Empty);
    }
    // Code fences first: a fenced block is what the model meant as its answer.
    for block in fenced_blocks(text) {
        if let Some(result) = parse_json_reply(&block) {
            return result;
        }
        if let Some(result) = parse_labelled(&block, text) {
            return result;
        }
    }
    if let Some(result) = parse_json_reply(text) {
        return result.map(|mut parsed| {
            if parsed.thought == Thought::default() {
                // `Thought: …` lines before a JSON action.
                parsed.thought = labelled_thought(text);
            }
            parsed
        });
    }
    parse_labelled(text, text).unwrap_or(Err(ParseError::NoAction))
}

/// The labelled thought lines of a reply, whatever its action looks like.
fn labelled_thought(text: &str) -> Thought {
    let mut thought = Thought::default();
    for raw in text.lines() {
        let line = raw.trim().trim_start_matches(['*', '#', '-', '>', ' ']).trim();
        if let Some((label, rest)) = split_label(line)
            && !["action", "step", "doc_check"].contains(&label)
        {
            append(field_mut(&mut thought, label), rest);
        }
    }
    thought
}

/// The reply without `<think>…</think>` reasoning (Qwen3's thinking mode): calls mentioned while
/// thinking are not the answer. An unclosed block is reasoning cut short: nothing after it counts.
fn strip_thinking(reply: &str) -> String {
    let mut out = String::with_capacity(reply.len());
    let mut rest = reply;
    while let Some(start) = rest.find("<think>") {
        out.push_str(&rest[..start]);
        match rest[start..].find("</think>") {
            Some(end) => rest = &rest[start + end + "</think>".len()..],
            None => return out,
        }
    }
    out.push_str(rest);
    out
}

/// The contents of ``` fenced blocks, in order.
fn fenced_blocks(text: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("```") {
        let after = &rest[start + 3..];
        // Skip a language tag on the opening line.
        let body_start = after.find('\n').map_or(after.len(), |n| n + 1);
        let tag = &after[..body_start];
        let body_from = if tag.trim().chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            body_start
        } else {
            0
        };
        let body = &after[body_from..];
        match body.find("```") {
            Some(end) => {
                blocks.push(body[..end].to_owned());
                rest = &body[end + 3..];
            }
            None => {
                blocks.push(body.to_owned());
                break;
            }
        }
    }
    blocks
}

// ---------------------------------------------------------------------------------------------
// JSON replies

/// `Some` when the text holds a JSON object with an `action` key.
fn parse_json_reply(text: &str) -> Option<Result<ParsedReply, ParseError>> {
    let object = json_objects(text).into_iter().find(|o| o.contains_key("action"))?;
    let thought = object.get("thought").map(thought_from_json).unwrap_or_default();
    let step = object.get("step").and_then(value_text);
    let action = match object.get("action") {
        Some(Value::Object(inner)) => action_from_json(inner),
        Some(Value::String(name)) if name.contains('(') => parse_call(name),
        Some(Value::String(_)) => action_from_json(&object),
        _ => Err(ParseError::NoAction),
    };
    Some(action.map(|action| ParsedReply {
        step: step.or_else(|| step_in(&thought.progress)),
        thought,
        action,
    }))
}

/// Every top-level `{…}` in the text that parses as a JSON object.
fn json_objects(text: &str) -> Vec<Map<String, Value>> {
    let mut found = Vec::new();
    let mut search_from = 0;
    while let Some(offset) = text[search_from..].find('{') {
        let start = search_from + offset;
        let mut stream = serde_json::Deserializer::from_str(&text[start..]).into_iter::<Value>();
        match stream.next() {
            Some(Ok(Value::Object(map))) => {
                search_from = start + stream.byte_offset();
                found.push(map);
            }
            _ => search_from = start + 1,
        }
    }
    found
}

fn thought_from_json(value: &Value) -> Thought {
    match value {
        Value::String(s) => Thought {
            progress: s.clone(),
            ..Thought::default()
        },
        Value::Object(map) => {
            let field = |keys: &[&str]| {
                keys.iter()
                    .find_map(|k| map.get(*k).and_then(value_text))
                    .unwrap_or_default()
            };
            Thought {
                progress: field(&["progress", "evaluation", "memory"]),
                observation: field(&["observation", "ui", "page"]),
                next_goal: field(&["next_goal", "next", "next_sub_goal", "goal"]),
            }
        }
        _ => Thought::default(),
    }
}

fn value_text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// A JSON action: `{"action": "click", "index": 12}` with tolerated aliases and string numbers.
fn action_from_json(map: &Map<String, Value>) -> Result<Action, ParseError> {
    let name = match map
        .get("action")
        .or_else(|| map.get("name"))
        .or_else(|| map.get("type"))
    {
        Some(Value::String(name)) => canonical_name(name)?,
        _ => return Err(ParseError::NoAction),
    };
    let mut args = Args::default();
    let args_map = match map
        .get("args")
        .or_else(|| map.get("arguments"))
        .or_else(|| map.get("params"))
    {
        Some(Value::Object(inner)) => inner,
        _ => map,
    };
    for (key, value) in args_map {
        if matches!(key.as_str(), "action" | "name" | "thought" | "step") {
            continue;
        }
        let arg = match value {
            Value::String(s) => Arg::Text(s.clone()),
            Value::Number(n) => match n.as_u64() {
                Some(i) => Arg::Int(i),
                None => Arg::Word(n.to_string()),
            },
            Value::Bool(b) => Arg::Bool(*b),
            Value::Null => continue,
            other => Arg::Word(other.to_string()),
        };
        args.keyword.push((key.to_ascii_lowercase(), arg));
    }
    build_action(&name, args)
}

// ---------------------------------------------------------------------------------------------
// Labelled replies

/// `None` when the text has neither an `Action:` line nor any call of a known action.
fn parse_labelled(text: &str, whole_reply: &str) -> Option<Result<ParsedReply, ParseError>> {
    let mut thought = Thought::default();
    let mut step = None;
    let mut action_lines = Vec::new();
    let mut current: Option<&'static str> = None;
    for raw in text.lines() {
        let line = raw.trim().trim_start_matches(['*', '#', '-', '>', ' ']).trim();
        if let Some((label, rest)) = split_label(line) {
            current = Some(label);
            match label {
                "action" => {
                    if !rest.is_empty() {
                        action_lines.push(rest.to_owned());
                    }
                    continue;
                }
                "step" => {
                    step = Some(rest.trim_matches(['.', ' ']).to_owned());
                    continue;
                }
                "doc_check" => continue,
                _ => {}
            }
            append(field_mut(&mut thought, label), rest);
            continue;
        }
        match current {
            Some("action") if action_lines.is_empty() && !line.is_empty() => action_lines.push(line.to_owned()),
            Some(label) if !["action", "step", "doc_check"].contains(&label) && !line.is_empty() => {
                append(field_mut(&mut thought, label), line)
            }
            _ => {}
        }
    }
    let calls: Vec<String> = if action_lines.is_empty() {
        find_calls(text)
    } else {
        action_lines.iter().flat_map(|l| find_calls(l)).collect()
    };
    if calls.is_empty() {
        if action_lines.is_empty() {
            return None;
        }
        return Some(Err(bare_action_error(&action_lines[0])));
    }
    let mut distinct: Vec<String> = Vec::new();
    for call in calls {
        if !distinct.contains(&call) {
            distinct.push(call);
        }
    }
    if distinct.len() > 1 {
        return Some(Err(ParseError::MultipleActions(distinct)));
    }
    if thought == Thought::default() && text != whole_reply {
        // A fenced block held only the action: the thought is the prose around it.
        thought.progress = whole_reply.split("```").next().unwrap_or_default().trim().to_owned();
    }
    let step = step.or_else(|| step_in(&thought.progress));
    Some(parse_call(&distinct[0]).map(|action| ParsedReply { thought, action, step }))
}

/// An `Action:` line that holds no call: a bare name (`click`) or an unknown one (`fly(3)`).
fn bare_action_error(line: &str) -> ParseError {
    let word: String = line
        .trim()
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    match canonical_name(&word) {
        Ok(name) => ParseError::BadArguments {
            action: name,
            problem: "write it as a call with its arguments in parentheses".into(),
        },
        Err(_) if word.is_empty() => ParseError::NoAction,
        Err(err) => err,
    }
}

fn split_label(line: &str) -> Option<(&'static str, &str)> {
    let (head, rest) = line.split_once(':')?;
    let head = head.trim().trim_matches('*').trim().to_ascii_lowercase();
    let label = match head.as_str() {
        "thought" | "thinking" | "reasoning" => "thought",
        "progress" | "evaluation" | "memory" => "progress",
        "observation" | "ui" | "page" => "observation",
        "next" | "next goal" | "next_goal" | "next sub-goal" | "next subgoal" | "goal" => "next",
        "action" => "action",
        "step" | "current step" => "step",
        // A claim about the page (read from the raw reply by the review), not part of the thought.
        "doc check" => "doc_check",
        _ => return None,
    };
    Some((label, rest.trim().trim_matches('*').trim()))
}

fn field_mut<'a>(thought: &'a mut Thought, label: &str) -> &'a mut String {
    match label {
        "observation" => &mut thought.observation,
        "next" => &mut thought.next_goal,
        _ => &mut thought.progress,
    }
}

fn append(target: &mut String, text: &str) {
    if text.is_empty() {
        return;
    }
    if !target.is_empty() {
        target.push(' ');
    }
    target.push_str(text);
}

/// "Step 4 of 6", "step 5.2" → the number.
fn step_in(text: &str) -> Option<String> {
    let lower = text.to_ascii_lowercase();
    let at = lower.find("step ")?;
    let number: String = lower[at + 5..]
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    let number = number.trim_end_matches('.');
    (!number.is_empty()).then(|| number.to_owned())
}

/// Every `name(…)` call of a known action in the text, as written (balanced, strings respected).
fn find_calls(text: &str) -> Vec<String> {
    let mut calls = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let starts_word = i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_');
        if !starts_word || !bytes[i].is_ascii_alphabetic() {
            i += 1;
            continue;
        }
        let word_end = i + text[i..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(text.len() - i);
        let word = &text[i..word_end];
        let after = text[word_end..].trim_start();
        let paren = text.len() - after.len();
        if after.starts_with('(') && canonical_name(word).is_ok() {
            if let Some(close) = matching_paren(text, paren) {
                calls.push(text[i..=close].to_owned());
                i = close + 1;
                continue;
            }
            calls.push(text[i..].trim_end().to_owned());
            break;
        }
        i = word_end.max(i + 1);
    }
    calls
}

/// The index of the `)` closing the `(` at `open`, skipping string literals.
fn matching_paren(text: &str, open: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (offset, c) in text[open..].char_indices() {
        if let Some(q) = quote {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '"' | '\'' => quote = Some(c),
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(open + offset);
                }
            }
            _ => {}
        }
    }
    None
}

// ---------------------------------------------------------------------------------------------
// Call syntax

#[derive(Debug, Clone, PartialEq)]
enum Arg {
    Int(u64),
    Text(String),
    Bool(bool),
    /// A bare word (`down`, `Enter`) or a number that is no index.
    Word(String),
}

#[derive(Debug, Default)]
struct Args {
    positional: Vec<Arg>,
    keyword: Vec<(String, Arg)>,
}

/// `click(12)`, `type(3, "vpc-prod")`, `scroll(index=4, direction="down")`.
pub fn parse_call(call: &str) -> Result<Action, ParseError> {
    // Typographic quotes, as some models and editors write them, are plain quotes here.
    let call = call.replace(['“', '”'], "\"").replace(['‘', '’'], "'");
    let call = call.trim().trim_end_matches([';', '.', '`']).trim();
    let syntax = |problem: &str| ParseError::Syntax {
        call: call.to_owned(),
        problem: problem.to_owned(),
    };
    let open = call.find('(').ok_or_else(|| syntax("no opening parenthesis"))?;
    let name = canonical_name(call[..open].trim())?;
    let close = matching_paren(call, open).ok_or_else(|| syntax("no closing parenthesis"))?;
    let args = parse_args(&call[open + 1..close]).map_err(|problem| syntax(&problem))?;
    build_action(&name, args)
}

fn canonical_name(name: &str) -> Result<String, ParseError> {
    let lower = name.trim().to_ascii_lowercase().replace('-', "_");
    let canonical = match lower.as_str() {
        "click" | "click_element" | "tap" => "click",
        "type" | "input" | "input_text" | "type_text" | "fill" | "enter" => "type",
        "select" | "select_option" | "choose" => "select",
        "hover" => "hover",
        "press" | "press_key" | "key" | "send_keys" => "press",
        "scroll" => "scroll",
        "goto" | "go_to" | "navigate" | "open_url" => "goto",
        "wait" => "wait",
        "request_resource" => "request_resource",
        "task_complete" | "done" | "complete" | "finish" => "task_complete",
        "task_unachievable" | "unachievable" | "fail" => "task_unachievable",
        _ => return Err(ParseError::UnknownAction(name.trim().to_owned())),
    };
    Ok(canonical.to_owned())
}

fn parse_args(inner: &str) -> Result<Args, String> {
    let mut args = Args::default();
    let chars: Vec<char> = inner.chars().collect();
    let mut i = 0;
    loop {
        while i < chars.len() && chars[i].is_whitespace() {
            i += 1;
        }
        if i >= chars.len() {
            break;
        }
        // A keyword: `name=` (but not `==`).
        let mut keyword = None;
        let mut j = i;
        while j < chars.len() && (chars[j].is_ascii_alphanumeric() || chars[j] == '_') {
            j += 1;
        }
        let mut k = j;
        while k < chars.len() && chars[k].is_whitespace() {
            k += 1;
        }
        if j > i && k < chars.len() && (chars[k] == '=' || chars[k] == ':') && chars[i].is_ascii_alphabetic() {
            keyword = Some(chars[i..j].iter().collect::<String>().to_ascii_lowercase());
            i = k + 1;
            while i < chars.len() && chars[i].is_whitespace() {
                i += 1;
            }
        }
        let (arg, next) = read_value(&chars, i)?;
        match keyword {
            Some(key) => args.keyword.push((key, arg)),
            None if !args.keyword.is_empty() => return Err("a positional argument follows a keyword argument".into()),
            None => args.positional.push(arg),
        }
        i = next;
        while i < chars.len() && chars[i].is_whitespace() {
            i += 1;
        }
        if i < chars.len() {
            if chars[i] != ',' {
                return Err(format!(
                    "expected a comma before `{}`",
                    chars[i..].iter().collect::<String>()
                ));
            }
            i += 1;
        }
    }
    Ok(args)
}

fn read_value(chars: &[char], start: usize) -> Result<(Arg, usize), String> {
    let Some(&first) = chars.get(start) else {
        return Err("an argument is missing".into());
    };
    if first == '"' || first == '\'' {
        let mut text = String::new();
        let mut i = start + 1;
        while i < chars.len() {
            let c = chars[i];
            if c == '\\' && i + 1 < chars.len() {
                let escaped = chars[i + 1];
                text.push(match escaped {
                    'n' => '\n',
                    't' => '\t',
                    other => other,
                });
                i += 2;
                continue;
            }
            if c == first {
                return Ok((Arg::Text(text), i + 1));
            }
            text.push(c);
            i += 1;
        }
        return Err("a string is not closed".into());
    }
    if first == '[' {
        // `click([12])`: an index written the way the page shows it.
        let close = chars[start..]
            .iter()
            .position(|c| *c == ']')
            .ok_or("a `[` is not closed")?;
        let inner: String = chars[start + 1..start + close].iter().collect();
        return match inner.trim().parse::<u64>() {
            Ok(n) => Ok((Arg::Int(n), start + close + 1)),
            Err(_) => Err(format!("`[{inner}]` is not an element index")),
        };
    }
    let mut i = start;
    while i < chars.len() && chars[i] != ',' {
        i += 1;
    }
    let word: String = chars[start..i].iter().collect::<String>().trim().to_owned();
    let arg = if let Ok(n) = word.parse::<u64>() {
        Arg::Int(n)
    } else {
        match word.to_ascii_lowercase().as_str() {
            "true" => Arg::Bool(true),
            "false" => Arg::Bool(false),
            _ => Arg::Word(word),
        }
    };
    Ok((arg, i))
}

impl Args {
    fn take(&mut self, keys: &[&str], position: usize) -> Option<Arg> {
        if let Some(at) = self.keyword.iter().position(|(k, _)| keys.contains(&k.as_str())) {
            return Some(self.keyword.remove(at).1);
        }
        self.positional
            .get_mut(position)
            .map(|a| std::mem::replace(a, Arg::Word(String::new())))
    }

    fn positional_count(&self) -> usize {
        self.positional.len()
    }
}

const INDEX_KEYS: &[&str] = &["index", "element", "element_index", "element_id", "id", "idx"];

fn build_action(name: &str, mut args: Args) -> Result<Action, ParseError> {
    let bad = |problem: &str| ParseError::BadArguments {
        action: name.to_owned(),
        problem: problem.to_owned(),
    };
    let index = |arg: Option<Arg>| -> Result<u32, ParseError> {
        match arg {
            Some(Arg::Int(n)) => u32::try_from(n).map_err(|_| bad("the element index is too large")),
            Some(Arg::Text(s)) | Some(Arg::Word(s)) => s
                .trim()
                .trim_matches(['[', ']'])
                .parse::<u32>()
                .map_err(|_| bad(&format!("`{s}` is not an element index"))),
            Some(Arg::Bool(_)) => Err(bad("the element index must be a number")),
            None => Err(bad("the element index is missing")),
        }
    };
    let text = |arg: Option<Arg>, what: &str| -> Result<String, ParseError> {
        match arg {
            Some(Arg::Text(s)) | Some(Arg::Word(s)) => Ok(s),
            Some(Arg::Int(n)) => Ok(n.to_string()),
            Some(Arg::Bool(b)) => Ok(b.to_string()),
            None => Err(bad(&format!("{what} is missing"))),
        }
    };
    let gui = match name {
        "click" | "hover" => {
            let i = index(args.take(INDEX_KEYS, 0))?;
            if name == "click" {
                GuiAction::Click { index: i }
            } else {
                GuiAction::Hover { index: i }
            }
        }
        "type" => {
            let i = index(args.take(INDEX_KEYS, 0))?;
            let t = text(args.take(&["text", "value", "content", "input"], 1), "the text to type")?;
            let submit = matches!(args.take(&["submit", "enter", "press_enter"], 2), Some(Arg::Bool(true)));
            GuiAction::Type {
                index: i,
                text: t,
                submit,
            }
        }
        "select" => {
            let i = index(args.take(INDEX_KEYS, 0))?;
            let option = text(args.take(&["option", "value", "text", "label"], 1), "the option")?;
            GuiAction::Select { index: i, option }
        }
        "press" => {
            let (key, at) = if args.positional_count() >= 2 {
                (args.take(&["key", "keys"], 1), args.take(INDEX_KEYS, 0))
            } else {
                (args.take(&["key", "keys"], 0), args.take(INDEX_KEYS, usize::MAX))
            };
            let key = text(key, "the key")?;
            let index = at.map(|a| index(Some(a))).transpose()?;
            GuiAction::Press { key, index }
        }
        "scroll" => {
            let (direction, at) = if args.positional_count() >= 2 {
                (args.take(&["direction", "dir"], 1), args.take(INDEX_KEYS, 0))
            } else {
                (args.take(&["direction", "dir"], 0), args.take(INDEX_KEYS, usize::MAX))
            };
            let direction = match direction.map(|d| text(Some(d), "the direction")).transpose()? {
                None => ScrollDirection::Down,
                Some(d) => match d.trim().to_ascii_lowercase().as_str() {
                    "down" => ScrollDirection::Down,
                    "up" => ScrollDirection::Up,
                    "left" => ScrollDirection::Left,
                    "right" => ScrollDirection::Right,
                    other => return Err(bad(&format!("`{other}` is no direction (up, down, left, right)"))),
                },
            };
            let index = at.map(|a| index(Some(a))).transpose()?;
            GuiAction::Scroll { direction, index }
        }
        "goto" => GuiAction::Goto {
            url: text(args.take(&["url", "href"], 0), "the URL")?,
        },
        "wait" => {
            let ms = match args.take(&["ms", "milliseconds", "timeout"], 0) {
                Some(Arg::Int(n)) => Some(u32::try_from(n).map_err(|_| bad("the wait is too long"))?),
                Some(Arg::Word(w)) if w.is_empty() => None,
                None => None,
                Some(other) => return Err(bad(&format!("{other:?} is no number of milliseconds"))),
            };
            GuiAction::Wait { ms }
        }
        "request_resource" => {
            return Ok(Action::Control(ControlAction::RequestResource {
                description: text(args.take(&["description", "resource", "what"], 0), "the description")?,
            }));
        }
        "task_complete" => {
            let summary = match args.take(&["summary", "result", "message"], 0) {
                None => String::new(),
                some => text(some, "the summary")?,
            };
            return Ok(Action::Control(ControlAction::TaskComplete { summary }));
        }
        "task_unachievable" => {
            return Ok(Action::Control(ControlAction::TaskUnachievable {
                reason: text(args.take(&["reason", "why", "message"], 0), "the reason")?,
            }));
        }
        other => return Err(ParseError::UnknownAction(other.to_owned())),
    };
    Ok(Action::Gui(gui))
}

#[cfg(test)]
mod tests;
