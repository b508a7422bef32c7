//! ResourceCoder against the emulator: the rule-based generator writes, for the example corpus'
//! pages, METAs that create what the hand-written ones create and that validate; a model's draft
//! that fails is corrected with the error in hand; at run time a request is provisioned around what
//! exists already, reported, and offered back to the META library without overwriting.

mod common;

use std::collections::BTreeSet;
use std::path::Path;

use aca_chat::fake::{FakeModel, FakeResponse};
use aca_chat::{ChatClient, ChatConfig};
use aca_provision::coder::{self, CoderError, Generator, ModelGenerator, PageContext, ResourceCoder};
use aca_provision::{Applier, Meta, Suffix};
use common::Setup;

fn corpus() -> Vec<aca_docs::corpus::CorpusPage> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/corpus");
    aca_docs::corpus::load_corpus(&dir).unwrap_or_else(|e| panic!("{e}"))
}

fn context(page: &aca_docs::corpus::CorpusPage) -> PageContext {
    PageContext {
        procedure: page.procedure.clone(),
        product: Some(page.task.product.clone()),
        region: page.task.region.clone(),
        source: page.path.display().to_string(),
    }
}

/// The `${binding}`s the page's success rule refers to that `bindings` lacks, in words.
fn unbound_in_rule(page: &aca_docs::corpus::CorpusPage, bindings: &[String], which: &str) -> Option<String> {
    let rule = serde_json::to_string(&page.task.rule).unwrap();
    let missing: BTreeSet<&str> = rule
        .split("${")
        .skip(1)
        .filter_map(|rest| rest.split_once('}').map(|(name, _)| name))
        .filter(|name| !bindings.iter().any(|b| b == name))
        .collect();
    (!missing.is_empty()).then(|| {
        format!(
            "{} ({which}): {}",
            page.slug(),
            missing.into_iter().collect::<Vec<_>>().join(", ")
        )
    })
}

/// The `kind.block` addresses a configuration creates.
fn addresses(terraform: &str) -> BTreeSet<String> {
    let config = aca_provision::config::Configuration::parse("t.tf", terraform).unwrap_or_else(|e| panic!("{e}"));
    config.resources().map(|b| b.address.to_string()).collect()
}

#[tokio::test]
async fn generated_metas_create_what_the_written_ones_do_and_validate() {
    let setup = Setup::new().await;
    let account = setup.account();
    let scratch = setup.applier(&account);
    let coder = ResourceCoder::rule_based();
    let pages = corpus();
    let (mut same, mut different) = (0, Vec::new());
    let mut unbound = Vec::new();
    for page in &pages {
        let written = page.task.meta.as_ref();
        if let Some(written) = written {
            let validation =
                coder::validate::validate(&scratch, &page.path.display().to_string(), written, &page.task.region)
                    .await
                    .unwrap_or_else(|e| panic!("{}: the written META does not validate: {e}", page.slug()));
            unbound.extend(unbound_in_rule(page, &validation.bindings, "written"));
        }
        match coder.generate(&context(page), &scratch).await {
            Ok(generated) => {
                unbound.extend(unbound_in_rule(page, &generated.validation.bindings, "generated"));
                let ours = addresses(&generated.meta.terraform);
                match written {
                    Some(w) if addresses(&w.terraform) == ours => same += 1,
                    Some(w) => different.push(format!("{}: {:?} vs {:?}", page.slug(), ours, addresses(&w.terraform))),
                    None => different.push(format!("{}: generated {ours:?}, none written", page.slug())),
                }
                // The key attributes the written META holds about state, the generated one holds too.
                for key in written
                    .iter()
                    .flat_map(|w| &w.key_attributes)
                    .filter(|k| k.attribute == "status")
                {
                    if ours.contains(&key.resource) {
                        assert!(
                            generated.meta.key_attributes.contains(key),
                            "{}: {key:?} missing from {:?}",
                            page.slug(),
                            generated.meta.key_attributes
                        );
                    }
                }
            }
            Err(CoderError::NothingNeeded { .. }) if written.is_none() => same += 1,
            Err(e) => different.push(format!("{}: {e}", page.slug())),
        }
    }
    // A destroyed KMS key stays, pending deletion, as in the cloud.
    let left: Vec<_> = setup
        .emulator
        .console
        .snapshot_account(&account.account_id)
        .unwrap()
        .resources
        .into_iter()
        .filter(|r| r.status != "PendingDeletion")
        .collect();
    assert!(
        left.is_empty(),
        "validation destroyed everything it created, not {left:#?}"
    );
    // Where the generated META differs from the written one, and why: the written trails have no
    // delivery bucket (the emulator refuses to start logging without one); a new alert rule gets a
    // contact group to notify.
    let expected = [
        "check-events-and-enable-logging-2024",
        "check-events-and-stop-logging",
        "delete-trail",
        "disable-logging",
        "create-alert-rule",
    ];
    let differing: BTreeSet<&str> = different.iter().filter_map(|d| d.split(':').next()).collect();
    assert_eq!(differing, expected.into_iter().collect(), "{different:#?}");
    // Rules name the provisioned resources by binding, so they hold whichever META made them.
    assert_eq!(
        unbound,
        Vec::<String>::new(),
        "rules referring to what the META does not make"
    );
    assert_eq!(same, pages.len() - expected.len());
}

#[tokio::test]
async fn a_model_draft_that_fails_is_corrected_with_the_error() {
    let setup = Setup::new().await;
    let account = setup.account();
    let scratch = setup.applier(&account);
    let bad = r#"{"description": "A VPC.", "terraform": "resource \"alicloud_vpcx\" \"vpc\" {\n  vpc_name = \"v-${var.suffix}\"\n}\nvariable \"suffix\" {\n  type = string\n}\n"}"#;
    let good = r#"```json
{"description": "A VPC.", "key_attributes": [{"resource": "alicloud_vpc.vpc", "attribute": "cidr_block", "value": "10.0.0.0/8"}],
 "terraform": "variable \"suffix\" {\n  type = string\n}\nresource \"alicloud_vpc\" \"vpc\" {\n  vpc_name   = \"v-${var.suffix}\"\n  cidr_block = \"10.0.0.0/8\"\n}\n"}
```"#;
    let fake = FakeModel::start([
        FakeResponse::Reply("Sorry, I cannot.".into()),
        FakeResponse::Reply(bad.into()),
        FakeResponse::Reply(good.into()),
    ])
    .await
    .unwrap();
    let client = ChatClient::new(ChatConfig::new(&fake.base_url, "meta-writer")).unwrap();
    let mut coder = ResourceCoder::model_backed(ModelGenerator::new(client));
    coder.max_attempts = 3;
    let page = corpus().into_iter().find(|p| p.slug() == "create-vswitch").unwrap();
    let generated = coder
        .generate(&context(&page), &scratch)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(generated.attempts, 3);
    assert_eq!(generated.generator, "model");
    assert_eq!(generated.validation.created, ["alicloud_vpc.vpc"]);
    assert_eq!(generated.validation.checked.len(), 1);
    let requests = fake.requests();
    assert_eq!(requests.len(), 3);
    let first_retry = requests[1]["messages"].to_string();
    assert!(
        first_retry.contains("Sorry, I cannot.") && first_retry.contains("the reply is not a META"),
        "{first_retry}"
    );
    let last = requests[2]["messages"].to_string();
    assert!(last.contains("unknown resource type alicloud_vpcx"), "{last}");
    assert!(last.contains("Create a vSwitch"), "{last}");
    assert_eq!(setup.resources(&account), 0);

    // A model that never gets it right ends in a typed error naming the last failure.
    let fake = FakeModel::start([FakeResponse::Reply(bad.into()), FakeResponse::Reply(bad.into())])
        .await
        .unwrap();
    let client = ChatClient::new(ChatConfig::new(&fake.base_url, "meta-writer")).unwrap();
    let mut coder = ResourceCoder::model_backed(ModelGenerator::new(client));
    coder.max_attempts = 2;
    match coder.generate(&context(&page), &scratch).await {
        Err(CoderError::GaveUp { attempts: 2, last }) => assert!(last.contains("alicloud_vpcx"), "{last}"),
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn a_request_at_run_time_is_provisioned_around_what_exists_and_offered_back() {
    let setup = Setup::new().await;
    let account = setup.account();
    let applier = setup.applier(&account);
    let page = corpus().into_iter().find(|p| p.slug() == "start-instance").unwrap();
    // The page's META provisioned only the network: the instance is missing.
    let network = aca_core::ResourceMeta {
        description: "A VPC with a vSwitch and a security group.".into(),
        key_attributes: Vec::new(),
        terraform: coder::render::render(
            &aca_provision::coder::rules::needs_of_task("Create an instance", Some("ecs")),
            &[],
            "cn-hangzhou",
        )
        .unwrap()
        .unwrap()
        .terraform,
    };
    let meta = Meta::new("network.tf", &network, "cn-hangzhou", Suffix::random()).unwrap();
    let mut before = applier.apply(&meta).await.unwrap_or_else(|e| panic!("{e}"));
    let coder = ResourceCoder::rule_based();
    let request = "Step 4 acts on an existing resource: find the instance and click Start.";
    let existing: Vec<_> = before.created().cloned().collect();
    let mut provided = coder
        .provide(&context(&page), request, &existing, &applier)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let created: Vec<&str> = provided.state.created().map(|r| r.address.as_str()).collect();
    assert_eq!(created, ["alicloud_instance.instance"], "only what was missing");
    let instance = &provided.report.resources[0];
    assert_eq!(
        instance.key_attributes.get("status").map(String::as_str),
        Some("Stopped")
    );
    assert_eq!(instance.zone.as_deref(), Some("cn-hangzhou-h"));
    let vswitch = before.resource("alicloud_vswitch.vswitch").unwrap();
    assert_eq!(
        provided.state.resources[0].attribute("vswitch_id").as_deref(),
        Some(vswitch.id.as_str())
    );
    assert!(
        provided.report.to_text().contains("stopped ECS instance"),
        "{}",
        provided.report.to_text()
    );
    let bindings = aca_provision::bindings(&provided.state);
    assert_eq!(bindings["instance_id"], instance.id);

    // Asking again for what exists now is refused with what exists.
    let mut all = existing.clone();
    all.extend(provided.state.created().cloned());
    match coder.provide(&context(&page), request, &all, &applier).await {
        Err(CoderError::NothingMissing { existing, .. }) => assert!(existing.contains("alicloud_instance.instance")),
        other => panic!("{other:?}"),
    }

    let dir = tempfile::tempdir().unwrap();
    let first = coder::offer_candidate(dir.path(), "ecs/start-instance", request, &provided.template).unwrap();
    let second = coder::offer_candidate(dir.path(), "ecs/start-instance", request, &provided.template).unwrap();
    assert_ne!(first, second, "a candidate never overwrites another");
    assert!(
        second.ends_with("ecs-start-instance.2.meta.toml"),
        "{}",
        second.display()
    );
    let text = std::fs::read_to_string(&first).unwrap();
    assert!(text.contains("[meta]") && text.contains("alicloud_instance"), "{text}");
    // The library gets a template that works in an empty account, not one tied to this run's ids.
    assert!(provided.meta.terraform.contains(&vswitch.id));
    assert!(!provided.template.terraform.contains(&vswitch.id));
    assert!(provided.template.terraform.contains("resource \"alicloud_vswitch\""));
    let checked = coder::validate(&applier, "candidate", &provided.template, "cn-hangzhou").await;
    assert!(checked.is_ok(), "{checked:?}");

    assert!(applier.destroy(&mut provided.state).await.failures.is_empty());
    assert!(applier.destroy(&mut before).await.failures.is_empty());
    assert_eq!(setup.resources(&account), 0);
    assert_eq!(ResourceCoder::rule_based().generator.name(), Generator::Rules.name());
}

#[tokio::test]
async fn a_request_the_rules_do_not_understand_goes_to_the_model_when_one_is_configured() {
    let setup = Setup::new().await;
    let account = setup.account();
    let applier = setup.applier(&account);
    let page = PageContext {
        procedure: aca_docs::parse_markdown(
            "# Virtual Private Cloud:Create a flow log\n\n## Procedure\n\n1. Log on to the **VPC console**.\n2. On the **Flow Logs** page, find the flow log target and click **Create**.\n",
        )
        .unwrap(),
        product: Some("vpc".into()),
        region: "cn-hangzhou".into(),
        source: "flow-log.md".into(),
    };
    let request = "Step 2 acts on an existing resource: the flow log target";
    match ResourceCoder::rule_based().provide(&page, request, &[], &applier).await {
        Err(CoderError::Unrecognised { known, .. }) => assert!(known.contains("alicloud_vpc"), "{known}"),
        other => panic!("{other:?}"),
    }
    let reply = r#"{"description": "A VPC to log.", "terraform": "variable \"suffix\" {\n  type = string\n}\nresource \"alicloud_vpc\" \"vpc\" {\n  vpc_name = \"flow-${var.suffix}\"\n}\n"}"#;
    let fake = FakeModel::start([FakeResponse::Reply(reply.into())]).await.unwrap();
    let client = ChatClient::new(ChatConfig::new(&fake.base_url, "meta-writer")).unwrap();
    let mut coder = ResourceCoder::rule_based();
    coder.fallback = Some(ModelGenerator::new(client));
    let mut provided = coder
        .provide(&page, request, &[], &applier)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(provided.report.resources[0].kind, "alicloud_vpc");
    assert!(
        fake.requests()[0]["messages"]
            .to_string()
            .contains("the flow log target")
    );
    assert!(applier.destroy(&mut provided.state).await.failures.is_empty());
}

/// The real Tair renewal page, parsed.
fn tair_page(file: &str) -> PageContext {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/real-pages/tair").join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{e}"));
    PageContext {
        procedure: aca_docs::parse_markdown(&text).unwrap_or_else(|e| panic!("{e}")),
        product: Some("tair".into()),
        region: "cn-hangzhou".into(),
        source: file.into(),
    }
}

#[tokio::test]
async fn a_tair_instance_gets_a_password_only_the_run_holds_and_a_subscription_when_a_step_needs_one() {
    let setup = Setup::new().await;
    let account = setup.account();
    let applier = setup.applier(&account);
    let coder = ResourceCoder::rule_based();
    let page = tair_page("enable-auto-renewal.md");
    let generated = coder.generate(&page, &applier).await.unwrap_or_else(|e| panic!("{e}"));
    let meta = Meta::new(&page.source, &generated.meta, &page.region, Suffix::random()).unwrap();
    let state = applier.apply(&meta).await.unwrap_or_else(|e| panic!("{e}"));
    let secrets = aca_provision::secret::secrets_of(&meta, &state);
    let [(kind, instance, secret)] = secrets.as_slice() else {
        panic!("one secret, the instance's password: {secrets:?}");
    };
    assert_eq!(*kind, aca_core::SecretKind::Password);
    for written in [serde_json::to_string(&state).unwrap(), generated.meta.terraform.clone()] {
        assert!(!written.contains(secret.expose()), "what is written keeps no password");
    }
    // The account the instance starts with has the run's password: the old password of a change.
    setup
        .call(
            &account,
            "kvstore",
            "ModifyAccountPassword",
            &[
                ("InstanceId", instance),
                ("AccountName", instance),
                ("OldAccountPassword", secret.expose()),
                ("NewAccountPassword", "Fresh!2026x"),
            ],
        )
        .await;

    let request = format!(
        "Step 2 turns on \"Automatic renewal\", which the console disables for the resource the run has \
         (\"Pay-as-you-go instances do not require renewal.\"): In the Instance Status section, turn on \
         Automatic renewal.; {}",
        aca_core::BillingMethod::Subscription.request_clause()
    );
    let existing: Vec<_> = state.created().cloned().collect();
    let provided = coder
        .provide(&page, &request, &existing, &applier)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let tair = provided
        .state
        .created()
        .find(|r| r.kind == "alicloud_kvstore_instance")
        .expect("a new instance: the pay-as-you-go one does not do");
    assert_eq!(tair.attribute("payment_type").as_deref(), Some("PrePaid"));
    assert!(provided.report.to_text().contains("subscription"), "{}", provided.report.to_text());
    assert_eq!(provided.secrets.len(), 1);
}
