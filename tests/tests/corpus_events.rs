//! The corpus's pages that start from an empty account, submitted to the real emulator the way their
//! console form submits them (logged on over HTTP, the form's fields filled with the page's values and
//! the console's defaults): the events the emulator records must meet each page's success rule.

use std::path::PathBuf;
use std::sync::Arc;

use aca_console::ui::session::COOKIE_NAME;
use aca_console::ui::spec::{self, Container, Field, FieldKind, FormSpec, OptionSource, ProductSpec};
use aca_console::{Console, ConsoleConfig, Credentials, ProfileId};
use aca_core::{EventMatcher, ParameterTest, TrailEvent};
use aca_docs::corpus::{CorpusPage, load_corpus};
use aca_e2e::Emulator;
use serde_json::{Map, Value};

fn corpus() -> Vec<CorpusPage> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpus");
    load_corpus(&dir).unwrap_or_else(|e| panic!("the corpus does not load: {e}"))
}

/// A logged-on console session of one account.
struct Session {
    client: reqwest::Client,
    base: String,
    cookie: String,
}

impl Session {
    async fn log_on(base: &str, account: &Credentials) -> Session {
        let client = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap();
        let response = client
            .post(format!("{base}/login"))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .body(format!("login={}&password={}", account.login, account.password))
            .send()
            .await
            .unwrap();
        let cookie = response
            .headers()
            .get_all("set-cookie")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .find(|v| v.starts_with(COOKIE_NAME))
            .and_then(|v| v.split(';').next())
            .unwrap_or_else(|| panic!("logging on as {} sets no session cookie", account.login))
            .to_owned();
        Session {
            client,
            base: base.to_owned(),
            cookie,
        }
    }

    /// A front-end call as the console's pages make it; the response body, or the error it reports.
    async fn call(&self, path: &str, params: &Map<String, Value>) -> Result<Value, String> {
        let response = self
            .client
            .post(format!("{}{path}", self.base))
            .header("Cookie", &self.cookie)
            .json(params)
            .send()
            .await
            .map_err(|e| e.to_string())?;
        let ok = response.status().is_success();
        let body: Value = response.json().await.map_err(|e| e.to_string())?;
        if ok { Ok(body) } else { Err(body.to_string()) }
    }
}

/// The value the page gives a parameter of the call `event` in its rule.
fn page_value(page: &CorpusPage, event: &str, param: &str) -> Option<String> {
    page.task
        .rule
        .events
        .iter()
        .filter(|m| m.event_name == event)
        .flat_map(|m| m.parameters.iter())
        .find(|c| c.name == param)
        .and_then(|c| match &c.test {
            ParameterTest::Equals(Value::String(s)) => Some(s.clone()),
            ParameterTest::Equals(other) => Some(other.to_string()),
            _ => None,
        })
}

/// What a user leaves in a field the page does not mention: the console's default, the first option,
/// or something valid to type.
fn default_value(field: &Field, region: &str) -> Option<String> {
    if !field.default.is_empty() {
        return Some(field.default.clone());
    }
    match &field.kind {
        FieldKind::Select(OptionSource::Zones) => Some(format!("{region}-h")),
        FieldKind::Select(OptionSource::Regions) => Some(region.to_owned()),
        FieldKind::Select(OptionSource::Static(items)) | FieldKind::Radio(items) => {
            items.first().map(|(v, _)| v.clone())
        }
        FieldKind::Generated(_) => Some("corpus-rule-1".to_owned()),
        FieldKind::Password => Some("Corpus-Pass-2026!".to_owned()),
        _ if field.required => Some("corpus".to_owned()),
        _ => None,
    }
}

fn fill<'a>(
    params: &mut Map<String, Value>,
    fields: impl IntoIterator<Item = &'a Field>,
    page: &CorpusPage,
    event: &str,
) {
    for field in fields {
        let value = page_value(page, event, &field.param).or_else(|| default_value(field, &page.task.region));
        if let Some(mut value) = value {
            if !field.suffix.is_empty() && !value.ends_with(&field.suffix) {
                value.push_str(&field.suffix);
            }
            params.insert(field.param.clone(), Value::String(value));
        }
    }
}

/// The create flow of the product that the page's first rule event comes from: the form calling
/// the operation, or for a buy page's order the buy page whose fields the rule names.
fn form_of<'a>(spec: &'a ProductSpec, first: &EventMatcher) -> Option<(&'a FormSpec, bool)> {
    spec.pages
        .iter()
        .flat_map(|p| p.creates.iter().map(move |f| (p, f)))
        .find_map(|(p, f)| {
            let matches = if first.event_name == "Create" {
                let sent: Vec<&str> = f
                    .fields()
                    .map(|x| x.param.as_str())
                    .chain(f.fixed.iter().map(|(k, _)| k.as_str()))
                    .collect();
                f.container == Container::BuyPage && first.parameters.iter().all(|c| sent.contains(&c.name.as_str()))
            } else {
                f.actions().contains(&first.event_name)
            };
            matches.then_some((f, p.regional))
        })
}

/// Submits the page's create flow as the console does: the form's call, then its follow-up sections.
async fn submit(session: &Session, page: &CorpusPage, spec: &ProductSpec) -> Result<(), String> {
    let first = page.task.rule.events.first().ok_or("the rule has no event")?;
    let (form, regional) = form_of(spec, first).ok_or_else(|| format!("no create flow calls {}", first.event_name))?;
    let mut params = Map::new();
    for (k, v) in &form.fixed {
        params.insert(k.clone(), Value::String(v.clone()));
    }
    // A step's folded fields (a panel of its own included) are sent with it.
    for step in form.steps.iter().filter(|s| s.then.is_none()) {
        fill(&mut params, step.all_fields(), page, &first.event_name);
    }
    if regional {
        params.insert("RegionId".into(), Value::String(page.task.region.clone()));
    }
    let endpoint = if form.container == Container::BuyPage {
        "buy"
    } else {
        "api"
    };
    // The operation the rule names, where the form's depends on a field (a listener's protocol).
    let action = if form.actions().contains(&first.event_name) {
        first.event_name.clone()
    } else {
        form.action.clone()
    };
    let path = format!("/console/{endpoint}/{}/{action}", spec.code);
    let response = session.call(&path, &params).await?;
    // Sections that are calls of their own, as the console makes them: one behind a check box
    // only when it is ticked (the default leaves it clear), its values carried by dotted path.
    for step in form.steps.iter().filter(|s| s.then_if.is_none()) {
        let Some((then, carry)) = &step.then else { continue };
        let mut params = Map::new();
        for (param, field) in carry {
            let pointer = format!("/{}", field.replace('.', "/"));
            params.insert(
                param.clone(),
                response.pointer(&pointer).cloned().unwrap_or(Value::Null),
            );
        }
        fill(&mut params, &step.fields, page, then);
        if regional {
            params.insert("RegionId".into(), Value::String(page.task.region.clone()));
        }
        session
            .call(&format!("/console/api/{}/{then}", spec.code), &params)
            .await?;
    }
    Ok(())
}

fn meets(event: &TrailEvent, matcher: &EventMatcher) -> bool {
    let text = |v: &Value| v.as_str().map_or_else(|| v.to_string(), str::to_owned);
    event.event_name == matcher.event_name
        && matcher.service_name.as_ref().is_none_or(|s| *s == event.service_name)
        && matcher.event_type.is_none_or(|t| t == event.event_type)
        && event.error_code.is_none() == matcher.succeeded
        && matcher.parameters.iter().all(|c| {
            let found = event.request_parameters.get(&c.name);
            match &c.test {
                ParameterTest::Equals(want) => found.is_some_and(|v| text(v) == text(want)),
                ParameterTest::Contains(part) => found.is_some_and(|v| text(v).contains(part.as_str())),
                ParameterTest::StartsWith(head) => found.is_some_and(|v| text(v).starts_with(head.as_str())),
                ParameterTest::Exists(present) => found.is_some() == *present,
            }
        })
}

fn events_of(console: &Arc<Console>, account: &Credentials) -> Vec<TrailEvent> {
    let shared = console.store.account(&account.account_id).unwrap();
    let state = shared.lock();
    state.events.iter().map(|e| e.event.clone()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_that_start_from_an_empty_account_meet_their_rules() {
    let emulator = Emulator::start(ConsoleConfig::for_tests()).await.unwrap();
    let mut problems = Vec::new();
    let mut checked = 0;
    for page in corpus().into_iter().filter(|p| p.task.meta.is_none()) {
        let profile: ProfileId = page.task.profile.parse().unwrap();
        let spec = spec::product(profile, &page.task.product).unwrap();
        let account = emulator.console.create_account(page.slug(), Some(profile)).unwrap();
        let session = Session::log_on(&emulator.url, &account).await;
        if let Err(e) = submit(&session, &page, spec).await {
            problems.push(format!("{}: the console refused the form: {e}", page.path.display()));
            continue;
        }
        let events = events_of(&emulator.console, &account);
        for matcher in &page.task.rule.events {
            if !events.iter().any(|e| meets(e, matcher)) {
                let seen: Vec<String> = events
                    .iter()
                    .filter(|e| e.event_name == matcher.event_name)
                    .map(|e| format!("{:?} {} {:?}", e.event_type, e.service_name, e.request_parameters))
                    .collect();
                problems.push(format!(
                    "{}: no event meets {matcher:?}; recorded: {seen:?}",
                    page.path.display()
                ));
            }
        }
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} pages start from an empty account");
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}
