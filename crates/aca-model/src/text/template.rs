//! The checkpoint's own Jinja chat template, rendered with minijinja the way `transformers` renders it:
//! `trim_blocks` and `lstrip_blocks` on, Python string methods (`startswith`, `split`, `strip`…),
//! `tojson` as Python's `json.dumps`, and `raise_exception` for templates that refuse a conversation.

use minijinja::value::{Kwargs, Serde, Value as JinjaValue};
use minijinja::{AutoEscape, Environment, Error as JinjaError, ErrorKind};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::text::{ChatMessage, TextError, python_json_dumps};

/// The template name used when the checkpoint has a single template.
const DEFAULT_NAME: &str = "default";
/// The named template `transformers` picks when tools are given and the checkpoint has one.
const TOOL_USE_NAME: &str = "tool_use";

/// A compiled chat template (or the named set some checkpoints ship).
#[derive(Debug)]
pub struct ChatTemplate {
    env: Environment<'static>,
    names: Vec<String>,
    special: TemplateSpecialTokens,
}

/// The special-token strings `transformers` hands every template (`bos_token`, `eos_token`…).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct TemplateSpecialTokens {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bos_token: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub eos_token: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pad_token: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unk_token: Option<String>,
}

/// What a prompt is rendered with besides the messages.
#[derive(Clone, Debug, Default)]
pub struct RenderOptions {
    /// Function schemas in the OpenAI `tools` shape; each reaches the template as given.
    pub tools: Vec<Value>,
    /// End the prompt with the opening of an assistant turn.
    pub add_generation_prompt: bool,
    /// Qwen3's switch: `Some(false)` renders an empty `<think></think>`; `None` leaves it undefined.
    pub enable_thinking: Option<bool>,
    /// Further template variables (vLLM's `chat_template_kwargs`).
    pub extra: Map<String, Value>,
}

#[derive(Serialize)]
struct Context<'a> {
    messages: &'a [ChatMessage],
    #[serde(skip_serializing_if = "Option::is_none")]
    tools: Option<&'a [Value]>,
    add_generation_prompt: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    enable_thinking: Option<bool>,
    #[serde(flatten)]
    special: &'a TemplateSpecialTokens,
    #[serde(flatten)]
    extra: &'a Map<String, Value>,
}

impl ChatTemplate {
    /// Compiles one template.
    pub fn new(source: &str, special: TemplateSpecialTokens) -> Result<Self, TextError> {
        Self::named(vec![(DEFAULT_NAME.to_string(), source.to_string())], special)
    }

    /// Compiles a named set (`tokenizer_config.json` may hold `[{"name": "default", "template": …}, …]`).
    pub fn named(templates: Vec<(String, String)>, special: TemplateSpecialTokens) -> Result<Self, TextError> {
        let mut env = python_compatible_environment();
        let mut names = Vec::with_capacity(templates.len());
        for (name, source) in templates {
            env.add_template_owned(name.clone(), source)
                .map_err(|source| TextError::TemplateSyntax {
                    name: name.clone(),
                    source,
                })?;
            names.push(name);
        }
        Ok(Self { env, names, special })
    }

    /// Reads the template out of a parsed `tokenizer_config.json` (or `chat_template.json`) value:
    /// a string, or a list of named templates. `None` when it has none.
    pub fn from_config_value(chat_template: &Value, special: TemplateSpecialTokens) -> Option<Result<Self, TextError>> {
        match chat_template {
            Value::String(source) => Some(Self::new(source, special)),
            Value::Array(entries) => {
                let named: Vec<(String, String)> = entries
                    .iter()
                    .filter_map(|entry| {
                        Some((
                            entry.get("name")?.as_str()?.to_string(),
                            entry.get("template")?.as_str()?.to_string(),
                        ))
                    })
                    .collect();
                (!named.is_empty()).then(|| Self::named(named, special))
            }
            _ => None,
        }
    }

    /// The special-token strings handed to the template.
    pub fn special_tokens(&self) -> &TemplateSpecialTokens {
        &self.special
    }

    /// Renders `messages` into the prompt text.
    pub fn render(&self, messages: &[ChatMessage], options: &RenderOptions) -> Result<String, TextError> {
        let name = self.pick(!options.tools.is_empty());
        let template = self
            .env
            .get_template(name)
            .map_err(|source| TextError::TemplateRender {
                name: name.to_string(),
                source,
            })?;
        let context = Context {
            messages,
            tools: (!options.tools.is_empty()).then_some(options.tools.as_slice()),
            add_generation_prompt: options.add_generation_prompt,
            enable_thinking: options.enable_thinking,
            special: &self.special,
            extra: &options.extra,
        };
        template
            .render(JinjaValue::from(Serde(&context)))
            .map_err(|source| TextError::TemplateRender {
                name: name.to_string(),
                source,
            })
    }

    /// `transformers`' choice: `tool_use` when tools are given and it exists, else `default`, else the
    /// only template there is.
    fn pick(&self, with_tools: bool) -> &str {
        let has = |wanted: &str| self.names.iter().any(|name| name == wanted);
        if with_tools && has(TOOL_USE_NAME) {
            TOOL_USE_NAME
        } else if has(DEFAULT_NAME) {
            DEFAULT_NAME
        } else {
            self.names.first().map_or(DEFAULT_NAME, String::as_str)
        }
    }
}

/// A minijinja environment configured like `transformers`' `ImmutableSandboxedEnvironment`.
fn python_compatible_environment() -> Environment<'static> {
    let mut env = Environment::new();
    let mut syntax = minijinja::syntax::SyntaxConfig::builder();
    syntax.trim_blocks(true).lstrip_blocks(true);
    if let Ok(config) = syntax.build() {
        env.set_syntax(config);
    }
    env.set_auto_escape_callback(|_| AutoEscape::None);
    env.set_unknown_method_callback(minijinja_contrib::pycompat::unknown_method_callback);
    env.add_filter("tojson", tojson);
    env.add_function("raise_exception", raise_exception);
    env
}

/// `transformers`' `tojson`: `json.dumps(value, ensure_ascii=False, indent=indent)`, never HTML-escaped.
fn tojson(value: JinjaValue, kwargs: Kwargs) -> Result<JinjaValue, JinjaError> {
    let indent: Option<usize> = kwargs.get("indent")?;
    kwargs.assert_all_used()?;
    let json = serde_json::to_value(&value).map_err(|error| {
        JinjaError::new(
            ErrorKind::InvalidOperation,
            format!("tojson cannot serialise this value: {error}"),
        )
    })?;
    Ok(JinjaValue::from(python_json_dumps(&json, indent)))
}

/// The template's own refusal (e.g. "Conversation roles must alternate").
fn raise_exception(message: String) -> Result<JinjaValue, JinjaError> {
    Err(JinjaError::new(
        ErrorKind::InvalidOperation,
        format!("the template raised: {message}"),
    ))
}
