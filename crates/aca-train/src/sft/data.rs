//! SFT samples read from JSONL files in the OpenAI chat format: one `{"messages": […]}` object a line,
//! its last message the assistant reply to learn; other keys are ignored.

use std::path::Path;

use aca_model::text::{ChatMessage, MessageContent, Role};
use serde::Deserialize;

use crate::error::TrainError;

/// One conversation whose last message is the assistant reply the model learns to write.
#[derive(Debug, Clone, PartialEq)]
pub struct ChatSample {
    /// Everything the model is given: system, user (and earlier) messages.
    pub prompt: Vec<ChatMessage>,
    /// The assistant reply's text.
    pub reply: String,
}

#[derive(Deserialize)]
struct Line {
    messages: Vec<ChatMessage>,
}

impl ChatSample {
    /// Splits a conversation into its prompt and its final assistant reply, which must have text.
    pub fn from_messages(mut messages: Vec<ChatMessage>) -> Result<Self, String> {
        let Some(last) = messages.pop() else {
            return Err("`messages` is empty".to_string());
        };
        if last.role != Role::Assistant {
            return Err(format!(
                "the last message is the {:?}'s; it must be the assistant reply to learn",
                last.role
            ));
        }
        let reply = match last.content {
            MessageContent::Text(text) => text,
            MessageContent::Parts(_) => return Err("the assistant reply is not plain text".to_string()),
        };
        if reply.trim().is_empty() {
            return Err("the assistant reply is empty".to_string());
        }
        if messages.is_empty() {
            return Err("there is no message before the assistant reply".to_string());
        }
        Ok(Self {
            prompt: messages,
            reply,
        })
    }
}

/// Reads every sample of a JSONL file; blank lines are skipped. The first bad line is reported with its
/// file and line number; a file without any sample is an error.
pub fn read_jsonl(path: &Path) -> Result<Vec<ChatSample>, TrainError> {
    let text = std::fs::read_to_string(path).map_err(|source| TrainError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let mut samples = Vec::new();
    for (index, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let bad = |problem: String| TrainError::Sample {
            path: path.to_path_buf(),
            line: index + 1,
            problem,
        };
        let parsed: Line = serde_json::from_str(line).map_err(|error| bad(format!("not a chat sample: {error}")))?;
        samples.push(ChatSample::from_messages(parsed.messages).map_err(bad)?);
    }
    if samples.is_empty() {
        return Err(TrainError::EmptyFile {
            path: path.to_path_buf(),
        });
    }
    Ok(samples)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(contents: &str) -> tempfile::NamedTempFile {
        let file = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(file.path(), contents).unwrap();
        file
    }

    #[test]
    fn reads_the_prompt_and_the_reply_ignoring_other_keys() {
        let file = file(concat!(
            r#"{"id":"t#1/0","messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"Hi"},{"role":"assistant","content":"Action: wait(1)"}]}"#,
            "\n\n",
            r#"{"messages":[{"role":"user","content":"Go"},{"role":"assistant","content":"Action: click(3)"}]}"#,
            "\n"
        ));
        let samples = read_jsonl(file.path()).unwrap();
        assert_eq!(samples.len(), 2);
        assert_eq!(
            samples[0].prompt,
            vec![ChatMessage::system("Be brief."), ChatMessage::user("Hi")]
        );
        assert_eq!(samples[0].reply, "Action: wait(1)");
        assert_eq!(samples[1].reply, "Action: click(3)");
    }

    #[test]
    fn bad_input_is_named_by_file_and_line() {
        let good = r#"{"messages":[{"role":"user","content":"Go"},{"role":"assistant","content":"Action: click(3)"}]}"#;
        let cases = [
            (format!("{good}\nnot json\n"), 2, "not a chat sample"),
            (
                format!(
                    "{good}\n{good}\n{}\n",
                    r#"{"messages":[{"role":"user","content":"Go"}]}"#
                ),
                3,
                "must be the assistant reply",
            ),
            (r#"{"messages":[]}"#.to_string(), 1, "is empty"),
            (r#"{"prompt":"x"}"#.to_string(), 1, "missing field `messages`"),
        ];
        for (contents, line, problem) in cases {
            let file = file(&contents);
            let error = read_jsonl(file.path()).unwrap_err();
            let message = error.to_string();
            assert!(
                matches!(&error, TrainError::Sample { line: found, .. } if *found == line),
                "{message}"
            );
            assert!(message.contains(problem), "{message}");
            assert!(message.contains(&file.path().display().to_string()), "{message}");
        }
    }

    #[test]
    fn an_empty_file_is_refused() {
        let file = file("\n  \n");
        assert!(matches!(read_jsonl(file.path()), Err(TrainError::EmptyFile { .. })));
    }
}
