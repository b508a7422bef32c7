//! Templates that cannot be applied are typed errors naming what is wrong and the file, and create
//! nothing.

mod common;

use aca_provision::{Applier, ProvisionError};
use common::{Setup, key, meta, meta_result};

async fn refused(terraform: &str) -> ProvisionError {
    let setup = Setup::new().await;
    let account = setup.account();
    let applier = setup.applier(&account);
    let meta = meta(terraform, Vec::new());
    let plan_err = applier.plan(&meta).await.unwrap_err();
    let err = applier.apply(&meta).await.unwrap_err();
    assert_eq!(plan_err.to_string(), err.to_string(), "plan and apply refuse alike");
    assert_eq!(setup.resources(&account), 0, "nothing was created");
    err
}

#[tokio::test]
async fn a_cycle_is_refused_naming_its_resources() {
    let err = refused(
        r#"
resource "alicloud_vpc" "a" {
  vpc_name    = "a-${var.suffix}"
  description = alicloud_security_group.b.id
}
resource "alicloud_security_group" "b" {
  vpc_id = alicloud_vpc.a.id
}
"#,
    )
    .await;
    assert!(
        matches!(&err, ProvisionError::Cycle { file, .. } if file == "meta.tf"),
        "{err}"
    );
    assert_eq!(
        err.to_string(),
        "meta.tf: dependency cycle: alicloud_vpc.a -> alicloud_security_group.b -> alicloud_vpc.a"
    );
}

#[tokio::test]
async fn an_unknown_resource_type_is_refused_with_the_supported_ones() {
    let err = refused(
        r#"
resource "alicloud_vpc" "a" { vpc_name = "a-${var.suffix}" }
resource "alicloud_quantum_computer" "q" { qubits = 5 }
"#,
    )
    .await;
    let ProvisionError::UnknownResourceType {
        file,
        kind,
        address,
        supported,
    } = &err
    else {
        panic!("{err}")
    };
    assert_eq!((file.as_str(), kind.as_str()), ("meta.tf", "alicloud_quantum_computer"));
    assert_eq!(address, "alicloud_quantum_computer.q");
    assert!(supported.contains("alicloud_instance") && supported.contains("alicloud_oss_bucket"));
}

#[tokio::test]
async fn an_unknown_argument_and_a_missing_required_one_are_refused() {
    let err = refused(r#"resource "alicloud_vpc" "a" { vpc_nmae = "typo" }"#).await;
    assert_eq!(
        err.to_string(),
        "meta.tf: alicloud_vpc.a has an unknown argument vpc_nmae"
    );
    let err = refused(r#"resource "alicloud_vswitch" "a" { cidr_block = "10.0.0.0/24" }"#).await;
    assert_eq!(err.to_string(), "meta.tf: alicloud_vswitch.a needs the argument vpc_id");
}

#[tokio::test]
async fn a_missing_variable_is_refused_by_name() {
    let err = refused(
        r#"
variable "team" {}
resource "alicloud_vpc" "a" { vpc_name = "${var.team}-${var.suffix}" }
"#,
    )
    .await;
    assert!(
        matches!(&err, ProvisionError::MissingVariable { name, .. } if name == "team"),
        "{err}"
    );
    let err = refused(r#"resource "alicloud_vpc" "a" { vpc_name = var.owner }"#).await;
    assert_eq!(
        err.to_string(),
        "meta.tf: the variable owner has no value and no default"
    );
}

#[tokio::test]
async fn references_to_undeclared_resources_and_bad_key_attributes_are_refused() {
    let err = refused(
        r#"
resource "alicloud_vswitch" "a" {
  vpc_id     = alicloud_vpc.nowhere.id
  cidr_block = "10.0.0.0/24"
}
"#,
    )
    .await;
    assert!(
        err.to_string()
            .contains("alicloud_vswitch.a refers to alicloud_vpc.nowhere"),
        "{err}"
    );
    let setup = Setup::new().await;
    let account = setup.account();
    let meta = meta(
        r#"resource "alicloud_vpc" "a" { vpc_name = "a-${var.suffix}" }"#,
        vec![key("alicloud_instance.web", "status", "Running")],
    );
    let err = setup.applier(&account).apply(&meta).await.unwrap_err();
    assert!(
        err.to_string()
            .contains("alicloud_instance.web.status names a resource"),
        "{err}"
    );
    assert_eq!(setup.resources(&account), 0);
}

#[test]
fn unparsable_hcl_is_a_syntax_error_naming_the_file() {
    let err = meta_result("resource \"alicloud_vpc\" \"a\" {", Vec::new()).unwrap_err();
    assert!(
        matches!(&err, ProvisionError::Syntax { file, .. } if file == "meta.tf"),
        "{err}"
    );
}
