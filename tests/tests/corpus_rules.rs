//! The example corpus's success rules against what the emulator records for the console's actions:
//! each rule names an audited operation that the product's console calls (or `Create` for a buy
//! page's order), with ActionTrail's service name and event type for it, and conditions only on
//! parameters the console sends with values its controls can send.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

use aca_console::ProfileId;
use aca_console::ui::api_product;
use aca_console::ui::spec::{
    self, ActionKind, BatchKind, Container, FieldKind, FormSpec, OptionSource, PageSpec, ProductSpec,
};
use aca_core::{EventMatcher, EventType, ParameterTest};
use aca_docs::corpus::{CorpusPage, load_corpus};

fn corpus() -> Vec<CorpusPage> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpus");
    load_corpus(&dir).unwrap_or_else(|e| panic!("the corpus does not load: {e}"))
}

/// What the console sends to one operation: parameter names, and for choice controls the values.
#[derive(Debug, Default)]
struct Sent {
    params: HashSet<String>,
    choices: HashMap<String, HashSet<String>>,
}

impl Sent {
    fn param(&mut self, name: &str) {
        // A whole-config list's first item (`Rule.N.Prefix` is `Rule.1.Prefix` on an empty list).
        self.params.insert(name.replace(".N.", ".1."));
    }
}

/// The operations a page's forms, row actions, batch buttons and lists call, with what they send.
fn page_calls(page: &PageSpec, calls: &mut HashMap<String, Sent>) {
    let context = |sent: &mut Sent| {
        sent.param("RegionId");
        if let Some(parent) = &page.parent {
            sent.param(&parent.param);
        }
    };
    let mut forms: Vec<&FormSpec> = page.creates.iter().collect();
    for action in &page.row_actions {
        match &action.kind {
            ActionKind::Form(form) => forms.push(form),
            ActionKind::Call {
                action,
                id_param,
                fixed,
                ..
            } => {
                let sent = calls.entry(action.clone()).or_default();
                context(sent);
                sent.param(id_param);
                fixed.iter().for_each(|(k, _)| sent.param(k));
            }
            ActionKind::Details => {}
        }
    }
    for batch in &page.batch_actions {
        match &batch.kind {
            BatchKind::Form(form) => forms.push(form),
            BatchKind::Call { action, id_param, .. } => {
                let sent = calls.entry(action.clone()).or_default();
                context(sent);
                sent.param(id_param);
            }
        }
    }
    for form in forms.into_iter().filter(|f| !f.action.is_empty()) {
        for action in form.actions() {
            // A buy page's order is recorded as the console operation `Create`: `Create:<operation>`.
            let name = if form.container == Container::BuyPage {
                format!("Create:{action}")
            } else {
                action
            };
            let sent = calls.entry(name).or_default();
            context(sent);
            form.fixed.iter().for_each(|(k, _)| sent.param(k));
            form.compose.iter().for_each(|(k, _)| sent.param(k));
            if let Some(id) = &form.id_param {
                sent.param(id);
            }
            for step in form.steps.iter().filter(|s| s.then.is_none()) {
                for field in step.all_fields() {
                    sent.param(&field.param);
                    if let Some(values) = choices(&field.kind) {
                        sent.choices
                            .entry(field.param.replace(".N.", ".1."))
                            .or_default()
                            .extend(values);
                    }
                }
            }
        }
        for step in &form.steps {
            let Some((then, carry)) = &step.then else { continue };
            let sent = calls.entry(then.clone()).or_default();
            context(sent);
            carry.iter().for_each(|(k, _)| sent.param(k));
            step.fields.iter().for_each(|f| sent.param(&f.param));
        }
    }
    let list = calls.entry(page.list_action.clone()).or_default();
    context(list);
    list.param(&page.id_param);
    list.param(&page.page_param);
    list.param("PageSize");
    page.list_params.iter().for_each(|(k, _)| list.param(k));
    for option in &page.search {
        option.params.iter().for_each(|(k, _)| list.param(k));
    }
}

fn choices(kind: &FieldKind) -> Option<Vec<String>> {
    match kind {
        FieldKind::Radio(items) | FieldKind::Select(OptionSource::Static(items)) => {
            Some(items.iter().map(|(v, _)| v.clone()).collect())
        }
        _ => None,
    }
}

fn product_calls(spec: &ProductSpec) -> HashMap<String, Sent> {
    let mut calls = HashMap::new();
    for page in &spec.pages {
        page_calls(page, &mut calls);
    }
    calls
}

/// What is wrong with one matcher of a page's rule.
fn matcher_problems(matcher: &EventMatcher, spec: &ProductSpec) -> Vec<String> {
    let mut problems = Vec::new();
    let Some(api) = api_product(&spec.api) else {
        return vec![format!("the {} console has no API", spec.code)];
    };
    let calls = product_calls(spec);
    let name = matcher.event_name.as_str();
    let buy = name == "Create";
    // A buy page's order: the buy page whose fields the rule names.
    let candidates: Vec<(&String, &Sent)> = calls
        .iter()
        .filter(|(key, _)| {
            if buy {
                key.starts_with("Create:")
            } else {
                key.as_str() == name
            }
        })
        .collect();
    let chosen = candidates
        .iter()
        .find(|(_, sent)| matcher.parameters.iter().all(|c| sent.params.contains(&c.name)))
        .or(candidates.first());
    let Some(&(key, sent)) = chosen else {
        return vec![format!("the {} console never calls {name}", spec.code)];
    };
    let expected_type = if buy {
        EventType::ConsoleOperation
    } else {
        EventType::ApiCall
    };
    if matcher.event_type.is_some_and(|t| t != expected_type) {
        problems.push(format!("{name} is recorded as {expected_type:?}"));
    }
    let operation_name = key.strip_prefix("Create:").unwrap_or(key);
    match api.operation(operation_name) {
        None => problems.push(format!("{} has no operation {operation_name}", api.code)),
        Some(op) => {
            if !op.audited {
                problems.push(format!("{name} is not recorded in ActionTrail"));
            }
            let service = op.service_name.unwrap_or(api.service_name);
            if matcher.service_name.as_deref().is_some_and(|s| s != service) {
                problems.push(format!("{name} is recorded with the service name {service}"));
            }
        }
    }
    for condition in &matcher.parameters {
        if !sent.params.contains(&condition.name) {
            problems.push(format!("the console does not send {} to {name}", condition.name));
            continue;
        }
        if let (ParameterTest::Equals(value), Some(allowed)) = (&condition.test, sent.choices.get(&condition.name)) {
            let text = value.as_str().map_or_else(|| value.to_string(), str::to_owned);
            if !text.contains("${") && !allowed.contains(&text) {
                problems.push(format!(
                    "{} = {text} is not among the console's choices {allowed:?}",
                    condition.name
                ));
            }
        }
    }
    problems
}

#[test]
fn every_rule_matches_what_the_console_records() {
    let mut problems = Vec::new();
    for page in corpus() {
        let profile: ProfileId = match page.task.profile.parse() {
            Ok(p) => p,
            Err(_) => {
                problems.push(format!("{}: unknown profile", page.path.display()));
                continue;
            }
        };
        let Some(spec) = spec::product(profile, &page.task.product) else {
            problems.push(format!("{}: no product {}", page.path.display(), page.task.product));
            continue;
        };
        for matcher in &page.task.rule.events {
            for problem in matcher_problems(matcher, spec) {
                problems.push(format!("{}: {problem}", page.path.display()));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}
