//! Setting an account up for a console test: operations called straight on the emulator (not
//! through the browser, so they are no part of what a test checks) and a browser signed in.

use aca_console::Console;

use crate::Chromium;
use crate::page::log_on;

/// Calls `action` of `product` on the console as the account's root identity, outside the browser;
/// panics when it fails.
pub fn setup_call(
    console: &Console,
    account_id: &str,
    product: &str,
    action: &str,
    params: &[(&str, &str)],
) -> serde_json::Value {
    use aca_console::dispatch::Caller;
    use aca_console::params::Params;
    let caller = Caller {
        account_id: account_id.to_owned(),
        access_key_id: String::new(),
        user_name: None,
        user_agent: "setup".to_owned(),
        source_ip: "127.0.0.1".to_owned(),
        event_type: aca_core::EventType::ApiCall,
        event_name: None,
    };
    let product = aca_console::products::by_code(product).unwrap();
    console
        .call(product, action, &Params::from_pairs(params.iter().copied()), &caller)
        .result
        .unwrap_or_else(|e| panic!("{action}: {e:?}"))
}

/// A fresh headless Chromium signed in to the console at `base` as `account`.
pub async fn signed_in(base: &str, account: &aca_console::Credentials) -> (Chromium, chromiumoxide::Page) {
    let chromium = Chromium::launch().await.unwrap();
    let page = chromium.browser.new_page("about:blank").await.unwrap();
    log_on(&page, base, &account.login, &account.password).await;
    (chromium, page)
}
