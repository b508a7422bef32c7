//! Real accounts that runs take turns in: the accounts of a file (`--run-accounts`), each with the
//! browser profile a person logged on to its console in once. A run holds one account alone, so
//! runs at once never read each other's audit events, and no two browsers share a profile; the
//! account is free again when the run's hold is dropped, however the run ended.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use aca_service::accounts::FileAccounts;
use aca_service::{AccountAccess, AccountKeys as _};
use anyhow::{Context as _, bail};

/// The accounts, and which are in a run.
pub struct AccountRing {
    accounts: Vec<(AccountAccess, PathBuf)>,
    busy: Arc<Mutex<Vec<bool>>>,
    /// The accounts file, for messages.
    pub label: String,
}

/// A run's hold on one account of the ring.
#[derive(Debug)]
pub struct Held {
    index: usize,
    busy: Arc<Mutex<Vec<bool>>>,
}

impl Drop for Held {
    fn drop(&mut self) {
        if let Some(slot) = self.busy.lock().unwrap_or_else(|e| e.into_inner()).get_mut(self.index) {
            *slot = false;
        }
    }
}

impl AccountRing {
    /// The accounts of the file at `path`; each must name a browser profile that exists.
    pub fn load(path: &Path) -> anyhow::Result<Self> {
        let file = FileAccounts::load(path).map_err(|e| anyhow::anyhow!(e))?;
        let mut accounts = Vec::new();
        for id in file.ids() {
            let access = file.access(&id).context("an account of the file vanished")?;
            let Some(profile) = file.browser_profile(&id) else {
                bail!(
                    "{}: account {id} names no browser_profile: log on to its console once in a Chromium \
                     profile (aca observe URL --user-data-dir DIR) and name that folder",
                    path.display()
                );
            };
            if !profile.is_dir() {
                bail!(
                    "{}: account {id}: the browser profile {} is not a folder",
                    path.display(),
                    profile.display()
                );
            }
            accounts.push((access, profile.to_path_buf()));
        }
        let busy = Arc::new(Mutex::new(vec![false; accounts.len()]));
        Ok(Self {
            accounts,
            busy,
            label: format!("the accounts of {}", path.display()),
        })
    }

    pub fn len(&self) -> usize {
        self.accounts.len()
    }

    /// A free account, its browser profile, and the hold that frees it when dropped.
    pub fn take(&self) -> anyhow::Result<(AccountAccess, PathBuf, Held)> {
        let mut busy = self.busy.lock().unwrap_or_else(|e| e.into_inner());
        let Some(index) = busy.iter().position(|b| !b) else {
            bail!(
                "every one of {} is in a run: give as many accounts as pages run at once",
                self.label
            );
        };
        busy[index] = true;
        let (access, profile) = self.accounts[index].clone();
        let held = Held {
            index,
            busy: self.busy.clone(),
        };
        Ok((access, profile, held))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ring(dir: &Path, accounts: &[&str]) -> AccountRing {
        let pair = r#"{"accessKeyId": "LTAI5tRing", "accessKeySecret": "ring-secret"}"#;
        aca_openapi::private_file::write(&dir.join("ak.json"), pair.as_bytes()).unwrap();
        let mut list = String::new();
        for id in accounts {
            std::fs::create_dir_all(dir.join(format!("profiles/{id}"))).unwrap();
            list.push_str(&format!(
                "[[account]]\nid = \"{id}\"\nlogin = \"qa@{id}.onaliyun.com\"\nconsole = \"https://home.console.aliyun.com\"\n\
                 credentials = \"ak.json\"\nbrowser_profile = \"profiles/{id}\"\n"
            ));
        }
        std::fs::write(dir.join("accounts.toml"), list).unwrap();
        AccountRing::load(&dir.join("accounts.toml")).unwrap()
    }

    #[test]
    fn each_account_is_in_one_run_at_a_time_and_free_when_the_hold_drops() {
        let dir = tempfile::tempdir().unwrap();
        let ring = ring(dir.path(), &["1001", "1002"]);
        let (first, profile, held) = ring.take().unwrap();
        assert_eq!(profile, dir.path().join(format!("profiles/{}", first.account_id)));
        let (second, _, _other) = ring.take().unwrap();
        assert_ne!(first.account_id, second.account_id);
        let refused = ring.take().unwrap_err().to_string();
        assert!(refused.contains("every one of"), "{refused}");
        drop(held);
        let (again, _, _) = ring.take().unwrap();
        assert_eq!(again.account_id, first.account_id);
    }

    #[test]
    fn an_account_without_a_browser_profile_is_refused_with_how_to_make_one() {
        let dir = tempfile::tempdir().unwrap();
        let pair = r#"{"accessKeyId": "LTAI5tRing", "accessKeySecret": "ring-secret"}"#;
        aca_openapi::private_file::write(&dir.path().join("ak.json"), pair.as_bytes()).unwrap();
        let list = "[[account]]\nid = \"1001\"\nlogin = \"qa\"\nconsole = \"https://home.console.aliyun.com\"\n\
                    credentials = \"ak.json\"\n";
        std::fs::write(dir.path().join("accounts.toml"), list).unwrap();
        let refused = AccountRing::load(&dir.path().join("accounts.toml"))
            .err()
            .unwrap()
            .to_string();
        assert!(
            refused.contains("names no browser_profile") && refused.contains("--user-data-dir"),
            "{refused}"
        );
    }
}
