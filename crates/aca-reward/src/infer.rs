//! Inferring a success rule from a procedure through the operation catalog, for pages that come
//! without a written rule. The rule is marked `inferred` and the explanation says what it rests on,
//! so that the report can ask the writer to confirm it.
//!
//! Evidence, strongest first: the Related API operations section (kept when the steps perform the
//! operation), the title's task (`Create a VPC`), the titles of "Step N: …" sections, and, when
//! none of these names an operation, the last dialog or button a step names (`Create Snapshot`).
//! Values the steps enter (and parameter-table examples) become parameter conditions on the
//! operation whose dialog, section or object the step names.

use aca_core::{EventMatcher, ParameterCondition, ParameterTest, Procedure, Step, SuccessRule};
use serde_json::Value;

use crate::catalog::{self, OperationEntry, PRODUCTS, ProductEntry};

/// An inferred rule, or why there is none, in words for the writer.
#[derive(Debug, Clone, PartialEq)]
pub struct Inference {
    /// `inferred` is set; `None` when the page names no operation the catalog knows.
    pub rule: Option<SuccessRule>,
    pub explanation: String,
}

/// API operations that read and leave no proof that anything was done.
const READ_PREFIXES: &[&str] = &["Describe", "List", "Get", "Query", "Check", "Search"];

/// One operation of the rule being built, and why it is there.
struct Chosen {
    op: &'static OperationEntry,
    /// Operations that do as well: the reader's choice in a control, or another way the step offers.
    or: Vec<&'static OperationEntry>,
    because: Vec<String>,
    parameters: Vec<(String, String, String)>,
}

/// Infers the rule of `procedure`.
pub fn infer_rule(procedure: &Procedure) -> Inference {
    // The console the steps open names the product more closely than the title's family name
    // ("Server Load Balancer:Add an HTTP listener" done in the ALB console), as
    // `aca_core::ProductConsole::of_procedure` reads it.
    let product = all_steps(procedure)
        .find_map(|c| c.step.opens_console.as_deref().and_then(catalog::product))
        .or_else(|| procedure.product.as_deref().and_then(catalog::product));
    let scope: Vec<&'static ProductEntry> = match product {
        Some(p) => vec![p],
        None => PRODUCTS.iter().collect(),
    };
    let mut notes: Vec<String> = Vec::new();
    if product.is_none() {
        notes.push(match &procedure.product {
            Some(name) => format!("the product {name:?} is not in the catalog, so every product was considered"),
            None => "the page names no product, so every product was considered".to_owned(),
        });
    }
    let page_text = page_text(procedure);
    let task_op = task_operation(&procedure.task, &scope);
    let mut chosen: Vec<Chosen> = Vec::new();

    for name in &procedure.related_api {
        let found = catalog::by_operation(name, product);
        let Some(op) = found
            .iter()
            .copied()
            .find(|op| mentions_object(&page_text, op))
            .or(found.first().copied())
        else {
            if !READ_PREFIXES.iter().any(|p| name.starts_with(p)) {
                notes.push(format!(
                    "{name} (Related API operations) is not in the operation catalog"
                ));
            }
            continue;
        };
        let by_task = task_op.is_some_and(|t| std::ptr::eq(t, op));
        if by_task || (mentions_object(&page_text, op) && mentions_verb(&page_text, op)) {
            add(&mut chosen, op, "the Related API operations section".to_owned());
        } else {
            notes.push(format!(
                "{name} is listed under Related API operations but no step performs it, so it was left out"
            ));
        }
    }
    if let Some(op) = task_op {
        add(&mut chosen, op, format!("the title's task {:?}", procedure.task));
    }
    for section in sections(procedure) {
        if let Some(op) = task_operation(section, &scope) {
            // "Step 1: Create a listener" on a page whose task is "Add an HTTP listener" names the
            // operation already chosen more loosely, not another one.
            let op = chosen
                .iter()
                .map(|c| c.op)
                .find(|c| names_loosely(section, c))
                .unwrap_or(op);
            add(&mut chosen, op, format!("the section {section:?}"));
        }
    }
    if chosen.is_empty()
        && let Some((label, ops)) = last_named_operation(procedure, &scope)
    {
        add(&mut chosen, ops[0], format!("the step's dialog or button {label:?}"));
        chosen[0].or = ops[1..].to_vec();
    }
    if chosen.is_empty() {
        return Inference {
            rule: None,
            explanation: nothing_inferred(procedure, &notes),
        };
    }
    with_same_task(&mut chosen, &scope);
    collect_parameters(procedure, &scope, &mut chosen, &mut notes);
    build(chosen, &notes)
}

/// Each chosen operation is met as well by those doing the same task in another state of the
/// resource ([`ProductEntry::same_task`]).
fn with_same_task(chosen: &mut [Chosen], scope: &[&'static ProductEntry]) {
    for c in chosen {
        for product in scope {
            for group in product.same_task.iter().filter(|g| g.contains(&c.op.event_name)) {
                for name in group.iter().filter(|n| **n != c.op.event_name) {
                    let Some(op) = product.operations.iter().find(|o| o.event_name == *name) else {
                        continue;
                    };
                    if !c.or.iter().any(|o| std::ptr::eq(*o, op)) {
                        c.or.push(op);
                    }
                }
            }
        }
    }
}

fn add(chosen: &mut Vec<Chosen>, op: &'static OperationEntry, because: String) {
    match chosen.iter_mut().find(|c| std::ptr::eq(c.op, op)) {
        Some(existing) => existing.because.push(because),
        None => chosen.push(Chosen {
            op,
            or: Vec::new(),
            because: vec![because],
            parameters: Vec::new(),
        }),
    }
}

fn build(chosen: Vec<Chosen>, notes: &[String]) -> Inference {
    let mut lines = vec!["Inferred from the operation catalog (please confirm):".to_owned()];
    let mut events = Vec::new();
    for c in &chosen {
        let op = c.op;
        let names: Vec<&str> = std::iter::once(op).chain(c.or.iter().copied()).map(|o| o.event_name).collect();
        let mut line = format!("- {} ({}", names.join(" or "), op.service_name);
        if op.is_purchase() {
            line.push_str(&format!(
                ", a ConsoleOperation: the buy page's purchase behind {}",
                op.api
            ));
        }
        line.push_str(&format!("), from {}", c.because.join(" and ")));
        if !c.parameters.is_empty() {
            let conditions: Vec<String> = c
                .parameters
                .iter()
                .map(|(param, value, label)| format!("{param} = {value:?} (the page's {label})"))
                .collect();
            line.push_str(&format!("; with {}", conditions.join(", ")));
        }
        lines.push(line);
        events.push(EventMatcher {
            event_name: op.event_name.to_owned(),
            or_event_names: c.or.iter().map(|o| o.event_name.to_owned()).collect(),
            service_name: Some(op.service_name.to_owned()),
            event_type: op.is_purchase().then_some(op.event_type),
            succeeded: true,
            // Operations of one choice may reference different kinds of resource.
            resource_type: op
                .resource_type
                .filter(|kind| c.or.iter().all(|o| o.resource_type == Some(kind)))
                .map(str::to_owned),
            parameters: c
                .parameters
                .iter()
                .map(|(param, value, _)| ParameterCondition {
                    name: param.clone(),
                    test: ParameterTest::Equals(Value::String(value.clone())),
                })
                .collect(),
        });
    }
    lines.extend(notes.iter().map(|n| format!("Note: {n}.")));
    Inference {
        rule: Some(SuccessRule { events, inferred: true }),
        explanation: lines.join("\n"),
    }
}

fn nothing_inferred(procedure: &Procedure, notes: &[String]) -> String {
    let mut reasons = vec![format!(
        "the title's task {:?} names no operation of the catalog",
        procedure.task
    )];
    if procedure.related_api.is_empty() {
        reasons.push("the page has no Related API operations section".to_owned());
    } else {
        reasons.push(format!(
            "none of its Related API operations ({}) is a catalogued operation the steps perform",
            procedure.related_api.join(", ")
        ));
    }
    reasons.push("no step names a dialog or button of a catalogued operation".to_owned());
    let mut text = format!(
        "No success rule could be inferred: {}. Write the rule for this page by hand.",
        reasons.join("; ")
    );
    for n in notes {
        text.push_str(&format!("\nNote: {n}."));
    }
    text
}

/// The operation a task phrase names: a leading verb and an object (`Create a VPC`,
/// `Step 2: Create a vSwitch`, the dialog title `Create Snapshot`). The longest object wins.
fn task_operation(text: &str, scope: &[&'static ProductEntry]) -> Option<&'static OperationEntry> {
    let text = match text.trim().split_once(':') {
        Some((head, rest)) if head.trim_start().starts_with("Step") => rest.trim(),
        _ => text.trim(),
    };
    let (verb, rest) = text.split_once(char::is_whitespace)?;
    let verb = verb.to_lowercase();
    let mut best: Option<(usize, &'static OperationEntry)> = None;
    for op in scope.iter().flat_map(|p| p.operations.iter()) {
        if !op.verbs.contains(&verb.as_str()) {
            continue;
        }
        let longest = op
            .objects
            .iter()
            .filter(|o| contains_phrase(rest, o))
            .map(|o| o.len())
            .max();
        if let Some(len) = longest
            && best.is_none_or(|(b, _)| len > b)
        {
            best = Some((len, op));
        }
    }
    best.map(|(_, op)| op)
}

/// Whether a section title ("Step 1: Create a listener") names `op` by its verb and the head noun
/// of one of its objects ("HTTP listener").
fn names_loosely(section: &str, op: &OperationEntry) -> bool {
    let text = match section.trim().split_once(':') {
        Some((head, rest)) if head.trim_start().starts_with("Step") => rest.trim(),
        _ => section.trim(),
    };
    let Some((verb, rest)) = text.split_once(char::is_whitespace) else {
        return false;
    };
    op.verbs.contains(&verb.to_lowercase().as_str())
        && op
            .objects
            .iter()
            .filter_map(|o| o.split_whitespace().last())
            .any(|noun| contains_phrase(rest, noun))
}

/// The last dialog, panel, page or button a step acts on that calls a catalogued operation, with
/// every operation that does the step as well: the others a control lets the reader pick
/// ([`catalog::Choice`]), and those of the other ways the step offers (a page offering several
/// operations is done by any one). Labels named only in passing are no evidence.
fn last_named_operation(
    procedure: &Procedure,
    scope: &[&'static ProductEntry],
) -> Option<(String, Vec<&'static OperationEntry>)> {
    let mut last = None;
    for ctx in all_steps(procedure) {
        let step = ctx.step;
        let names = step
            .container
            .iter()
            .map(|c| &c.name)
            .chain(step.labels.iter().filter(|l| !step.mentions.contains(l)));
        for name in names {
            let Some(mut ops) = named_operations(name, &step.text, scope) else {
                continue;
            };
            for way in &step.alternatives {
                for label in step.mentions.iter().filter(|m| way.contains(m.as_str())) {
                    for op in named_operations(label, way, scope).unwrap_or_default() {
                        if !ops.iter().any(|o| std::ptr::eq(*o, op)) {
                            ops.push(op);
                        }
                    }
                }
            }
            last = Some((name.clone(), ops));
        }
    }
    last
}

/// The operations a control named in `sentence` calls: those of its choice, or the one it names.
fn named_operations(
    name: &str,
    sentence: &str,
    scope: &[&'static ProductEntry],
) -> Option<Vec<&'static OperationEntry>> {
    for product in scope {
        if let Some(choice) = product.choices.iter().find(|c| c.control.eq_ignore_ascii_case(name.trim())) {
            return Some(
                choice
                    .event_names
                    .iter()
                    .filter_map(|e| product.operations.iter().find(|o| o.event_name == *e))
                    .collect::<Vec<_>>(),
            )
            .filter(|ops| !ops.is_empty());
        }
    }
    // A button named by its verb alone ("specify a weight for the backend server … and click
    // Add"): the object is the sentence's.
    let bare_verb = !name.contains(' ');
    task_operation(name, scope)
        .or_else(|| {
            bare_verb
                .then(|| task_operation(&format!("{name} {sentence}"), scope))
                .flatten()
        })
        .map(|op| vec![op])
}

fn sections(procedure: &Procedure) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    for step in &procedure.steps {
        if let Some(section) = step.section.as_deref()
            && !out.contains(&section)
        {
            out.push(section);
        }
    }
    out
}

/// Values entered by the steps, and examples of parameter tables, as conditions on the chosen
/// operation each belongs to. Purchases get none: their events carry no request parameters.
fn collect_parameters(
    procedure: &Procedure,
    scope: &[&'static ProductEntry],
    chosen: &mut [Chosen],
    notes: &mut Vec<String>,
) {
    let contexts: Vec<StepContext<'_>> = all_steps(procedure).collect();
    let mut entered: Vec<(Option<&StepContext<'_>>, &str, &str)> = Vec::new();
    for ctx in &contexts {
        for v in &ctx.step.values {
            if let Some(label) = &v.label {
                entered.push((Some(ctx), label, &v.value));
            }
        }
    }
    for table in &procedure.parameters {
        let ctx = table
            .step
            .as_deref()
            .and_then(|n| contexts.iter().find(|c| c.step.number == n));
        for row in &table.rows {
            if let Some(example) = &row.example {
                entered.push((ctx, &row.name, example));
            }
        }
    }
    for (ctx, label, value) in entered {
        let takers: Vec<usize> = chosen
            .iter()
            .enumerate()
            .filter(|(_, c)| !c.op.is_purchase() && c.or.is_empty() && field(c.op, label).is_some())
            .map(|(i, _)| i)
            .collect();
        let Some(index) = owner(ctx, &takers, chosen, scope) else {
            continue;
        };
        let c = &mut chosen[index];
        let Some(param) = field(c.op, label) else {
            continue;
        };
        match c.parameters.iter().find(|(p, _, _)| p == param) {
            Some((_, earlier, _)) if earlier != value => notes.push(format!(
                "the page gives {label} both {earlier:?} and {value:?}; the rule uses the first"
            )),
            Some(_) => {}
            None => c
                .parameters
                .push((param.to_owned(), value.to_owned(), label.to_owned())),
        }
    }
}

fn field(op: &OperationEntry, label: &str) -> Option<&'static str> {
    op.fields
        .iter()
        .find(|(l, _)| l.eq_ignore_ascii_case(label.trim()))
        .map(|(_, p)| *p)
}

/// Which of the `takers` (indexes into `chosen`) a value entered in `ctx` belongs to: the step's
/// own dialog, then the object its sentence names, then its parent steps' dialogs and sentences,
/// then its section, then the first operation.
fn owner(
    ctx: Option<&StepContext<'_>>,
    takers: &[usize],
    chosen: &[Chosen],
    scope: &[&'static ProductEntry],
) -> Option<usize> {
    match takers {
        [] => return None,
        [only] => return Some(*only),
        _ => {}
    }
    let Some(ctx) = ctx else {
        return takers.first().copied();
    };
    let by_name = |name: &str| {
        let op = task_operation(name, scope)?;
        takers.iter().copied().find(|&i| std::ptr::eq(chosen[i].op, op))
    };
    let by_mention = |step: &Step| {
        let text = without_values(step);
        let named: Vec<usize> = takers
            .iter()
            .copied()
            .filter(|&i| mentions_object(&text, chosen[i].op))
            .collect();
        (named.len() == 1).then(|| named[0])
    };
    let chain = std::iter::once(ctx.step).chain(ctx.ancestors.iter().rev().copied());
    for step in chain {
        if let Some(i) = step.container.as_ref().and_then(|c| by_name(&c.name)) {
            return Some(i);
        }
        if let Some(i) = by_mention(step) {
            return Some(i);
        }
    }
    ctx.ancestors
        .first()
        .copied()
        .unwrap_or(ctx.step)
        .section
        .as_deref()
        .and_then(by_name)
        .or(takers.first().copied())
}

/// A step's sentence without the values it enters (`app-vpc` must not read as a mention of a VPC).
fn without_values(step: &Step) -> String {
    let mut text = step.text.clone();
    for v in &step.values {
        text = text.replace(&v.value, " ");
    }
    text
}

/// A step with the steps it is nested in, outermost first.
struct StepContext<'a> {
    step: &'a Step,
    ancestors: Vec<&'a Step>,
}

fn all_steps(procedure: &Procedure) -> impl Iterator<Item = StepContext<'_>> {
    fn walk<'a>(step: &'a Step, ancestors: &mut Vec<&'a Step>, out: &mut Vec<StepContext<'a>>) {
        out.push(StepContext {
            step,
            ancestors: ancestors.clone(),
        });
        ancestors.push(step);
        for sub in &step.substeps {
            walk(sub, ancestors, out);
        }
        ancestors.pop();
    }
    let mut out = Vec::new();
    for step in &procedure.steps {
        walk(step, &mut Vec::new(), &mut out);
    }
    out.into_iter()
}

/// The task, the sections and every step's sentence, values removed, as one text.
fn page_text(procedure: &Procedure) -> String {
    let mut parts = vec![procedure.task.clone()];
    parts.extend(sections(procedure).into_iter().map(str::to_owned));
    parts.extend(all_steps(procedure).map(|c| without_values(c.step)));
    parts.join("\n")
}

fn mentions_object(text: &str, op: &OperationEntry) -> bool {
    op.objects.iter().any(|o| contains_phrase(text, o))
}

fn mentions_verb(text: &str, op: &OperationEntry) -> bool {
    op.verbs.iter().any(|v| contains_phrase(text, v))
}

/// `phrase` occurs in `text` as whole words, in any case.
fn contains_phrase(text: &str, phrase: &str) -> bool {
    let text = text.to_lowercase();
    let phrase = phrase.to_lowercase();
    let mut from = 0;
    while let Some(at) = text[from..].find(&phrase) {
        let start = from + at;
        let end = start + phrase.len();
        let before_ok = text[..start].chars().next_back().is_none_or(|c| !c.is_alphanumeric());
        let after_ok = text[end..].chars().next().is_none_or(|c| !c.is_alphanumeric());
        if before_ok && after_ok {
            return true;
        }
        from = start + text[start..].chars().next().map_or(1, char::len_utf8);
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phrases_match_whole_words_only() {
        assert!(contains_phrase("Create a VPC", "vpc"));
        assert!(!contains_phrase("Create a vSwitches", "vSwitch"));
        assert!(contains_phrase("Add a RAM user to a user group", "to a user group"));
        assert!(!contains_phrase("keys", "key"));
    }

    #[test]
    fn tasks_name_operations_by_verb_and_the_longest_object() {
        let all: Vec<&'static ProductEntry> = PRODUCTS.iter().collect();
        let vpc = vec![catalog::product("VPC").unwrap()];
        assert_eq!(
            task_operation("Create a VPC", &vpc).map(|o| o.event_name),
            Some("CreateVpc")
        );
        assert_eq!(
            task_operation("Step 2: Create a vSwitch", &vpc).map(|o| o.event_name),
            Some("CreateVSwitch")
        );
        assert_eq!(
            task_operation("Create Snapshot", &all).map(|o| o.event_name),
            Some("CreateSnapshot")
        );
        assert_eq!(
            task_operation("Add a RAM user to a user group", &all).map(|o| o.event_name),
            Some("AddUserToGroup")
        );
        let ram = vec![catalog::product("RAM").unwrap()];
        for (task, event) in [
            ("Delete a RAM role", "DeleteRole"),
            ("Revoke permissions from a RAM role", "DetachPolicyFromRole"),
            ("Revoke permissions from a RAM user", "DetachPolicyFromUser"),
            ("Reset a RAM user's console password", "CreateLoginProfile"),
        ] {
            assert_eq!(task_operation(task, &ram).map(|o| o.event_name), Some(event), "{task}");
        }
        // Whether the user has console logon decides which of the two the console calls.
        let reset = aca_docs::parse_markdown(
            "# Resource Access Management:Reset a RAM user's console password\n\n## Procedure\n\n\
             1. On the **Authentication** tab, click **Enable Console Logon** or **Modify Logon Settings**.\n",
        )
        .unwrap();
        let rule = infer_rule(&reset).rule.expect("a rule");
        assert_eq!(rule.events[0].event_name, "CreateLoginProfile");
        assert_eq!(rule.events[0].or_event_names, ["UpdateLoginProfile"]);
        let kms = vec![catalog::product("KMS").unwrap()];
        for (task, event) in [
            ("Step 1: Create a generic secret", "CreateSecret"),
            ("Create a key", "CreateKey"),
        ] {
            assert_eq!(task_operation(task, &kms).map(|o| o.event_name), Some(event), "{task}");
        }
        let tair = vec![catalog::product("Tair").unwrap()];
        assert_eq!(
            task_operation("Restart an instance", &tair).map(|o| o.event_name),
            Some("RestartInstance")
        );
        assert!(task_operation("Build a network for a web application", &vpc).is_none());
        // A button named by its verb alone takes its object from the sentence.
        let page = aca_docs::parse_markdown(
            "# Server Load Balancer:Manage default server group\n\n## Procedure\n\n\
             1. In the **Ports/Weights** step, specify a weight for the backend server you selected and click **Add**.\n",
        )
        .unwrap();
        let clb = vec![catalog::product("CLB").unwrap()];
        assert_eq!(
            last_named_operation(&page, &clb).map(|(label, ops)| (label, ops[0].event_name, ops.len())),
            Some(("Add".to_owned(), "AddBackendServers", 1))
        );
    }
}
