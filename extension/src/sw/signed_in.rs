//! Which console tab a run uses, and whose: the tab the person chose, else an open tab of the
//! console, else the console opened in a new tab of this browser profile (where the person's
//! session is); the account it is signed in to is read from the page and must be one the companion
//! server assigns to this user, or the run is refused before anything happens.

use serde::Deserialize;

use crate::chrome::{self, World};
use crate::server::{Assigned, Me};

/// What `account-probe.js` reads from the console page's own global. A RAM user's console
/// (`ACCOUNT_TYPE` sub or sts) belongs to its main account, which is the one the server must hold
/// credentials for.
#[derive(Debug, Clone, Default, Deserialize)]
struct Probe {
    main_account: Option<String>,
}

#[derive(Debug, Deserialize)]
struct TabSummary {
    id: i32,
    #[serde(default)]
    url: String,
}

/// The console tab to run in and the assigned account it is signed in to.
pub async fn console_tab(me: &Me, chosen: Option<i32>) -> Result<(i32, Assigned), String> {
    let Some(first) = me.accounts.first() else {
        return Err(format!(
            "the server assigns no account to {}: ask its admin to give your user an account",
            me.user
        ));
    };
    let mut candidates: Vec<i32> = chosen.into_iter().collect();
    candidates.extend(open_console_tabs(me).await?.into_iter().filter(|t| Some(*t) != chosen));
    if candidates.is_empty() {
        let tab = chrome::create_tab(&first.console_url, true)
            .await
            .map_err(|e| format!("cannot open the console at {}: {e}", first.console_url))?;
        wait_loaded(tab).await?;
        candidates.push(tab);
    }
    let mut shown = Vec::new();
    for tab in candidates {
        let url = chrome::tab_url(tab).await.unwrap_or_default();
        match signed_in_account(tab).await {
            Some(account) => return assigned(me, tab, &account),
            None => shown.push(url),
        }
    }
    Err(format!(
        "no tab shows a signed-in Alibaba Cloud console ({}): log on to the console in this browser \
         first (the extension never logs on for you), then verify again",
        shown.join(", ")
    ))
}

/// The account whose console `tab` shows, from the page's own global; `None` when the page is not
/// a signed-in console (a log-on page, another site, a tab scripts cannot run in).
async fn signed_in_account(tab: i32) -> Option<String> {
    let probe: Probe = chrome::run_file_in_tab(tab, "account-probe.js", World::Main)
        .await
        .ok()?;
    probe.main_account.filter(|a| !a.is_empty())
}

/// `tab` signed in to `account`, when the server assigns that account to this user.
fn assigned(me: &Me, tab: i32, account: &str) -> Result<(i32, Assigned), String> {
    me.accounts
        .iter()
        .find(|a| a.account_id == account)
        .cloned()
        .map(|a| (tab, a))
        .ok_or_else(|| {
            let assigned: Vec<&str> = me.accounts.iter().map(|a| a.account_id.as_str()).collect();
            format!(
                "the console tab is signed in to account {account}, which the server does not assign to {} \
                 (it assigns {}): switch to that account in the console, or ask the server's admin",
                me.user,
                assigned.join(", ")
            )
        })
}

/// The open tabs on one of the assigned accounts' consoles.
async fn open_console_tabs(me: &Me) -> Result<Vec<i32>, String> {
    let tabs: Vec<TabSummary> = chrome::query_tabs(&serde_json::json!({}))
        .await
        .map_err(|e| e.to_string())?;
    Ok(tabs
        .iter()
        .filter(|t| me.accounts.iter().any(|a| same_console(&t.url, &a.console_url)))
        .map(|t| t.id)
        .collect())
}

/// Whether `url` is a page of the console whose home is `home`: the same origin, or both on the
/// real console's domains (`*.console.aliyun.com`, `*.console.alibabacloud.com`).
pub fn same_console(url: &str, home: &str) -> bool {
    let (Some(a), Some(b)) = (origin(url), origin(home)) else {
        return false;
    };
    if a == b {
        return true;
    }
    let real = |origin: &str| {
        let host = origin.split("://").nth(1).unwrap_or_default();
        [".console.aliyun.com", ".console.alibabacloud.com"]
            .iter()
            .find(|d| host.ends_with(*d))
            .copied()
    };
    matches!((real(&a), real(&b)), (Some(x), Some(y)) if x == y)
}

/// `scheme://host[:port]` of an http(s) URL.
fn origin(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    if scheme != "http" && scheme != "https" {
        return None;
    }
    let host = rest.split(['/', '?', '#']).next()?;
    (!host.is_empty()).then(|| format!("{scheme}://{}", host.to_ascii_lowercase()))
}

async fn wait_loaded(tab: i32) -> Result<(), String> {
    for _ in 0..150 {
        let status = chrome::tab_status(tab)
            .await
            .map_err(|e| format!("the console tab is gone ({e})"))?;
        if status.complete {
            return Ok(());
        }
        chrome::sleep(100).await;
    }
    Err("the console did not finish loading within 15 s".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn console_pages_are_told_apart_by_origin_and_real_console_domain() {
        let emulator = "http://127.0.0.1:8080/console";
        assert!(same_console(
            "http://127.0.0.1:8080/console/vpc?region=cn-hangzhou",
            emulator
        ));
        assert!(!same_console("http://127.0.0.1:9090/console", emulator));
        assert!(!same_console("chrome-extension://abc/sidepanel.html", emulator));
        let home = "https://home.console.aliyun.com/";
        assert!(same_console(
            "https://vpc.console.aliyun.com/vpc/cn-hangzhou/vpcs",
            home
        ));
        assert!(same_console("https://ECS.console.aliyun.com/", home));
        assert!(!same_console("https://vpc.console.alibabacloud.com/", home));
        assert!(!same_console("https://evil.example/console.aliyun.com", home));
        assert!(!same_console("https://aliyun.com.evil.example/", home));
    }
}
