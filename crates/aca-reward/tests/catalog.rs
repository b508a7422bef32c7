//! The operation catalog agrees with the bundled emulator: every catalogued event is an operation
//! the emulator serves under the same ActionTrail service name, every buy page of the emulator's
//! console is a catalogued purchase, and every field mapping is the one the console's form uses.

use aca_console::ProfileId;
use aca_console::products::PRODUCTS as EMULATED;
use aca_console::ui::spec::{self, ActionKind, Container, FormSpec};
use aca_reward::catalog::{OperationEntry, PRODUCTS};

/// Every product the emulator serves: the RPC products and the REST ones (OSS, Simple Log Service).
fn emulated() -> Vec<&'static aca_console::catalog::Product> {
    let mut all: Vec<&'static aca_console::catalog::Product> = EMULATED.to_vec();
    all.extend([&aca_console::rest::oss::PRODUCT, &aca_console::rest::sls::PRODUCT]);
    all
}

fn operations() -> impl Iterator<Item = &'static OperationEntry> {
    PRODUCTS.iter().flat_map(|p| p.operations.iter())
}

/// Every form of the 2026 console, with the API product code its page calls.
fn forms() -> Vec<(String, FormSpec)> {
    let mut out = Vec::new();
    for product in spec::products(ProfileId::Y2026) {
        for page in &product.pages {
            for form in &page.creates {
                out.push((product.api.clone(), form.clone()));
            }
            for action in &page.row_actions {
                if let ActionKind::Form(form) = &action.kind {
                    out.push((product.api.clone(), (**form).clone()));
                }
            }
        }
    }
    out
}

#[test]
fn every_catalogued_event_is_an_emulated_operation_of_the_same_service() {
    for op in operations() {
        let served = emulated().iter().any(|product| {
            product
                .operation(op.api)
                .is_some_and(|o| o.name == op.api && o.service_name.unwrap_or(product.service_name) == op.service_name)
        });
        assert!(served, "{} ({}) is not served by the emulator", op.api, op.service_name);
        if !op.is_purchase() {
            assert_eq!(
                op.event_name, op.api,
                "an API call is logged under its operation's name"
            );
        }
    }
}

#[test]
fn buy_pages_and_purchases_agree() {
    let forms = forms();
    let buy_pages: Vec<&FormSpec> = forms
        .iter()
        .map(|(_, f)| f)
        .filter(|f| f.container == Container::BuyPage)
        .collect();
    assert!(buy_pages.len() >= 5, "ECS instance and disk, RDS, Tair, CLB");
    for page in &buy_pages {
        assert!(
            operations().any(|op| op.is_purchase() && op.api == page.action),
            "the {:?} buy page ({}) has no catalogued purchase",
            page.title,
            page.action
        );
    }
    for op in operations().filter(|op| op.is_purchase()) {
        assert!(
            buy_pages.iter().any(|page| page.action == op.api),
            "the purchase behind {} has no buy page in the console",
            op.api
        );
        assert_eq!((op.event_name, op.fields.len()), ("Create", 0));
    }
}

#[test]
fn field_mappings_are_the_console_forms_own() {
    let forms = forms();
    let mut checked = 0;
    for op in operations() {
        let submitting: Vec<&FormSpec> = forms
            .iter()
            .map(|(_, f)| f)
            .filter(|f| f.actions().contains(&op.api.to_owned()))
            .collect();
        if submitting.is_empty() {
            continue;
        }
        for (label, param) in op.fields {
            let found = submitting
                .iter()
                .any(|f| f.fields().any(|field| field.label == *label && field.param == *param));
            assert!(found, "{}: no console form maps {label:?} to {param}", op.api);
            checked += 1;
        }
    }
    assert!(checked >= 15, "only {checked} field mappings could be checked");
}
