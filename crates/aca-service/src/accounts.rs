//! The accounts a companion server for real consoles serves, listed in a TOML file: each with its
//! web console, the AccessKey file the server signs with (readable by its owner only) and,
//! optionally, one address for every API (an emulator started separately, which is then used
//! exactly as a real account would be).
//!
//! ```toml
//! [[account]]
//! id = "1234567890123456"
//! login = "docs-qa@1234567890123456.onaliyun.com"
//! console = "https://home.console.aliyun.com"
//! credentials = "keys/docs-qa.json"   # {"accessKeyId": …, "accessKeySecret": …}, mode 0600
//! # endpoint_override = "http://127.0.0.1:8080"
//! # browser_profile = "profiles/docs-qa"   # a Chromium profile logged on to the console once
//! ```
//!
//! The browser profile is what a server's own workers need to run pages in the account
//! (`--run-accounts`); the companion API, whose runs happen in the user's browser, does not.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use aca_openapi::Endpoints;
use aca_openapi::client::AccessKeyPair;
use serde::Deserialize;

use crate::{AccountAccess, AccountKeys};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct AccountsFile {
    #[serde(default)]
    account: Vec<AccountEntry>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct AccountEntry {
    id: String,
    login: String,
    console: String,
    /// Relative to the accounts file's folder.
    credentials: PathBuf,
    #[serde(default)]
    endpoint_override: Option<String>,
    /// Relative to the accounts file's folder.
    #[serde(default)]
    browser_profile: Option<PathBuf>,
}

/// The accounts of a file, read once at start.
#[derive(Debug)]
pub struct FileAccounts {
    by_id: BTreeMap<String, AccountAccess>,
    /// The Chromium profile a person logged on to each account's console in, where the file names one.
    profiles: BTreeMap<String, PathBuf>,
}

impl FileAccounts {
    /// Reads `path` and every AccessKey file it names; an error says which entry is wrong and how.
    pub fn load(path: &Path) -> Result<Arc<Self>, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let file: AccountsFile =
            toml::from_str(&text).map_err(|e| format!("{} is not an accounts file: {e}", path.display()))?;
        let folder = path.parent().unwrap_or(Path::new("."));
        let mut by_id = BTreeMap::new();
        let mut profiles = BTreeMap::new();
        for entry in file.account {
            let what = format!("{}: account {}", path.display(), entry.id);
            if entry.id.trim().is_empty() || by_id.contains_key(&entry.id) {
                return Err(format!("{what}: every account needs an id of its own"));
            }
            if !entry.console.starts_with("https://") && !entry.console.starts_with("http://") {
                return Err(format!("{what}: console \"{}\" is not an http(s) URL", entry.console));
            }
            let credentials = folder.join(&entry.credentials);
            aca_openapi::private_file::check_private(&credentials).map_err(|e| format!("{what}: {e}"))?;
            let key = AccessKeyPair::from_file(&credentials).map_err(|e| format!("{what}: {e}"))?;
            let endpoints = match &entry.endpoint_override {
                Some(url) => Endpoints::pointed_at(url)
                    .map_err(|e| format!("{what}: endpoint_override \"{}\" is not an http(s) URL", e.0))?,
                None => Endpoints::real_cloud(),
            };
            if let Some(profile) = &entry.browser_profile {
                profiles.insert(entry.id.clone(), folder.join(profile));
            }
            by_id.insert(
                entry.id.clone(),
                AccountAccess {
                    account_id: entry.id,
                    login: entry.login,
                    console_url: entry.console.trim_end_matches('/').to_owned(),
                    endpoints,
                    key,
                    emulator: false,
                },
            );
        }
        if by_id.is_empty() {
            return Err(format!("{} lists no [[account]]", path.display()));
        }
        Ok(Arc::new(Self { by_id, profiles }))
    }

    /// The browser profile a person logged on to `account_id`'s console in, if the file names one.
    pub fn browser_profile(&self, account_id: &str) -> Option<&Path> {
        self.profiles.get(account_id).map(PathBuf::as_path)
    }

    /// The ids of the accounts, in order.
    pub fn ids(&self) -> Vec<String> {
        self.by_id.keys().cloned().collect()
    }
}

impl AccountKeys for FileAccounts {
    fn access(&self, account_id: &str) -> Option<AccountAccess> {
        self.by_id.get(account_id).cloned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(path: &Path, text: &str, mode: u32) {
        std::fs::write(path, text).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
        }
        #[cfg(not(unix))]
        let _ = mode;
    }

    /// A folder holding `ak.json` with `mode`.
    fn key_file(mode: u32) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let pair = r#"{"accessKeyId": "LTAI5tFileId", "accessKeySecret": "file-secret"}"#;
        write(&dir.path().join("ak.json"), pair, mode);
        dir
    }

    #[test]
    fn a_file_names_each_accounts_console_key_and_endpoints() {
        let dir = key_file(0o600);
        let list = dir.path().join("accounts.toml");
        write(
            &list,
            "[[account]]\nid = \"1001\"\nlogin = \"qa@1001.onaliyun.com\"\nconsole = \"https://home.console.aliyun.com/\"\ncredentials = \"ak.json\"\n\n\
             [[account]]\nid = \"2002\"\nlogin = \"qa@2002\"\nconsole = \"http://127.0.0.1:8080/console\"\ncredentials = \"ak.json\"\nendpoint_override = \"http://127.0.0.1:8080\"\n",
            0o644,
        );
        let accounts = FileAccounts::load(&list).unwrap();
        assert_eq!(accounts.ids(), ["1001", "2002"]);
        let real = accounts.access("1001").unwrap();
        assert_eq!(real.console_url, "https://home.console.aliyun.com");
        assert_eq!(
            real.endpoints.resolve("actiontrail", "cn-hangzhou"),
            "https://actiontrail.cn-hangzhou.aliyuncs.com"
        );
        assert!(!real.emulator, "no account of a file is provisioned as an emulator's");
        assert_eq!(real.key.access_key_id, "LTAI5tFileId");
        let pointed = accounts.access("2002").unwrap();
        assert_eq!(pointed.endpoints.resolve("ecs", "cn-hangzhou"), "http://127.0.0.1:8080");
        assert!(accounts.access("3003").is_none());
        assert!(!format!("{accounts:?}").contains("file-secret"), "debug output shows the secret");
    }

    #[cfg(unix)]
    #[test]
    fn a_key_others_may_read_or_a_wrong_entry_is_refused_with_the_reason() {
        let dir = key_file(0o644);
        let list = dir.path().join("accounts.toml");
        let entry = "[[account]]\nid = \"1001\"\nlogin = \"qa\"\nconsole = \"https://home.console.aliyun.com\"\ncredentials = \"ak.json\"\n";
        write(&list, entry, 0o600);
        let refused = FileAccounts::load(&list).unwrap_err();
        assert!(refused.contains("account 1001") && refused.contains("chmod 600"), "{refused}");
        write(&list, &entry.replace("https://home.console.aliyun.com", "home.console"), 0o600);
        assert!(FileAccounts::load(&list).unwrap_err().contains("is not an http(s) URL"));
        write(&list, "", 0o600);
        assert!(FileAccounts::load(&list).unwrap_err().contains("lists no [[account]]"));
    }
}
