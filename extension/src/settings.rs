//! The extension's settings (the companion server's URL and token, and optionally the chat model the
//! agent asks instead of the scripted policy), checked before they are saved.

use serde::{Deserialize, Serialize};

/// What the options page edits; kept in `chrome.storage.local` under [`Settings::STORAGE_KEY`].
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    /// The `aca` server, e.g. `http://127.0.0.1:8080`; empty when not set up yet.
    #[serde(default)]
    pub server_url: String,
    /// This user's token on the server (`aca console users create` prints it); never the admin token.
    #[serde(default)]
    pub token: String,
    /// An OpenAI-compatible API base (`http://127.0.0.1:8000/v1`): when set, the agent asks this
    /// model for every action (the LLM policy); when empty, the scripted policy runs.
    #[serde(default)]
    pub model_url: String,
    /// The model's name at that endpoint.
    #[serde(default)]
    pub model: String,
    /// The endpoint's API key, sent as a bearer token; may be empty.
    #[serde(default)]
    pub model_key: String,
    /// Show the model the console tab's marked screenshot with each question (a model that takes
    /// images); the extension must first be allowed to capture tabs.
    #[serde(default)]
    pub model_screenshots: bool,
}

/// The chat endpoint the LLM policy asks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelEndpoint {
    /// `<base>/chat/completions`.
    pub completions_url: String,
    pub model: String,
    pub key: Option<String>,
}

/// Why settings cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SettingsError {
    #[error("no server URL is set: open the extension's options and enter the aca server's URL")]
    NoServer,
    #[error("the server URL \"{0}\" must start with http:// or https://")]
    NotHttp(String),
    #[error("the server URL \"{0}\" has no host")]
    NoHost(String),
    #[error("no token is set: open the extension's options and enter the server's token")]
    NoToken,
    #[error("the model URL \"{0}\" must start with http:// or https://")]
    ModelNotHttp(String),
    #[error(
        "a model URL is set but no model name: enter the model's name, or clear the URL to use the scripted policy"
    )]
    NoModelName,
}

impl Settings {
    pub const STORAGE_KEY: &'static str = "aca_settings";

    /// Trims both fields and checks the URL; the URL loses any trailing `/`.
    pub fn normalized(&self) -> Result<Settings, SettingsError> {
        let url = self.server_url.trim().trim_end_matches('/');
        if url.is_empty() {
            return Err(SettingsError::NoServer);
        }
        let rest = url
            .strip_prefix("http://")
            .or_else(|| url.strip_prefix("https://"))
            .ok_or_else(|| SettingsError::NotHttp(url.to_owned()))?;
        if rest.split(['/', '?', '#']).next().unwrap_or_default().is_empty() {
            return Err(SettingsError::NoHost(url.to_owned()));
        }
        let token = self.token.trim();
        if token.is_empty() {
            return Err(SettingsError::NoToken);
        }
        let model_url = self.model_url.trim().trim_end_matches('/');
        let model = self.model.trim();
        if !model_url.is_empty() {
            if !model_url.starts_with("http://") && !model_url.starts_with("https://") {
                return Err(SettingsError::ModelNotHttp(model_url.to_owned()));
            }
            if model.is_empty() {
                return Err(SettingsError::NoModelName);
            }
        }
        Ok(Settings {
            server_url: url.to_owned(),
            token: token.to_owned(),
            model_url: model_url.to_owned(),
            model: model.to_owned(),
            model_key: self.model_key.trim().to_owned(),
            model_screenshots: self.model_screenshots && !model_url.is_empty(),
        })
    }

    /// The chat endpoint of the LLM policy; `None` when no model URL is set (the scripted policy).
    pub fn model_endpoint(&self) -> Option<ModelEndpoint> {
        let base = self.model_url.trim().trim_end_matches('/');
        if base.is_empty() {
            return None;
        }
        let key = self.model_key.trim();
        Some(ModelEndpoint {
            completions_url: format!("{base}/chat/completions"),
            model: self.model.trim().to_owned(),
            key: (!key.is_empty()).then(|| key.to_owned()),
        })
    }

    /// `path` (starting with `/`) on the server.
    pub fn endpoint(&self, path: &str) -> String {
        format!("{}{path}", self.server_url.trim_end_matches('/'))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(url: &str, token: &str) -> Settings {
        Settings {
            server_url: url.into(),
            token: token.into(),
            ..Settings::default()
        }
    }

    #[test]
    fn a_model_url_chooses_the_llm_policy() {
        let scripted = settings("http://127.0.0.1:8080", "t").normalized().unwrap();
        assert_eq!(scripted.model_endpoint(), None);
        let llm = Settings {
            model_url: " http://127.0.0.1:8000/v1/ ".into(),
            model: "qwen3".into(),
            ..settings("http://127.0.0.1:8080", "t")
        }
        .normalized()
        .unwrap();
        assert_eq!(
            llm.model_endpoint(),
            Some(ModelEndpoint {
                completions_url: "http://127.0.0.1:8000/v1/chat/completions".into(),
                model: "qwen3".into(),
                key: None,
            })
        );
        let nameless = Settings {
            model_url: "http://127.0.0.1:8000/v1".into(),
            ..settings("http://127.0.0.1:8080", "t")
        };
        assert_eq!(nameless.normalized(), Err(SettingsError::NoModelName));
        let not_http = Settings {
            model_url: "127.0.0.1:8000".into(),
            model: "m".into(),
            ..settings("http://127.0.0.1:8080", "t")
        };
        assert_eq!(
            not_http.normalized(),
            Err(SettingsError::ModelNotHttp("127.0.0.1:8000".into()))
        );
    }

    #[test]
    fn urls_are_trimmed_and_checked() {
        let ok = settings(" http://127.0.0.1:8080/ ", " secret ").normalized().unwrap();
        assert_eq!(ok.server_url, "http://127.0.0.1:8080");
        assert_eq!(ok.token, "secret");
        assert_eq!(ok.endpoint("/admin/accounts"), "http://127.0.0.1:8080/admin/accounts");
        assert_eq!(settings("", "t").normalized(), Err(SettingsError::NoServer));
        assert_eq!(
            settings("127.0.0.1:8080", "t").normalized(),
            Err(SettingsError::NotHttp("127.0.0.1:8080".into()))
        );
        assert_eq!(
            settings("https:///x", "t").normalized(),
            Err(SettingsError::NoHost("https:///x".into()))
        );
        assert_eq!(
            settings("https://aca.example", " ").normalized(),
            Err(SettingsError::NoToken)
        );
    }
}
