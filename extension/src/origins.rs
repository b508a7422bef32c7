//! Which sites the extension may read and act on: the Alibaba Cloud consoles, the help sites and
//! the loopback addresses a local `aca` server and emulator use are granted at install (the
//! manifest's `host_permissions`, where the content script is injected too); any other origin (a
//! self-hosted server, a documentation preview, another console) is asked for, one origin at a
//! time, when the person configures or verifies it.

/// The manifest's `host_permissions` and content-script `matches`, in its order (a test holds the
/// two equal). Match patterns ignore ports, so the loopback ones cover every local port.
pub const AT_INSTALL: &[&str] = &[
    "https://*.console.aliyun.com/*",
    "https://*.console.alibabacloud.com/*",
    "https://help.aliyun.com/*",
    "https://www.alibabacloud.com/*",
    "http://127.0.0.1/*",
    "http://localhost/*",
];

/// The host permission `chrome.tabs.captureVisibleTab` needs (or a gesture on the extension's own
/// button, which a run's later pages do not have): asked for only when the person turns the
/// model's screenshots on.
pub const CAPTURE_TABS: &str = "<all_urls>";

/// The id of the content script registered for origins granted after install.
pub const GRANTED_SCRIPT_ID: &str = "aca-granted-origins";

/// `scheme://host/*` of an http(s) URL (the port is dropped: patterns cannot name one), or `None`.
pub fn pattern_of(url: &str) -> Option<String> {
    let url = url.trim();
    let (scheme, rest) = url.split_once("://")?;
    if scheme != "http" && scheme != "https" {
        return None;
    }
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host_port = authority.rsplit('@').next().unwrap_or_default();
    let host = match host_port.strip_prefix('[') {
        Some(v6) => format!("[{}]", v6.split(']').next().unwrap_or_default()),
        None => host_port.split(':').next().unwrap_or_default().to_owned(),
    };
    if host.is_empty() || host == "[]" {
        return None;
    }
    Some(format!("{scheme}://{}/*", host.to_ascii_lowercase()))
}

/// Whether the match pattern `pattern` (`scheme://host/*`, the host possibly `*.domain`) covers
/// `url`.
pub fn covers(pattern: &str, url: &str) -> bool {
    let (Some((scheme, host)), Some(own)) = (
        pattern.strip_suffix("/*").and_then(|p| p.split_once("://")),
        pattern_of(url),
    ) else {
        return false;
    };
    let Some((url_scheme, url_host)) = own.strip_suffix("/*").and_then(|o| o.split_once("://")) else {
        return false;
    };
    scheme == url_scheme
        && match host.strip_prefix("*.") {
            Some(domain) => url_host == domain || url_host.ends_with(&format!(".{domain}")),
            None => url_host == host,
        }
}

/// Whether the extension may act on `url` without asking: it is granted at install.
pub fn granted_at_install(url: &str) -> bool {
    AT_INSTALL.iter().any(|pattern| covers(pattern, url))
}

/// The patterns to ask for so that every one of `urls` may be used: one per origin that install
/// did not grant, in order, without repeats.
pub fn to_ask_for<'a>(urls: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for url in urls {
        if granted_at_install(url) {
            continue;
        }
        if let Some(pattern) = pattern_of(url)
            && !out.contains(&pattern)
        {
            out.push(pattern);
        }
    }
    out
}

/// The granted origins the manifest does not already cover: where the content script must be
/// registered at run time. The permission to capture tabs is no site to work in: it injects
/// nothing anywhere.
pub fn granted_later(granted: &[String]) -> Vec<String> {
    granted
        .iter()
        .filter(|pattern| !AT_INSTALL.contains(&pattern.as_str()) && pattern.as_str() != CAPTURE_TABS)
        .cloned()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_real_consoles_help_sites_and_loopback_are_granted_and_nothing_else() {
        for url in [
            "https://home.console.aliyun.com/home/dashboard/ProductAndService",
            "https://ecs.console.aliyun.com/server/region/cn-hangzhou",
            "https://console.aliyun.com/",
            "https://slb.console.alibabacloud.com/clb",
            "https://help.aliyun.com/zh/vpc/user-guide/create-and-manage-a-vpc",
            "https://www.alibabacloud.com/help/en/vpc/user-guide/create-and-manage-a-vpc",
            "http://127.0.0.1:43811/console/vpc",
            "http://localhost:8080/v1/me",
        ] {
            assert!(granted_at_install(url), "{url}");
        }
        for url in [
            "https://evil.example/aliyun.com/",
            "https://console.aliyun.com.evil.example/",
            "http://home.console.aliyun.com/",
            "https://docs.internal.example/preview/create-vpc.html",
            "http://10.0.0.5:8080/",
            "file:///tmp/page.html",
        ] {
            assert!(!granted_at_install(url), "{url}");
        }
    }

    #[test]
    fn what_to_ask_for_is_one_pattern_per_origin_install_did_not_grant() {
        assert_eq!(
            to_ask_for([
                "http://127.0.0.1:8080",
                "https://aca.example.com:8443/v1",
                "https://aca.example.com/other",
                "https://llm.example.net/v1",
                "not a url",
            ]),
            ["https://aca.example.com/*", "https://llm.example.net/*"]
        );
        assert_eq!(pattern_of("http://[::1]:8080/x").as_deref(), Some("http://[::1]/*"));
        assert_eq!(pattern_of("https://user@Host.Example/x").as_deref(), Some("https://host.example/*"));
        assert_eq!(pattern_of("chrome://extensions"), None);
        assert_eq!(
            granted_later(&[
                "http://127.0.0.1/*".into(),
                "https://aca.example.com/*".into(),
                CAPTURE_TABS.into()
            ]),
            ["https://aca.example.com/*"]
        );
    }

    #[test]
    fn the_manifest_grants_exactly_these_origins_and_all_urls_only_when_asked() {
        let manifest: serde_json::Value = serde_json::from_str(include_str!("../../manifest.json")).unwrap();
        let list = |value: &serde_json::Value| -> Vec<String> {
            value
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_str().unwrap().to_owned())
                .collect()
        };
        assert_eq!(list(&manifest["host_permissions"]), AT_INSTALL);
        assert_eq!(list(&manifest["content_scripts"][0]["matches"]), AT_INSTALL);
        assert_eq!(
            list(&manifest["optional_host_permissions"]),
            ["https://*/*", "http://*/*", CAPTURE_TABS]
        );
        // The content script loads aca-dom's public code from the page it is injected in, at an
        // origin granted at install or later; that is all any page may fetch of the extension.
        assert_eq!(
            list(&manifest["web_accessible_resources"][0]["resources"]),
            ["aca-dom/aca_dom.js", "aca-dom/aca_dom_bg.wasm"]
        );
        let mut at_install = manifest.clone();
        at_install["optional_host_permissions"] = serde_json::Value::Null;
        assert!(
            !at_install.to_string().contains(CAPTURE_TABS),
            "<all_urls> is only ever asked for: {manifest}"
        );
    }
}
