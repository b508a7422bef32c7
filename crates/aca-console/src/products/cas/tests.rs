//! Tests of Certificate Management Service driven through the console, and of CLB taking its
//! certificates as Alibaba Cloud Certificates.

use super::*;
use crate::products::slb;
use crate::products::testkit::TestConsole;

const CERT: &str = "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQk\n-----END CERTIFICATE-----";
const KEY: &str = "-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49\n-----END PRIVATE KEY-----";

fn upload(h: &TestConsole, name: &str) -> String {
    let body = h.ok(
        &PRODUCT,
        "UploadUserCertificate",
        &[("Name", name), ("Cert", CERT), ("Key", KEY)],
    );
    body["CertId"].as_i64().expect("CertId is a number").to_string()
}

#[test]
fn uploads_lists_and_deletes_certificates_without_showing_their_key() {
    let h = TestConsole::new();
    let id = upload(&h, "web-cert");
    let event = h.last_event("UploadUserCertificate");
    assert_eq!(
        (
            event.service_name.as_str(),
            event.event_source.as_str(),
            event.api_version.as_str()
        ),
        ("cas", "cas.aliyuncs.com", "2020-04-07")
    );
    assert_eq!(event.request_parameters["Key"], "******");
    assert!(!serde_json::to_string(&event).unwrap().contains("MIGHAgEAMBMGByqGSM49"));

    let listed = h.ok(&PRODUCT, "ListUserCertificateOrder", &[("OrderType", "UPLOAD")]);
    assert_eq!(listed["TotalCount"], 1);
    assert_eq!(listed["CertificateOrderList"][0]["Name"], "web-cert");
    let detail = h.ok(&PRODUCT, "GetUserCertificateDetail", &[("CertId", &id)]);
    assert_eq!(detail["Name"], "web-cert");
    assert!(detail.get("Key").is_none(), "the private key is never returned");
    h.ok(&PRODUCT, "DeleteUserCertificate", &[("CertId", &id)]);
    let gone = h.err(&PRODUCT, "GetUserCertificateDetail", &[("CertId", &id)]);
    assert_eq!(gone.code, "InvalidCertId.NotFound");
}

#[test]
fn bad_input_is_a_typed_error() {
    let h = TestConsole::new();
    let missing = h.err(&PRODUCT, "UploadUserCertificate", &[("Name", "x"), ("Cert", CERT)]);
    assert_eq!(missing.code, "MissingParameter");
    let bad_key = h.err(
        &PRODUCT,
        "UploadUserCertificate",
        &[("Name", "x"), ("Cert", CERT), ("Key", "secret")],
    );
    assert!(!bad_key.message.contains("secret"), "{}", bad_key.message);
    let bad_cert = h.err(
        &PRODUCT,
        "UploadUserCertificate",
        &[("Name", "x"), ("Cert", "junk"), ("Key", KEY)],
    );
    assert!(bad_cert.message.contains("PEM"), "{}", bad_cert.message);
    upload(&h, "dup");
    let repeated = h.err(
        &PRODUCT,
        "UploadUserCertificate",
        &[("Name", "dup"), ("Cert", CERT), ("Key", KEY)],
    );
    assert_eq!(repeated.code, "NameRepeat");
    let kind = h.err(&PRODUCT, "ListUserCertificateOrder", &[("OrderType", "NOPE")]);
    assert_eq!(kind.code, "InvalidParameter");
}

#[test]
fn clb_adds_a_certificate_of_the_service_as_an_alibaba_cloud_certificate() {
    let h = TestConsole::new();
    let id = upload(&h, "shop-cert");
    let body = h.ok(
        &slb::PRODUCT,
        "UploadServerCertificate",
        &[
            ("AliCloudCertificateId", &id),
            ("AliCloudCertificateName", "shop-cert"),
            ("AliCloudCertificateRegionId", "cn-hangzhou"),
        ],
    );
    assert_eq!(body["IsAliCloudCertificate"], 1);
    assert_eq!(body["ServerCertificateName"], "shop-cert");
    let listed = h.ok(&slb::PRODUCT, "DescribeServerCertificates", &[]);
    let cert = &listed["ServerCertificates"]["ServerCertificate"][0];
    assert_eq!(
        (
            cert["IsAliCloudCertificate"].as_i64(),
            cert["AliCloudCertificateId"].as_str()
        ),
        (Some(1), Some(id.as_str()))
    );
    let unknown = h.err(
        &slb::PRODUCT,
        "UploadServerCertificate",
        &[("AliCloudCertificateId", "775")],
    );
    assert_eq!(unknown.code, "InvalidAliCloudCertificateId.NotFound");
}
