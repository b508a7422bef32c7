//! The runtime against the bundled console emulator: every product's list page, a buy wizard, a
//! dialog, a portal select, the ActionTrail page's iframe and the shadow-DOM CIDR input are observed;
//! then a VPC is created purely by indexes found by role and name, and found in ActionTrail.

mod common;

use std::time::Duration;

use aca_console::ConsoleConfig;
use aca_core::{ActionOutcome, Element, GuiAction, Observation, PlaceKind, Role};
use aca_e2e::Emulator;
use aca_runner::{Session, find};
use common::{element, observe, request, runner};

const PRODUCTS: [&str; 12] = [
    "ecs",
    "rds",
    "tair",
    "vpc",
    "slb",
    "dns",
    "ram",
    "kms",
    "oss",
    "sls",
    "actiontrail",
    "cms",
];

async fn logged_on(emulator: &Emulator, runner: &aca_runner::Runner) -> Session {
    let mut session = Session::open(runner, "about:blank").await.unwrap();
    aca_runner::logon::log_on(
        &mut session,
        &format!("{}/login", emulator.url),
        &emulator.account.login,
        &emulator.account.password,
    )
    .await
    .unwrap();
    session
}

async fn settled_observation(session: &mut Session) -> Observation {
    session.wait_settled(Duration::from_secs(5)).await.unwrap();
    observe(session).await
}

fn in_place(element: &Element, kind: PlaceKind) -> bool {
    element.places.iter().any(|p| p.kind == kind)
}

/// The elements with this role and name, in page order.
fn all<'a>(observation: &'a Observation, role: Role, name: &str) -> Vec<&'a Element> {
    observation
        .elements
        .iter()
        .filter(|e| e.role == role && e.name.trim().eq_ignore_ascii_case(name))
        .collect()
}

/// A button or a link styled as one.
fn action<'a>(observation: &'a Observation, name: &str) -> &'a Element {
    find::by_name(observation, Role::Button, name)
        .or_else(|| find::by_name(observation, Role::Link, name))
        .unwrap_or_else(|| panic!("no button or link {name:?} in:\n{}", observation.to_text()))
}

async fn act(session: &mut Session, action: GuiAction) -> ActionOutcome {
    let outcome = session.act(request(action.clone())).await;
    assert!(outcome.succeeded(), "{} gave {outcome:?}", action.call_syntax());
    outcome
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_products_list_page_is_observed() {
    let emulator = Emulator::start(ConsoleConfig::for_tests()).await.unwrap();
    let runner = runner().await;
    let mut session = logged_on(&emulator, &runner).await;
    for product in PRODUCTS {
        session
            .goto(&format!("{}/console/{product}?region=cn-hangzhou", emulator.url))
            .await
            .unwrap();
        let observation = settled_observation(&mut session).await;
        let text = observation.to_text();
        assert!(
            observation.url.contains(&format!("/console/{product}/")),
            "{product}: landed on {}",
            observation.url
        );
        assert!(
            observation
                .elements
                .iter()
                .any(|e| in_place(e, PlaceKind::Navigation) && e.role == Role::Link),
            "{product}: no links in the navigation pane:\n{text}"
        );
        assert!(
            observation.elements.iter().any(|e| e.role == Role::Heading),
            "{product}: no heading:\n{text}"
        );
        element(&observation, Role::Link, "Console home");
        let mut indexes: Vec<u32> = observation.elements.iter().map(|e| e.index).collect();
        indexes.sort_unstable();
        indexes.dedup();
        assert_eq!(
            indexes.len(),
            observation.elements.len(),
            "{product}: indexes are unique"
        );
        assert!(
            !text.contains("<script"),
            "{product}: no markup leaks into the text tree"
        );
    }
    runner.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wizards_dialogs_portal_selects_frames_and_shadow_roots_are_observed() {
    let emulator = Emulator::start(ConsoleConfig::for_tests()).await.unwrap();
    let base = emulator.url.clone();
    let runner = runner().await;
    let mut session = logged_on(&emulator, &runner).await;

    // The ECS buy wizard: its first step's billing radios and zone select.
    session
        .goto(&format!(
            "{base}/console/ecs/instances/buy/buy-instance?region=cn-hangzhou"
        ))
        .await
        .unwrap();
    let wizard = settled_observation(&mut session).await;
    let postpaid = element(&wizard, Role::Radio, "Pay-as-you-go");
    assert_eq!(postpaid.state.checked, Some(true), "{postpaid:?}");
    element(&wizard, Role::Combobox, "Zone");
    element(&wizard, Role::Button, "Next");

    // The shadow-DOM CIDR input of the Create VPC page, with its default value.
    session
        .goto(&format!("{base}/console/vpc/vpcs/create/create-vpc?region=cn-hangzhou"))
        .await
        .unwrap();
    let create = settled_observation(&mut session).await;
    let cidr = all(&create, Role::Textbox, "IPv4 CIDR Block");
    assert_eq!(cidr.len(), 2, "the VPC's and the vSwitch's:\n{}", create.to_text());
    assert!(in_place(cidr[0], PlaceKind::Shadow), "{:?}", cidr[0]);
    assert_eq!(cidr[0].value.as_deref(), Some("192.168.0.0/16"));

    // The Create vSwitch dialog and its zone select, whose options render in a portal.
    session
        .goto(&format!("{base}/console/vpc/vswitches?region=cn-hangzhou"))
        .await
        .unwrap();
    let list = settled_observation(&mut session).await;
    act(
        &mut session,
        GuiAction::Click {
            index: action(&list, "Create vSwitch").index,
        },
    )
    .await;
    let dialog = settled_observation(&mut session).await;
    let ok = find::in_place(&dialog, PlaceKind::Dialog, "Create vSwitch", Role::Button, "OK")
        .unwrap_or_else(|| panic!("no OK in the dialog:\n{}", dialog.to_text()));
    assert!(ok.is_new, "the dialog's button is new since the last observation");
    let zone = find::in_place(&dialog, PlaceKind::Dialog, "Create vSwitch", Role::Combobox, "Zone")
        .unwrap_or_else(|| panic!("no Zone select in the dialog:\n{}", dialog.to_text()))
        .index;
    act(&mut session, GuiAction::Click { index: zone }).await;
    let open = settled_observation(&mut session).await;
    let option = element(&open, Role::Option, "Hangzhou Zone I");
    assert_eq!(
        option.option_of,
        Some(zone),
        "the portal option points at its select:\n{}",
        open.to_text()
    );
    act(&mut session, GuiAction::Click { index: option.index }).await;
    let chosen = settled_observation(&mut session).await;
    let zone_now = find::in_place(&chosen, PlaceKind::Dialog, "Create vSwitch", Role::Combobox, "Zone").unwrap();
    assert_eq!(zone_now.value.as_deref(), Some("Hangzhou Zone I"), "{zone_now:?}");

    // ActionTrail's Event Query page shows its events inside an iframe.
    session
        .goto(&format!("{base}/console/actiontrail/events?region=cn-hangzhou"))
        .await
        .unwrap();
    let mut events = settled_observation(&mut session).await;
    for _ in 0..30 {
        if events.elements.iter().any(|e| in_place(e, PlaceKind::Frame)) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        events = observe(&mut session).await;
    }
    assert!(
        events
            .elements
            .iter()
            .any(|e| in_place(e, PlaceKind::Frame) && e.role == Role::Textbox),
        "the frame's search box:\n{}",
        events.to_text()
    );
    runner.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_vpc_created_by_role_and_name_reaches_actiontrail() {
    let emulator = Emulator::start(ConsoleConfig::for_tests()).await.unwrap();
    let base = emulator.url.clone();
    let runner = runner().await;
    let mut session = logged_on(&emulator, &runner).await;
    session
        .goto(&format!("{base}/console/vpc/vpcs?region=cn-hangzhou"))
        .await
        .unwrap();

    let list = settled_observation(&mut session).await;
    let outcome = act(
        &mut session,
        GuiAction::Click {
            index: action(&list, "Create VPC").index,
        },
    )
    .await;
    assert!(
        matches!(&outcome, ActionOutcome::Navigated { url } if url.contains("/create/create-vpc")),
        "{outcome:?}"
    );

    let form = settled_observation(&mut session).await;
    let names = all(&form, Role::Textbox, "Name");
    assert_eq!(names.len(), 2, "the VPC's and the vSwitch's name:\n{}", form.to_text());
    let (vpc_name, vsw_name) = (names[0].index, names[1].index);
    let cidrs = all(&form, Role::Textbox, "IPv4 CIDR Block");
    assert_eq!(
        cidrs.len(),
        2,
        "the VPC's and the vSwitch's CIDR block:\n{}",
        form.to_text()
    );
    // Both live in a web component's shadow root; the VPC's holds a default that typing replaces.
    let (vpc_cidr, vsw_cidr) = (cidrs[0].index, cidrs[1].index);
    let zone = element(&form, Role::Combobox, "Zone").index;
    for (index, text) in [
        (vpc_name, "runner-vpc"),
        (vsw_name, "runner-vsw"),
        (vpc_cidr, "172.16.0.0/12"),
        (vsw_cidr, "172.16.7.0/24"),
    ] {
        act(
            &mut session,
            GuiAction::Type {
                index,
                text: text.into(),
                submit: false,
            },
        )
        .await;
    }
    act(&mut session, GuiAction::Click { index: zone }).await;
    let open = settled_observation(&mut session).await;
    act(
        &mut session,
        GuiAction::Click {
            index: element(&open, Role::Option, "Hangzhou Zone J").index,
        },
    )
    .await;

    let filled = settled_observation(&mut session).await;
    assert_eq!(
        filled.element(vsw_cidr).and_then(|e| e.value.as_deref()),
        Some("172.16.7.0/24")
    );
    assert_eq!(
        filled.element(vpc_cidr).and_then(|e| e.value.as_deref()),
        Some("172.16.0.0/12"),
        "the default was replaced, not appended to"
    );
    let outcome = act(
        &mut session,
        GuiAction::Click {
            index: element(&filled, Role::Button, "OK").index,
        },
    )
    .await;
    // The console shows "The VPC is created." and returns to the list a moment later: the agent's
    // wait() sees the navigation.
    if !matches!(outcome, ActionOutcome::Navigated { .. }) {
        element(
            &settled_observation(&mut session).await,
            Role::Alert,
            "The VPC is created.",
        );
        let mut waited = Vec::new();
        while waited.len() < 10 && !matches!(waited.last(), Some(ActionOutcome::Navigated { .. })) {
            waited.push(session.act(request(GuiAction::Wait { ms: Some(1_000) })).await);
        }
        assert!(
            matches!(waited.last(), Some(ActionOutcome::Navigated { url }) if url.contains("/console/vpc/vpcs?")),
            "{waited:?}"
        );
    }
    let listed = settled_observation(&mut session).await;
    assert!(
        listed.elements.iter().any(|e| e
            .places
            .iter()
            .any(|p| p.kind == PlaceKind::Row && p.name.contains("runner-vpc"))),
        "the new VPC in the list:\n{}",
        listed.to_text()
    );

    for (event, parameter, value) in [
        ("CreateVpc", "VpcName", "runner-vpc"),
        ("CreateVpc", "CidrBlock", "172.16.0.0/12"),
        ("CreateVSwitch", "CidrBlock", "172.16.7.0/24"),
        ("CreateVSwitch", "ZoneId", "cn-hangzhou-j"),
    ] {
        let (status, body) = emulator
            .call(
                "2020-07-06",
                "LookupEvents",
                &[
                    ("LookupAttribute.1.Key", "EventName"),
                    ("LookupAttribute.1.Value", event),
                ],
            )
            .await
            .unwrap();
        assert_eq!(status, 200, "{body}");
        let events = body["Events"].as_array().cloned().unwrap_or_default();
        assert!(
            events
                .iter()
                .any(|e| e["requestParameters"][parameter] == value && e["userAgent"] == "vpc.console.aliyun.com"),
            "no {event} with {parameter}={value}: {body}"
        );
    }
    runner.close().await;
}
