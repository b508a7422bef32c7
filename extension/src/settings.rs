//! The extension's settings (the companion server's URL and token), checked before they are saved.

use serde::{Deserialize, Serialize};

/// What the options page edits; kept in `chrome.storage.local` under [`Settings::STORAGE_KEY`].
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    /// The `aca` server, e.g. `http://127.0.0.1:8080`; empty when not set up yet.
    #[serde(default)]
    pub server_url: String,
    /// The server's bearer token (`--admin-token`).
    #[serde(default)]
    pub token: String,
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
        Ok(Settings {
            server_url: url.to_owned(),
            token: token.to_owned(),
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
        }
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
