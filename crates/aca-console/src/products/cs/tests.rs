//! Tests of Container Service for Kubernetes' API driven through the console.

use super::*;
use crate::products::testkit::TestConsole;

#[test]
fn open_ack_service_activates_once_and_is_a_cs_event() {
    let h = TestConsole::new();
    let body = h.ok(&PRODUCT, "OpenAckService", &[("type", "propayasgo")]);
    assert!(body["order_id"].as_str().is_some_and(|id| id.len() == 15), "{body}");
    let event = h.last_event("OpenAckService");
    assert_eq!(event.service_name, "CS");
    assert_eq!(event.event_source, "cs.aliyuncs.com");
    assert_eq!(event.request_parameters["type"], "propayasgo");
    h.ok(&PRODUCT, "OpenAckService", &[("type", "propayasgo")]);
    let activations = h.ok(&PRODUCT, "DescribeClustersV1", &[]);
    assert_eq!(activations["page_info"]["total_count"], 0);
}

#[test]
fn open_ack_service_refuses_a_missing_or_unknown_type() {
    let h = TestConsole::new();
    assert_eq!(h.err(&PRODUCT, "OpenAckService", &[]).code, "MissingParameter");
    assert_eq!(
        h.err(&PRODUCT, "OpenAckService", &[("type", "monthly")]).code,
        "InvalidParameter"
    );
}

#[test]
fn the_cluster_list_pages_and_checks_its_page_size() {
    let h = TestConsole::new();
    let body = h.ok(&PRODUCT, "DescribeClustersV1", &[("page_size", "20"), ("page_number", "2")]);
    assert_eq!(body["clusters"], serde_json::json!([]));
    assert_eq!(body["page_info"]["page_size"], 20);
    assert!(h.call(&PRODUCT, "DescribeClustersV1", &[("page_size", "0")]).is_err());
    assert!(h.call(&PRODUCT, "DescribeClustersV1", &[("page_number", "x")]).is_err());
}
