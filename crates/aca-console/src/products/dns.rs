//! Alibaba Cloud DNS (API 2015-01-09): authoritative domain names and their DNS records.
//!
//! DNS is global: domains are keyed by name, records belong to a domain and are keyed by a numeric
//! `RecordId`. Records are checked the way the real service checks them: a value that fits the
//! record type, TTL and MX priority ranges, no exact duplicates, and no CNAME beside other records
//! of the same host on the same line.

use std::net::{Ipv4Addr, Ipv6Addr};

use axum::http::StatusCode;
use rand::Rng;
use serde_json::{Value, json};

use crate::catalog::{OpCtx, Operation, Product};
use crate::clock::iso8601;
use crate::error::ApiError;
use crate::model::Resource;
use crate::params::Params;

pub static PRODUCT: Product = Product {
    code: "dns",
    name: "Alibaba Cloud DNS",
    service_name: "Alidns",
    version: "2015-01-09",
    endpoint: "alidns.aliyuncs.com",
    console_agent: "dns.console.aliyun.com",
    operations: &[
        Operation::write("AddDomain", add_domain),
        Operation::read("DescribeDomains", describe_domains),
        Operation::read("DescribeDomainInfo", describe_domain_info),
        Operation::write("DeleteDomain", delete_domain),
        Operation::write("AddDomainRecord", add_domain_record),
        Operation::read("DescribeDomainRecords", describe_domain_records),
        Operation::read("DescribeDomainRecordInfo", describe_domain_record_info),
        Operation::write("UpdateDomainRecord", update_domain_record),
        Operation::write("SetDomainRecordStatus", set_domain_record_status),
        Operation::write("DeleteDomainRecord", delete_domain_record),
    ],
};

pub const DOMAIN: &str = "dns.domain";
pub const RECORD: &str = "dns.record";
const DOMAIN_TYPE: &str = "ACS::Alidns::Domain";
const RECORD_TYPE: &str = "ACS::Alidns::Record";

const GLOBAL: &str = "global";
/// The name servers the free edition assigns.
const DNS_SERVERS: [&str; 2] = ["ns1.alidns.com", "ns2.alidns.com"];
const RECORD_TYPES: &[&str] = &[
    "A",
    "AAAA",
    "CNAME",
    "MX",
    "TXT",
    "NS",
    "SRV",
    "CAA",
    "REDIRECT_URL",
    "FORWARD_URL",
];
const DEFAULT_TTL: i64 = 600;
/// The free edition's TTL range, in seconds.
const TTL_RANGE: std::ops::RangeInclusive<i64> = 600..=86400;

fn dns_error(code: &str, message: &str) -> ApiError {
    ApiError::new(StatusCode::BAD_REQUEST, code, message)
}

fn domain_not_found() -> ApiError {
    dns_error(
        "InvalidDomainName.NoExist",
        "The specified domain name does not exist. Refresh the page and try again.",
    )
}

fn record_not_found() -> ApiError {
    dns_error(
        "DomainRecordNotBelongToUser",
        "The DNS record does not exist or does not belong to the user.",
    )
}

fn invalid_domain_name(param: &str, why: &str) -> ApiError {
    dns_error(
        "InvalidDomainName.Format",
        &format!("The format of the parameter \"{param}\" is invalid: {why}"),
    )
}

/// A host name label: 1–63 letters, digits or hyphens, not starting or ending with a hyphen.
fn is_label(label: &str) -> bool {
    (1..=63).contains(&label.len())
        && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        && !label.starts_with('-')
        && !label.ends_with('-')
}

/// A registrable domain name (`example.com`): labels, and an alphabetic top-level domain.
fn check_domain_name(param: &str, name: &str) -> Result<String, ApiError> {
    let name = name.trim_end_matches('.').to_ascii_lowercase();
    if name.len() > 253 {
        return Err(invalid_domain_name(
            param,
            "a domain name is at most 253 characters long",
        ));
    }
    let labels: Vec<&str> = name.split('.').collect();
    if labels.len() < 2 || !labels.iter().all(|l| is_label(l)) {
        return Err(invalid_domain_name(param, "expected a domain name such as example.com"));
    }
    let tld = labels[labels.len() - 1];
    if tld.len() < 2 || !(tld.chars().all(|c| c.is_ascii_alphabetic()) || tld.starts_with("xn--")) {
        return Err(invalid_domain_name(param, "the top-level domain is not valid"));
    }
    Ok(name)
}

/// A host name used as a record value (CNAME, MX, NS targets).
fn is_host_name(value: &str) -> bool {
    let value = value.trim_end_matches('.');
    value.len() <= 253 && value.split('.').count() >= 2 && value.split('.').all(|l| is_label(l) || l == "_")
}

fn find_domain(ctx: &OpCtx<'_>, name: &str) -> Result<Resource, ApiError> {
    let name = name.trim_end_matches('.').to_ascii_lowercase();
    ctx.list_all(DOMAIN)
        .into_iter()
        .find(|d| d.name == name)
        .ok_or_else(domain_not_found)
}

fn find_record(ctx: &OpCtx<'_>, id: &str) -> Result<Resource, ApiError> {
    ctx.get(id).filter(|r| r.kind == RECORD).ok_or_else(record_not_found)
}

/// 17 decimal digits, the shape of real record ids.
fn record_id() -> String {
    let mut rng = rand::rng();
    let mut id = rng.random_range(1..=9u8).to_string();
    id.extend((0..16).map(|_| char::from(b'0' + rng.random_range(0..10u8))));
    id
}

/// A page with the DNS API's paging fields; the default page size is 20.
fn page<T>(items: Vec<T>, p: &Params, max_page_size: i64) -> Result<(Vec<T>, Value), ApiError> {
    let number = p.int_in("PageNumber", 1..=i64::from(u32::MAX), 1)?;
    let size = p.int_in("PageSize", 1..=max_page_size, 20)?;
    let total = items.len() as i64;
    let start = ((number - 1) * size).min(total) as usize;
    let page = items.into_iter().skip(start).take(size as usize).collect();
    Ok((
        page,
        json!({ "TotalCount": total, "PageNumber": number, "PageSize": size }),
    ))
}

fn dns_servers() -> Value {
    json!({ "DnsServer": DNS_SERVERS })
}

// ---------------------------------------------------------------------------------------------
// Domains.

fn add_domain(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let name = check_domain_name("DomainName", p.required("DomainName")?)?;
    if find_domain(ctx, &name).is_ok() {
        return Err(dns_error(
            "InvalidDomainName.Duplicate",
            "The domain name already exists in the domain name list. You do not need to add it again.",
        ));
    }
    let group_id = p.get("GroupId").filter(|g| *g != "defaultGroup").unwrap_or("");
    let id = uuid::Uuid::new_v4().to_string();
    let domain = Resource::new(DOMAIN, id.clone(), GLOBAL, &name, "ENABLE", ctx.now_ms)
        .with("GroupId", group_id)
        .with("ResourceGroupId", p.get("ResourceGroupId").unwrap_or("rg-default"))
        .with("Remark", "");
    ctx.reference(DOMAIN_TYPE, &name);
    ctx.put(domain);
    Ok(json!({ "DomainId": id, "DomainName": name, "GroupId": group_id, "DnsServers": dns_servers() }))
}

fn domain_json(ctx: &OpCtx<'_>, domain: &Resource) -> Value {
    json!({
        "DomainId": domain.id,
        "DomainName": domain.name,
        "AliDomain": false,
        "GroupId": domain.attr_str("GroupId"),
        "ResourceGroupId": domain.attr_str("ResourceGroupId"),
        "RecordCount": ctx.children(RECORD, &domain.id).len(),
        "DnsServers": dns_servers(),
        "VersionCode": "mianfei",
        "VersionName": "Alibaba Cloud DNS",
        "Remark": domain.attr_str("Remark"),
        "Starmark": false,
        "CreateTime": iso8601(domain.created_ms),
        "CreateTimestamp": domain.created_ms,
    })
}

fn describe_domains(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let keyword = p.get("KeyWord").map(str::to_ascii_lowercase);
    let exact = p.one_of("SearchMode", &["LIKE", "EXACT"])? == Some("EXACT");
    let group = p.get("GroupId");
    let domains: Vec<Resource> = ctx
        .list_all(DOMAIN)
        .into_iter()
        .filter(|d| match &keyword {
            None => true,
            Some(k) if exact => &d.name == k,
            Some(k) => d.name.contains(k.as_str()),
        })
        .filter(|d| group.is_none_or(|g| d.attr_str("GroupId") == g))
        .collect();
    let (items, mut body) = page(domains, p, 100)?;
    body["Domains"] = json!({ "Domain": items.iter().map(|d| domain_json(ctx, d)).collect::<Vec<_>>() });
    Ok(body)
}

fn describe_domain_info(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let domain = find_domain(ctx, p.required("DomainName")?)?;
    let mut body = domain_json(ctx, &domain);
    body["MinTtl"] = json!(TTL_RANGE.start());
    body["LineType"] = json!("default");
    ctx.reference(DOMAIN_TYPE, &domain.name);
    Ok(body)
}

fn delete_domain(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let domain = find_domain(ctx, p.required("DomainName")?)?;
    for record in ctx.children(RECORD, &domain.id) {
        ctx.delete(&record.id);
    }
    ctx.reference(DOMAIN_TYPE, &domain.name);
    ctx.delete(&domain.id);
    Ok(json!({ "DomainName": domain.name }))
}

// ---------------------------------------------------------------------------------------------
// Records.

/// A record's content as a request states it.
struct RecordSpec {
    rr: String,
    record_type: String,
    value: String,
    ttl: i64,
    priority: Option<i64>,
    line: String,
}

/// The host record: `@`, `*`, or dot-separated labels that may include `*` and `_` (`_dmarc`, `*.api`).
fn check_rr(rr: &str) -> Result<(), ApiError> {
    let label_ok = |l: &str| {
        !l.is_empty()
            && l.len() <= 63
            && (l == "*" || l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'))
    };
    if rr == "@" || (rr.len() <= 253 && rr.split('.').all(label_ok)) {
        Ok(())
    } else {
        Err(ApiError::invalid_parameter(
            "RR",
            format!("{rr:?} is not a valid host record such as www, @ or *"),
        ))
    }
}

fn invalid_value(record_type: &str, value: &str) -> ApiError {
    dns_error(
        "SubDomainInvalid.Value",
        &format!("The parameter \"Value\" ({value}) is invalid for a {record_type} record."),
    )
}

fn check_value(record_type: &str, value: &str) -> Result<(), ApiError> {
    let valid = match record_type {
        "A" => value.parse::<Ipv4Addr>().is_ok(),
        "AAAA" => value.parse::<Ipv6Addr>().is_ok(),
        "CNAME" | "NS" | "MX" => is_host_name(value),
        "TXT" => value.len() <= 512,
        "REDIRECT_URL" | "FORWARD_URL" => value.starts_with("http://") || value.starts_with("https://"),
        _ => true,
    };
    if valid {
        Ok(())
    } else {
        Err(invalid_value(record_type, value))
    }
}

fn record_spec(p: &Params) -> Result<RecordSpec, ApiError> {
    let rr = p.required("RR")?.to_owned();
    check_rr(&rr)?;
    let record_type = p.required("Type")?;
    if !RECORD_TYPES.contains(&record_type) {
        return Err(ApiError::invalid_parameter(
            "Type",
            format!("{record_type:?} is not one of {}", RECORD_TYPES.join(", ")),
        ));
    }
    let value = p.required("Value")?.to_owned();
    check_value(record_type, &value)?;
    let ttl = p.int_or("TTL", DEFAULT_TTL)?;
    if !TTL_RANGE.contains(&ttl) {
        return Err(dns_error(
            "SubDomainInvalid.TTL",
            &format!(
                "The parameter \"TTL\" must be between {} and {} seconds.",
                TTL_RANGE.start(),
                TTL_RANGE.end()
            ),
        ));
    }
    let priority = if record_type == "MX" {
        let priority = p
            .int("Priority")?
            .ok_or_else(|| ApiError::missing_parameter("Priority"))?;
        if !(1..=50).contains(&priority) {
            return Err(dns_error(
                "SubDomainInvalid.Priority",
                "The parameter \"Priority\" must be between 1 and 50.",
            ));
        }
        Some(priority)
    } else {
        None
    };
    Ok(RecordSpec {
        rr,
        record_type: record_type.to_owned(),
        value,
        ttl,
        priority,
        line: p.string_or("Line", "default"),
    })
}

/// Rejects a record equal to another of the domain, or a CNAME beside other records of the same host
/// and line. `except` is the record being updated.
fn check_against_siblings(
    ctx: &OpCtx<'_>,
    domain: &Resource,
    spec: &RecordSpec,
    except: Option<&str>,
) -> Result<(), ApiError> {
    let same_host: Vec<Resource> = ctx
        .children(RECORD, &domain.id)
        .into_iter()
        .filter(|r| Some(r.id.as_str()) != except)
        .filter(|r| r.attr_str("RR").eq_ignore_ascii_case(&spec.rr) && r.attr_str("Line") == spec.line)
        .collect();
    let duplicate = same_host
        .iter()
        .any(|r| r.attr_str("Type") == spec.record_type && r.attr_str("Value").eq_ignore_ascii_case(&spec.value));
    if duplicate {
        return Err(dns_error("DomainRecordDuplicate", "The DNS record already exists."));
    }
    let cname_conflict = if spec.record_type == "CNAME" {
        !same_host.is_empty()
    } else {
        same_host.iter().any(|r| r.attr_str("Type") == "CNAME")
    };
    if cname_conflict {
        return Err(dns_error(
            "DomainRecordConflict",
            "The DNS record conflicts with other records: a CNAME record cannot share its host with other records.",
        ));
    }
    Ok(())
}

fn apply_spec(record: &mut Resource, spec: RecordSpec, now_ms: i64) {
    record.set("RR", spec.rr);
    record.set("Type", spec.record_type);
    record.set("Value", spec.value);
    record.set("TTL", spec.ttl);
    record.set("Line", spec.line);
    match spec.priority {
        Some(priority) => record.set("Priority", priority),
        None => {
            record.attrs.remove("Priority");
        }
    }
    record.set("UpdateTimestamp", now_ms);
}

fn add_domain_record(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let domain = find_domain(ctx, p.required("DomainName")?)?;
    let spec = record_spec(p)?;
    check_against_siblings(ctx, &domain, &spec, None)?;
    let id = record_id();
    let name = format!("{}.{}", spec.rr, domain.name);
    let mut record = Resource::new(RECORD, id.clone(), GLOBAL, &name, "ENABLE", ctx.now_ms);
    record.parent = Some(domain.id.clone());
    apply_spec(&mut record, spec, ctx.now_ms);
    ctx.reference(DOMAIN_TYPE, &domain.name);
    ctx.reference(RECORD_TYPE, &id);
    ctx.put(record);
    Ok(json!({ "RecordId": id }))
}

fn record_json(ctx: &OpCtx<'_>, record: &Resource) -> Value {
    let domain_name = record
        .parent
        .as_deref()
        .and_then(|id| ctx.get(id))
        .map(|d| d.name)
        .unwrap_or_default();
    let mut body = json!({
        "RecordId": record.id,
        "DomainName": domain_name,
        "RR": record.attr_str("RR"),
        "Type": record.attr_str("Type"),
        "Value": record.attr_str("Value"),
        "TTL": record.attr_i64("TTL"),
        "Line": record.attr_str("Line"),
        "Status": record.status,
        "Locked": false,
        "Weight": 1,
        "Remark": record.attr_str("Remark"),
        "CreateTimestamp": record.created_ms,
        "UpdateTimestamp": record.attr_i64("UpdateTimestamp"),
    });
    if let Some(priority) = record.attr_i64("Priority") {
        body["Priority"] = json!(priority);
    }
    body
}

fn describe_domain_records(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let domain = find_domain(ctx, p.required("DomainName")?)?;
    let contains = |field: &str, keyword: Option<&str>, record: &Resource| {
        keyword.is_none_or(|k| {
            record
                .attr_str(field)
                .to_ascii_lowercase()
                .contains(&k.to_ascii_lowercase())
        })
    };
    let rr_keyword = p.get("RRKeyWord");
    let type_keyword = p.get("TypeKeyWord");
    let value_keyword = p.get("ValueKeyWord");
    let record_type = p.get("Type");
    let status = p
        .one_of("Status", &["Enable", "Disable", "ENABLE", "DISABLE"])?
        .map(str::to_ascii_uppercase);
    let records: Vec<Resource> = ctx
        .children(RECORD, &domain.id)
        .into_iter()
        .filter(|r| {
            contains("RR", rr_keyword, r) && contains("Type", type_keyword, r) && contains("Value", value_keyword, r)
        })
        .filter(|r| record_type.is_none_or(|t| r.attr_str("Type") == t))
        .filter(|r| status.as_deref().is_none_or(|s| r.status == s))
        .collect();
    let (items, mut body) = page(records, p, 500)?;
    body["DomainRecords"] = json!({ "Record": items.iter().map(|r| record_json(ctx, r)).collect::<Vec<_>>() });
    ctx.reference(DOMAIN_TYPE, &domain.name);
    Ok(body)
}

fn describe_domain_record_info(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let record = find_record(ctx, p.required("RecordId")?)?;
    ctx.reference(RECORD_TYPE, &record.id);
    Ok(record_json(ctx, &record))
}

fn update_domain_record(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let mut record = find_record(ctx, p.required("RecordId")?)?;
    let spec = record_spec(p)?;
    let domain = record
        .parent
        .as_deref()
        .and_then(|id| ctx.get(id))
        .ok_or_else(record_not_found)?;
    let unchanged = record.attr_str("RR") == spec.rr
        && record.attr_str("Type") == spec.record_type
        && record.attr_str("Value") == spec.value
        && record.attr_i64("TTL") == Some(spec.ttl)
        && record.attr_str("Line") == spec.line
        && record.attr_i64("Priority") == spec.priority;
    if unchanged {
        return Err(dns_error("DomainRecordDuplicate", "The DNS record already exists."));
    }
    check_against_siblings(ctx, &domain, &spec, Some(&record.id))?;
    record.name = format!("{}.{}", spec.rr, domain.name);
    apply_spec(&mut record, spec, ctx.now_ms);
    let id = record.id.clone();
    ctx.reference(DOMAIN_TYPE, &domain.name);
    ctx.reference(RECORD_TYPE, &id);
    ctx.put(record);
    Ok(json!({ "RecordId": id }))
}

fn set_domain_record_status(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let mut record = find_record(ctx, p.required("RecordId")?)?;
    p.required("Status")?;
    let status = p.one_of("Status", &["Enable", "Disable"])?.unwrap_or("Enable");
    record.status = status.to_ascii_uppercase();
    record.set("UpdateTimestamp", ctx.now_ms);
    let id = record.id.clone();
    ctx.reference(RECORD_TYPE, &id);
    ctx.put(record);
    Ok(json!({ "RecordId": id, "Status": status }))
}

fn delete_domain_record(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let record = find_record(ctx, p.required("RecordId")?)?;
    if let Some(domain) = record.parent.as_deref().and_then(|id| ctx.get(id)) {
        ctx.reference(DOMAIN_TYPE, &domain.name);
    }
    ctx.reference(RECORD_TYPE, &record.id);
    ctx.delete(&record.id);
    Ok(json!({ "RecordId": record.id }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::products::ram::harness::Harness;

    fn with_domain() -> Harness {
        let h = Harness::new();
        h.ok(&PRODUCT, "AddDomain", &[("DomainName", "example.com")]);
        h
    }

    fn add_a(h: &Harness, rr: &str, ip: &str) -> Result<Value, ApiError> {
        h.call(
            &PRODUCT,
            "AddDomainRecord",
            &[("DomainName", "example.com"), ("RR", rr), ("Type", "A"), ("Value", ip)],
        )
    }

    fn records(h: &Harness) -> Vec<Value> {
        let body = h.ok(&PRODUCT, "DescribeDomainRecords", &[("DomainName", "example.com")]);
        body["DomainRecords"]["Record"].as_array().unwrap().clone()
    }

    #[test]
    fn domains_are_added_validated_and_listed() {
        let h = Harness::new();
        let body = h.ok(&PRODUCT, "AddDomain", &[("DomainName", "Example.COM")]);
        assert_eq!(body["DomainName"], "example.com");
        assert_eq!(body["DnsServers"]["DnsServer"], json!(DNS_SERVERS));
        assert!(uuid::Uuid::parse_str(body["DomainId"].as_str().unwrap()).is_ok());
        let event = h.last_event("AddDomain");
        assert_eq!(
            (event.service_name.as_str(), event.event_source.as_str()),
            ("Alidns", "alidns.aliyuncs.com")
        );
        assert_eq!(event.referenced_resources["ACS::Alidns::Domain"], ["example.com"]);
        for bad in ["localhost", "exa mple.com", "-bad.com", "example.c0m"] {
            let e = h.err(&PRODUCT, "AddDomain", &[("DomainName", bad)]);
            assert_eq!(e.code, "InvalidDomainName.Format", "{bad}");
            assert!(e.message.contains("\"DomainName\""));
        }
        assert_eq!(
            h.err(&PRODUCT, "AddDomain", &[("DomainName", "example.com")]).code,
            "InvalidDomainName.Duplicate"
        );
        assert_eq!(h.err(&PRODUCT, "AddDomain", &[]).code, "MissingParameter");
        h.ok(&PRODUCT, "AddDomain", &[("DomainName", "example.org")]);
        let listed = h.ok(&PRODUCT, "DescribeDomains", &[("KeyWord", "org")]);
        assert_eq!(listed["TotalCount"], 1);
        assert_eq!(listed["PageSize"], 20);
        assert_eq!(listed["Domains"]["Domain"][0]["DomainName"], "example.org");
        let info = h.ok(&PRODUCT, "DescribeDomainInfo", &[("DomainName", "example.com")]);
        assert_eq!(info["DomainId"], body["DomainId"]);
    }

    #[test]
    fn records_are_checked_by_type() {
        let h = with_domain();
        let id = add_a(&h, "www", "192.0.2.1").unwrap()["RecordId"]
            .as_str()
            .unwrap()
            .to_owned();
        assert!(id.len() == 17 && id.chars().all(|c| c.is_ascii_digit()));
        let listed = records(&h);
        assert_eq!(listed[0]["TTL"], 600);
        assert_eq!(listed[0]["Status"], "ENABLE");
        assert_eq!(
            add_a(&h, "www", "300.0.0.1").unwrap_err().code,
            "SubDomainInvalid.Value"
        );
        assert!(
            add_a(&h, "bad host", "192.0.2.1")
                .unwrap_err()
                .message
                .contains("\"RR\"")
        );
        let mx = |priority: Option<&str>| {
            let mut pairs = vec![
                ("DomainName", "example.com"),
                ("RR", "@"),
                ("Type", "MX"),
                ("Value", "mx1.example.net"),
            ];
            if let Some(priority) = priority {
                pairs.push(("Priority", priority));
            }
            h.call(&PRODUCT, "AddDomainRecord", &pairs)
        };
        assert!(mx(None).unwrap_err().message.contains("\"Priority\""));
        assert_eq!(mx(Some("51")).unwrap_err().code, "SubDomainInvalid.Priority");
        mx(Some("10")).unwrap();
        let e = h.err(
            &PRODUCT,
            "AddDomainRecord",
            &[
                ("DomainName", "example.com"),
                ("RR", "x"),
                ("Type", "SPF"),
                ("Value", "v"),
            ],
        );
        assert!(e.message.contains("\"Type\""));
        let e = h.err(
            &PRODUCT,
            "AddDomainRecord",
            &[
                ("DomainName", "nowhere.com"),
                ("RR", "x"),
                ("Type", "A"),
                ("Value", "192.0.2.1"),
            ],
        );
        assert_eq!(e.code, "InvalidDomainName.NoExist");
    }

    #[test]
    fn duplicates_and_cname_conflicts_are_refused() {
        let h = with_domain();
        add_a(&h, "www", "192.0.2.1").unwrap();
        assert_eq!(add_a(&h, "www", "192.0.2.1").unwrap_err().code, "DomainRecordDuplicate");
        add_a(&h, "www", "192.0.2.2").unwrap();
        let cname = h.err(
            &PRODUCT,
            "AddDomainRecord",
            &[
                ("DomainName", "example.com"),
                ("RR", "www"),
                ("Type", "CNAME"),
                ("Value", "cdn.example.net"),
            ],
        );
        assert_eq!(cname.code, "DomainRecordConflict");
        assert_eq!(records(&h).len(), 2);
    }

    #[test]
    fn records_are_updated_disabled_and_deleted() {
        let h = with_domain();
        let id = add_a(&h, "api", "192.0.2.1").unwrap()["RecordId"]
            .as_str()
            .unwrap()
            .to_owned();
        let same = [
            ("RecordId", id.as_str()),
            ("RR", "api"),
            ("Type", "A"),
            ("Value", "192.0.2.1"),
        ];
        assert_eq!(
            h.err(&PRODUCT, "UpdateDomainRecord", &same).code,
            "DomainRecordDuplicate"
        );
        h.ok(
            &PRODUCT,
            "UpdateDomainRecord",
            &[
                ("RecordId", &id),
                ("RR", "api"),
                ("Type", "A"),
                ("Value", "192.0.2.9"),
                ("TTL", "3600"),
            ],
        );
        let info = h.ok(&PRODUCT, "DescribeDomainRecordInfo", &[("RecordId", &id)]);
        assert_eq!(
            (info["Value"].as_str(), info["TTL"].as_i64()),
            (Some("192.0.2.9"), Some(3600))
        );

        let body = h.ok(
            &PRODUCT,
            "SetDomainRecordStatus",
            &[("RecordId", &id), ("Status", "Disable")],
        );
        assert_eq!(body["Status"], "Disable");
        assert_eq!(records(&h)[0]["Status"], "DISABLE");
        let disabled = h.ok(
            &PRODUCT,
            "DescribeDomainRecords",
            &[("DomainName", "example.com"), ("Status", "Enable")],
        );
        assert_eq!(disabled["TotalCount"], 0);
        let e = h.err(
            &PRODUCT,
            "SetDomainRecordStatus",
            &[("RecordId", &id), ("Status", "Paused")],
        );
        assert!(e.message.contains("\"Status\""));

        h.ok(&PRODUCT, "DeleteDomainRecord", &[("RecordId", &id)]);
        assert!(records(&h).is_empty());
        assert_eq!(
            h.err(&PRODUCT, "DeleteDomainRecord", &[("RecordId", &id)]).code,
            "DomainRecordNotBelongToUser"
        );
    }

    #[test]
    fn deleting_a_domain_removes_its_records() {
        let h = with_domain();
        let id = add_a(&h, "www", "192.0.2.1").unwrap()["RecordId"]
            .as_str()
            .unwrap()
            .to_owned();
        h.ok(&PRODUCT, "DeleteDomain", &[("DomainName", "example.com")]);
        assert_eq!(
            h.err(&PRODUCT, "DescribeDomainRecordInfo", &[("RecordId", &id)]).code,
            "DomainRecordNotBelongToUser"
        );
        assert_eq!(h.ok(&PRODUCT, "DescribeDomains", &[])["TotalCount"], 0);
    }

    #[test]
    fn domains_and_records_stay_in_their_account() {
        let h = with_domain();
        let id = add_a(&h, "www", "192.0.2.1").unwrap()["RecordId"]
            .as_str()
            .unwrap()
            .to_owned();
        let other = h.another_account("other");
        let e = h
            .call_as(&other, &PRODUCT, "DeleteDomainRecord", &[("RecordId", &id)])
            .unwrap_err();
        assert_eq!(e.code, "DomainRecordNotBelongToUser");
        let e = h
            .call_as(
                &other,
                &PRODUCT,
                "DescribeDomainRecords",
                &[("DomainName", "example.com")],
            )
            .unwrap_err();
        assert_eq!(e.code, "InvalidDomainName.NoExist");
        assert_eq!(records(&h).len(), 1);
    }
}
