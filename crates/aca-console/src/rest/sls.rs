//! Simple Log Service: projects, logstores and their indexes over SLS's REST protocol (API version
//! 0.6.0), signed with `Authorization: LOG <AccessKeyId>:<Signature>`, answered in SLS's JSON shapes.

use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use crate::Console;
use crate::catalog::{OpCtx, Operation, Product};
use crate::error::ApiError;
use crate::model::{AccessKey, Resource, request_id};
use crate::params::Params;
use crate::products::regions::{REGIONS, region};
use crate::rest::{GLOBAL_NAMES, RestRequest, access_key, caller_of, owner_of, parse_http_date};
use aca_openapi::sign::{rest_signature, signatures_match};

pub const PROJECT: &str = "sls.project";
pub const LOGSTORE: &str = "sls.logstore";
const PROJECT_TYPE: &str = "ACS::SLS::Project";
const LOGSTORE_TYPE: &str = "ACS::SLS::LogStore";

/// The API version every SLS request declares in `x-log-apiversion`.
pub const VERSION: &str = "0.6.0";

const OPERATIONS: &[Operation] = &[
    Operation::write("CreateProject", create_project),
    Operation::read("GetProject", get_project),
    Operation::read("ListProject", list_project),
    Operation::write("UpdateProject", update_project),
    Operation::write("DeleteProject", delete_project),
    Operation::write("CreateLogStore", create_logstore),
    Operation::read("GetLogStore", get_logstore),
    Operation::read("ListLogStores", list_logstores),
    Operation::write("UpdateLogStore", update_logstore),
    Operation::write("DeleteLogStore", delete_logstore),
    Operation::write("CreateIndex", create_index),
    Operation::read("GetIndex", get_index),
    Operation::write("UpdateIndex", update_index),
    Operation::write("DeleteIndex", delete_index),
];

/// The product; its events name the project's region in `eventSource`.
pub static PRODUCT: Product = Product {
    code: "sls",
    name: "Simple Log Service",
    service_name: "Sls",
    version: VERSION,
    endpoint: "{region}.log.aliyuncs.com",
    console_agent: "sls.console.aliyun.com",
    operations: OPERATIONS,
};

/// A project's resource id (its ARN without the region, so that the id is known before the region).
pub fn project_id(account_id: &str, project: &str) -> String {
    format!("acs:log:*:{account_id}:project/{project}")
}

pub fn logstore_id(account_id: &str, project: &str, logstore: &str) -> String {
    format!("acs:log:*:{account_id}:project/{project}/logstore/{logstore}")
}

fn parameter_invalid(message: impl Into<String>) -> ApiError {
    ApiError::new(StatusCode::BAD_REQUEST, "ParameterInvalid", message)
}

fn project_not_exist(name: &str) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "ProjectNotExist",
        format!("The Project does not exist : {name}"),
    )
}

fn logstore_not_exist(name: &str) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "LogStoreNotExist",
        format!("logstore {name} does not exist"),
    )
}

pub fn project_already_exist(name: &str) -> ApiError {
    ApiError::new(
        StatusCode::BAD_REQUEST,
        "ProjectAlreadyExist",
        format!("Project {name} already exist"),
    )
}

/// 3–63 characters of lowercase letters, digits, hyphens (and underscores for logstores), starting
/// and ending with a letter or digit.
fn check_name(what: &str, name: &str, underscore: bool) -> Result<(), ApiError> {
    let allowed = name
        .bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || (underscore && b == b'_'));
    let edge = |b: Option<u8>| b.is_some_and(|b| b.is_ascii_lowercase() || b.is_ascii_digit());
    if (3..=63).contains(&name.len()) && allowed && edge(name.bytes().next()) && edge(name.bytes().last()) {
        Ok(())
    } else {
        Err(parameter_invalid(format!("invalid {what} name: {name}")))
    }
}

fn own_project(ctx: &OpCtx<'_>, p: &Params) -> Result<Resource, ApiError> {
    let name = p
        .get("projectName")
        .ok_or_else(|| parameter_invalid("the project name is missing"))?;
    let id = project_id(&ctx.account().id, name);
    ctx.get(&id)
        .filter(|r| r.kind == PROJECT)
        .ok_or_else(|| project_not_exist(name))
}

fn own_logstore(ctx: &OpCtx<'_>, p: &Params) -> Result<(Resource, Resource), ApiError> {
    let project = own_project(ctx, p)?;
    let name = p
        .get("logstoreName")
        .ok_or_else(|| parameter_invalid("the logstore name is missing"))?;
    let id = logstore_id(&ctx.account().id, &project.name, name);
    let logstore = ctx
        .get(&id)
        .filter(|r| r.kind == LOGSTORE)
        .ok_or_else(|| logstore_not_exist(name))?;
    Ok((project, logstore))
}

fn seconds(ms: i64) -> i64 {
    ms.div_euclid(1000)
}

fn create_project(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let name = p
        .get("projectName")
        .ok_or_else(|| parameter_invalid("projectName is required"))?;
    check_name("project", name, false)?;
    let region_id = region(&ctx.region)?.id;
    let description = p.get("description").unwrap_or("");
    if description.chars().count() > 64 {
        return Err(parameter_invalid("the description must be at most 64 characters long"));
    }
    let id = project_id(&ctx.account().id, name);
    if ctx.get(&id).is_some() {
        return Err(project_already_exist(name));
    }
    let project = Resource::new(PROJECT, id, region_id, name, "Normal", ctx.now_ms)
        .with("Description", description)
        .with("LastModifiedMs", ctx.now_ms)
        .with("ResourceGroupId", p.get("resourceGroupId").unwrap_or("rg-default"));
    ctx.reference(PROJECT_TYPE, name);
    ctx.put(project);
    Ok(json!({}))
}

fn project_json(project: &Resource) -> Value {
    json!({
        "projectName": project.name,
        "status": project.status,
        "owner": "",
        "description": project.attr_str("Description"),
        "region": project.region,
        "resourceGroupId": project.attr_str("ResourceGroupId"),
        "createTime": seconds(project.created_ms).to_string(),
        "lastModifyTime": seconds(project.attr_i64("LastModifiedMs").unwrap_or(project.created_ms)).to_string(),
    })
}

fn get_project(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let project = own_project(ctx, p)?;
    ctx.reference(PROJECT_TYPE, &project.name);
    Ok(project_json(&project))
}

/// `offset` and `size` paging: the slice and the total.
fn page<T>(items: Vec<T>, p: &Params, max_size: i64) -> Result<(Vec<T>, usize), ApiError> {
    let offset = p
        .int("offset")
        .map_err(|_| parameter_invalid("offset must be an integer"))?
        .unwrap_or(0);
    let size = p
        .int("size")
        .map_err(|_| parameter_invalid("size must be an integer"))?
        .unwrap_or(100);
    if offset < 0 || !(0..=max_size).contains(&size) {
        return Err(parameter_invalid(format!(
            "offset must be at least 0 and size from 0 to {max_size}"
        )));
    }
    let total = items.len();
    Ok((
        items.into_iter().skip(offset as usize).take(size as usize).collect(),
        total,
    ))
}

fn list_project(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let filter = p.get("projectName").unwrap_or("");
    let mut projects: Vec<Resource> = ctx
        .list_all(PROJECT)
        .into_iter()
        .filter(|r| r.name.contains(filter))
        .collect();
    projects.sort_by(|a, b| a.name.cmp(&b.name));
    let (projects, total) = page(projects, p, 500)?;
    let items: Vec<Value> = projects.iter().map(project_json).collect();
    Ok(json!({ "count": items.len(), "total": total, "projects": items }))
}

fn update_project(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let mut project = own_project(ctx, p)?;
    let description = p.get("description").unwrap_or("");
    if description.chars().count() > 64 {
        return Err(parameter_invalid("the description must be at most 64 characters long"));
    }
    project.set("Description", description);
    project.set("LastModifiedMs", ctx.now_ms);
    ctx.reference(PROJECT_TYPE, &project.name);
    ctx.put(project);
    Ok(json!({}))
}

fn delete_project(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let project = own_project(ctx, p)?;
    for logstore in ctx.children(LOGSTORE, &project.id) {
        ctx.delete(&logstore.id);
    }
    ctx.reference(PROJECT_TYPE, &project.name);
    ctx.delete(&project.id);
    Ok(json!({}))
}

/// The logstore settings a create or update carries, checked against the documented ranges.
fn apply_settings(logstore: &mut Resource, p: &Params, creating: bool) -> Result<(), ApiError> {
    let int = |name: &str| {
        p.int(name)
            .map_err(|_| parameter_invalid(format!("{name} must be an integer")))
    };
    let flag = |name: &str| {
        p.bool(name)
            .map_err(|_| parameter_invalid(format!("{name} must be true or false")))
    };
    match int("ttl")? {
        Some(ttl) if (1..=3650).contains(&ttl) => logstore.set("ttl", ttl),
        Some(ttl) => return Err(parameter_invalid(format!("ttl must be from 1 to 3650 days, not {ttl}"))),
        None if creating => return Err(parameter_invalid("ttl is required")),
        None => {}
    }
    if creating {
        match int("shardCount")? {
            Some(n) if (1..=100).contains(&n) => logstore.set("shardCount", n),
            Some(n) => return Err(parameter_invalid(format!("shardCount must be from 1 to 100, not {n}"))),
            None => return Err(parameter_invalid("shardCount is required")),
        }
    }
    if let Some(auto_split) = flag("autoSplit")? {
        logstore.set("autoSplit", auto_split);
    }
    match int("maxSplitShard")? {
        Some(n) if (1..=64).contains(&n) => logstore.set("maxSplitShard", n),
        Some(n) => {
            return Err(parameter_invalid(format!(
                "maxSplitShard must be from 1 to 64, not {n}"
            )));
        }
        None if logstore.attrs.get("autoSplit") == Some(&Value::Bool(true))
            && logstore.attr_i64("maxSplitShard").is_none() =>
        {
            return Err(parameter_invalid("maxSplitShard is required when autoSplit is true"));
        }
        None => {}
    }
    for name in ["enable_tracking", "appendMeta"] {
        if let Some(value) = flag(name)? {
            logstore.set(name, value);
        }
    }
    if creating {
        let mode = p.get("mode").unwrap_or("standard");
        if !matches!(mode, "standard" | "query" | "lite") {
            return Err(parameter_invalid(format!("mode must be standard, query or lite, not {mode}")));
        }
        let metering = p.get("meteringMode").unwrap_or("ChargeByFunction");
        match metering {
            "ChargeByFunction" => {}
            "ChargeByDataIngest" if mode == "standard" => {}
            "ChargeByDataIngest" => {
                return Err(parameter_invalid(
                    "a query Logstore supports only the ChargeByFunction metering mode",
                ));
            }
            other => {
                return Err(parameter_invalid(format!(
                    "meteringMode must be ChargeByFunction or ChargeByDataIngest, not {other}"
                )));
            }
        }
        logstore.set("mode", mode);
        logstore.set("meteringMode", metering);
    }
    Ok(())
}

fn create_logstore(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let project = own_project(ctx, p)?;
    let name = p
        .get("logstoreName")
        .ok_or_else(|| parameter_invalid("logstoreName is required"))?;
    check_name("logstore", name, true)?;
    let id = logstore_id(&ctx.account().id, &project.name, name);
    if ctx.get(&id).is_some() {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "LogstoreAlreadyExist",
            format!("logstore {name} already exists"),
        ));
    }
    let mut logstore = Resource::new(LOGSTORE, id, &project.region, name, "Normal", ctx.now_ms)
        .with("autoSplit", false)
        .with("enable_tracking", false)
        .with("appendMeta", false)
        .with("LastModifiedMs", ctx.now_ms);
    logstore.parent = Some(project.id.clone());
    apply_settings(&mut logstore, p, true)?;
    ctx.reference(PROJECT_TYPE, &project.name);
    ctx.reference(LOGSTORE_TYPE, &format!("{}/{name}", project.name));
    ctx.put(logstore);
    Ok(json!({}))
}

fn logstore_json(logstore: &Resource) -> Value {
    let flag = |name: &str| logstore.attrs.get(name).and_then(Value::as_bool).unwrap_or(false);
    json!({
        "logstoreName": logstore.name,
        "ttl": logstore.attr_i64("ttl").unwrap_or(30),
        "shardCount": logstore.attr_i64("shardCount").unwrap_or(2),
        "enable_tracking": flag("enable_tracking"),
        "autoSplit": flag("autoSplit"),
        "maxSplitShard": logstore.attr_i64("maxSplitShard").unwrap_or(0),
        "appendMeta": flag("appendMeta"),
        "telemetryType": "",
        "mode": logstore.attrs.get("mode").and_then(Value::as_str).unwrap_or("standard"),
        "meteringMode": logstore.attrs.get("meteringMode").and_then(Value::as_str).unwrap_or("ChargeByFunction"),
        "createTime": seconds(logstore.created_ms),
        "lastModifyTime": seconds(logstore.attr_i64("LastModifiedMs").unwrap_or(logstore.created_ms)),
    })
}

fn get_logstore(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let (project, logstore) = own_logstore(ctx, p)?;
    ctx.reference(LOGSTORE_TYPE, &format!("{}/{}", project.name, logstore.name));
    Ok(logstore_json(&logstore))
}

fn list_logstores(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let project = own_project(ctx, p)?;
    let filter = p.get("logstoreName").unwrap_or("");
    let mut names: Vec<String> = ctx
        .children(LOGSTORE, &project.id)
        .into_iter()
        .map(|r| r.name)
        .filter(|n| n.contains(filter))
        .collect();
    names.sort();
    let (names, total) = page(names, p, 500)?;
    ctx.reference(PROJECT_TYPE, &project.name);
    Ok(json!({ "count": names.len(), "total": total, "logstores": names }))
}

fn update_logstore(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let (project, mut logstore) = own_logstore(ctx, p)?;
    apply_settings(&mut logstore, p, false)?;
    logstore.set("LastModifiedMs", ctx.now_ms);
    ctx.reference(LOGSTORE_TYPE, &format!("{}/{}", project.name, logstore.name));
    ctx.put(logstore);
    Ok(json!({}))
}

fn delete_logstore(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let (project, logstore) = own_logstore(ctx, p)?;
    ctx.reference(LOGSTORE_TYPE, &format!("{}/{}", project.name, logstore.name));
    ctx.delete(&logstore.id);
    Ok(json!({}))
}

/// The attribute of a logstore that holds its index configuration.
const INDEX: &str = "index";

fn index_config_not_exist() -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, "IndexConfigNotExist", "index config doesn't exist")
}

/// The delimiters a full-text index splits on unless told otherwise, as the console's Delimiter box
/// shows them.
pub const DEFAULT_TOKENS: &str = r#", '";=()[]{}?@&<>/:\n\t\r"#;

/// A delimiter list written as one string, as the console's Delimiter box shows it: each character
/// is one delimiter, with a line feed, tab and carriage return written `\n`, `\t` and `\r`.
fn tokens_of(text: &str) -> Vec<String> {
    let mut tokens: Vec<String> = Vec::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        let token = match c {
            '\\' => match chars.next() {
                Some('n') => "\n".to_owned(),
                Some('t') => "\t".to_owned(),
                Some('r') => "\r".to_owned(),
                Some(other) => other.to_string(),
                None => "\\".to_owned(),
            },
            other => other.to_string(),
        };
        if !tokens.contains(&token) {
            tokens.push(token);
        }
    }
    tokens
}

/// The index configuration a CreateIndex or UpdateIndex carries: `line` (full-text index), `keys`
/// (field indexes), `log_reduce`, `ttl` and `max_text_len`. The body's objects arrive as JSON text;
/// the console's panel sends the full-text settings as `line.caseSensitive`, `line.chn` and
/// `line.token` (the Delimiter box's text), which are read the same way.
fn index_of(p: &Params) -> Result<Value, ApiError> {
    let object = |name: &str| -> Result<Option<Value>, ApiError> {
        match p.get(name) {
            None | Some("") => Ok(None),
            Some(text) => match serde_json::from_str::<Value>(text) {
                Ok(v @ Value::Object(_)) => Ok(Some(v)),
                _ => Err(parameter_invalid(format!("{name} must be a JSON object"))),
            },
        }
    };
    let flag = |name: &str| {
        p.bool(name)
            .map_err(|_| parameter_invalid(format!("{name} must be true or false")))
    };
    let mut line = object("line")?;
    if line.is_none() && flag("line.enabled")? == Some(true) {
        line = Some(json!({
            "token": tokens_of(p.get("line.token").unwrap_or(DEFAULT_TOKENS)),
            "caseSensitive": flag("line.caseSensitive")?.unwrap_or(false),
            "chn": flag("line.chn")?.unwrap_or(false),
        }));
    }
    if let Some(line) = &mut line {
        let tokens = match line.get("token") {
            Some(Value::Array(items)) => items.iter().filter_map(Value::as_str).map(str::to_owned).collect(),
            Some(Value::String(text)) => tokens_of(text),
            _ => Vec::new(),
        };
        if tokens.is_empty() {
            return Err(parameter_invalid("line.token must list at least one delimiter"));
        }
        line["token"] = json!(tokens);
        for name in ["caseSensitive", "chn"] {
            if line.get(name).and_then(Value::as_bool).is_none() {
                line[name] = json!(false);
            }
        }
    }
    let keys = object("keys")?;
    if line.is_none() && keys.is_none() {
        return Err(parameter_invalid("the index must have line or keys (a full-text or a field index)"));
    }
    let int = |name: &str, range: std::ops::RangeInclusive<i64>, default: i64| {
        match p.int(name).map_err(|_| parameter_invalid(format!("{name} must be an integer")))? {
            Some(n) if range.contains(&n) => Ok(n),
            Some(n) => Err(parameter_invalid(format!(
                "{name} must be from {} to {}, not {n}",
                range.start(),
                range.end()
            ))),
            None => Ok(default),
        }
    };
    let mut index = json!({
        "ttl": int("ttl", 1..=3650, 30)?,
        "max_text_len": int("max_text_len", 64..=16384, 2048)?,
        "log_reduce": flag("log_reduce")?.unwrap_or(false),
    });
    if let Some(line) = line {
        index["line"] = line;
    }
    if let Some(keys) = keys {
        index["keys"] = keys;
    }
    Ok(index)
}

fn save_index(ctx: &mut OpCtx<'_>, p: &Params, exists: bool) -> Result<Value, ApiError> {
    let (project, mut logstore) = own_logstore(ctx, p)?;
    match (logstore.attrs.contains_key(INDEX), exists) {
        (true, false) => {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "IndexAlreadyExist",
                "log store index is already created",
            ));
        }
        (false, true) => return Err(index_config_not_exist()),
        _ => {}
    }
    let mut index = index_of(p)?;
    index["lastModifyTime"] = json!(seconds(ctx.now_ms));
    logstore.set(INDEX, index);
    ctx.reference(LOGSTORE_TYPE, &format!("{}/{}", project.name, logstore.name));
    ctx.put(logstore);
    Ok(json!({}))
}

fn create_index(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    save_index(ctx, p, false)
}

fn update_index(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    save_index(ctx, p, true)
}

fn get_index(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let (project, logstore) = own_logstore(ctx, p)?;
    let index = logstore.attrs.get(INDEX).cloned().ok_or_else(index_config_not_exist)?;
    ctx.reference(LOGSTORE_TYPE, &format!("{}/{}", project.name, logstore.name));
    let mut body = index;
    body["index_mode"] = json!("v2");
    body["storage"] = json!("pg");
    Ok(body)
}

fn delete_index(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let (project, mut logstore) = own_logstore(ctx, p)?;
    if logstore.attrs.remove(INDEX).is_none() {
        return Err(index_config_not_exist());
    }
    ctx.reference(LOGSTORE_TYPE, &format!("{}/{}", project.name, logstore.name));
    ctx.put(logstore);
    Ok(json!({}))
}

// ---------------------------------------------------------------------------------------------
// The HTTP side.

/// The project a request addresses: the first label of `Host` when the rest is an SLS endpoint (an
/// IP address, `localhost`, or `<region>.log.aliyuncs.com`), else the `x-log-project` header.
pub(crate) fn project_of(req: &RestRequest) -> Option<String> {
    let host = req.header("host").unwrap_or("");
    let host = match host.rsplit_once(':') {
        Some((name, port)) if port.bytes().all(|b| b.is_ascii_digit()) => name,
        _ => host,
    };
    let from_host = host.split_once('.').and_then(|(first, endpoint)| {
        let is_ipv4 = endpoint.parse::<std::net::Ipv4Addr>().is_ok();
        let is_endpoint = is_ipv4 || endpoint == "localhost" || endpoint.ends_with(".log.aliyuncs.com");
        (is_endpoint && !first.is_empty()).then(|| first.to_owned())
    });
    from_host
        .or_else(|| req.header("x-log-project").map(str::to_owned))
        .filter(|p| !p.is_empty())
}

/// The region `<region>.log.aliyuncs.com` (or `-intranet`) in the `Host` header names, if any.
fn region_of_host(req: &RestRequest) -> Option<&'static str> {
    let host = req.header("host").unwrap_or("");
    REGIONS
        .iter()
        .find(|r| {
            host.contains(&format!("{}.log.aliyuncs.com", r.id))
                || host.contains(&format!("{}-intranet.log.aliyuncs.com", r.id))
        })
        .map(|r| r.id)
}

fn action_of(req: &RestRequest, project: Option<&str>) -> Option<(&'static str, Option<String>)> {
    let path = req.uri.path();
    let (path, index) = match path.strip_suffix("/index") {
        Some(logstore) if logstore.starts_with("/logstores/") => (logstore, true),
        _ => (path, false),
    };
    let logstore = path.strip_prefix("/logstores/").map(|name| {
        percent_encoding::percent_decode_str(name)
            .decode_utf8_lossy()
            .into_owned()
    });
    let action = match (&req.method, path, &logstore) {
        (&Method::POST, _, Some(_)) if index => "CreateIndex",
        (&Method::GET, _, Some(_)) if index => "GetIndex",
        (&Method::PUT, _, Some(_)) if index => "UpdateIndex",
        (&Method::DELETE, _, Some(_)) if index => "DeleteIndex",
        _ if index => return None,
        (&Method::GET, "/", _) if project.is_some() => "GetProject",
        (&Method::GET, "/", _) => "ListProject",
        (&Method::POST, "/", _) => "CreateProject",
        (&Method::PUT, "/", _) => "UpdateProject",
        (&Method::DELETE, "/", _) => "DeleteProject",
        (&Method::GET, "/logstores", _) => "ListLogStores",
        (&Method::POST, "/logstores", _) => "CreateLogStore",
        (&Method::GET, _, Some(_)) => "GetLogStore",
        (&Method::PUT, _, Some(_)) => "UpdateLogStore",
        (&Method::DELETE, _, Some(_)) => "DeleteLogStore",
        _ => return None,
    };
    Some((action, logstore.filter(|l| !l.is_empty() && !l.contains('/'))))
}

/// The LOG signature's string to sign: verb, `Content-MD5`, `Content-Type`, `Date`, the `x-log-` and
/// `x-acs-` headers (lower-case, sorted, `name:value\n` each), then the path with the sorted,
/// decoded query (`/logstores?offset=0&size=100`). As the SDKs sign, `x-log-meta-*` headers and
/// `x-log-date` (a copy of `Date` added after signing, for proxies that drop `Date`) are left out.
pub(crate) fn string_to_sign(req: &RestRequest) -> String {
    let header = |name: &str| req.header(name).unwrap_or("").to_owned();
    let mut log_headers: Vec<(String, String)> = req
        .headers
        .iter()
        .map(|(n, v)| {
            (
                n.as_str().to_ascii_lowercase(),
                v.to_str().unwrap_or("").trim().to_owned(),
            )
        })
        .filter(|(n, _)| n.starts_with("x-log-") || n.starts_with("x-acs-"))
        .filter(|(n, _)| n != "x-log-date" && !n.starts_with("x-log-meta-"))
        .collect();
    log_headers.sort();
    let canonical_headers: String = log_headers.iter().map(|(n, v)| format!("{n}:{v}\n")).collect();
    let mut query = req.query();
    query.sort();
    let mut resource = req.uri.path().to_owned();
    if !query.is_empty() {
        let parts: Vec<String> = query.iter().map(|(k, v)| format!("{k}={v}")).collect();
        resource.push('?');
        resource.push_str(&parts.join("&"));
    }
    format!(
        "{}\n{}\n{}\n{}\n{canonical_headers}{resource}",
        req.method.as_str(),
        header("content-md5"),
        header("content-type"),
        request_date(req)
    )
}

/// The request's time: `Date`, or `x-log-date` where a proxy dropped `Date`.
fn request_date(req: &RestRequest) -> String {
    req.header("date")
        .or_else(|| req.header("x-log-date"))
        .unwrap_or("")
        .to_owned()
}

/// Why a request was refused before its operation ran; `key` set means the refusal is audited.
struct Refusal {
    error: ApiError,
    key: Option<Box<AccessKey>>,
}

fn authenticate(console: &Console, req: &RestRequest) -> Result<AccessKey, Refusal> {
    let bare = |error| Refusal { error, key: None };
    let unauthorized = |message: String| ApiError::new(StatusCode::UNAUTHORIZED, "Unauthorized", message);
    let authorization = req.header("authorization").unwrap_or("");
    let Some((access_key_id, given)) = authorization
        .strip_prefix("LOG ")
        .and_then(|c| c.trim().split_once(':'))
    else {
        return Err(bare(unauthorized(
            "The Authorization header must be LOG <AccessKeyId>:<Signature>.".to_owned(),
        )));
    };
    let key = access_key(console, access_key_id)
        .ok_or_else(|| bare(unauthorized(format!("AccessKeyId not found: {access_key_id}"))))?;
    if !key.active {
        return Err(bare(unauthorized(format!("AccessKeyId is disabled: {access_key_id}"))));
    }
    let audited = |error| Refusal {
        error,
        key: Some(Box::new(key.clone())),
    };
    if let Some(method) = req.header("x-log-signaturemethod")
        && !method.eq_ignore_ascii_case("hmac-sha1")
    {
        return Err(audited(parameter_invalid(format!(
            "signature method {method} is not supported"
        ))));
    }
    let date = request_date(req);
    let Some(at) = parse_http_date(&date) else {
        return Err(audited(parameter_invalid(format!(
            "the Date header is missing or invalid: {date:?}"
        ))));
    };
    if (console.clock.now_ms() - at).abs() > console.config.max_clock_skew_ms {
        let error = ApiError::new(
            StatusCode::BAD_REQUEST,
            "RequestTimeTooSkewed",
            format!("Request time {date} is too skewed from the server time."),
        );
        return Err(audited(error));
    }
    let string_to_sign = string_to_sign(req);
    if !signatures_match(&rest_signature(&key.secret, &string_to_sign), given) {
        let error = ApiError::new(
            StatusCode::UNAUTHORIZED,
            "SignatureNotMatch",
            format!("signature {given} not match"),
        );
        return Err(audited(error));
    }
    Ok(key)
}

/// The operation's parameters: the project and logstore names, the paging query, and the JSON body's
/// scalar fields under their own names (`logstoreName`, `ttl`, `shardCount`, …).
fn params_of(req: &RestRequest, project: Option<&str>, logstore: Option<&str>) -> Result<Params, ApiError> {
    let mut params = Params::default();
    for (k, v) in req.query() {
        if matches!(k.as_str(), "offset" | "size" | "projectName" | "logstoreName") {
            params.insert(k, v);
        }
    }
    if !req.body.is_empty() {
        let body: Value = serde_json::from_slice(&req.body).map_err(|e| {
            ApiError::new(
                StatusCode::BAD_REQUEST,
                "PostBodyInvalid",
                format!("the body is not valid JSON: {e}"),
            )
        })?;
        let Value::Object(fields) = body else {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "PostBodyInvalid",
                "the body must be a JSON object",
            ));
        };
        for (name, value) in fields {
            match value {
                Value::Null => {}
                Value::String(s) => params.insert(name, s),
                other => params.insert(name, other.to_string()),
            }
        }
    }
    if let Some(project) = project
        && (params.get("projectName").is_none() || req.uri.path() != "/" || req.method != Method::POST)
    {
        params.insert("projectName", project);
    }
    if let Some(logstore) = logstore {
        params.insert("logstoreName", logstore);
    }
    Ok(params)
}

/// Serves one SLS request end to end.
pub(crate) fn serve(console: &Console, req: &RestRequest) -> Response {
    let host_project = project_of(req);
    let Some((action, logstore)) = action_of(req, host_project.as_deref()) else {
        let error = ApiError::new(
            StatusCode::NOT_FOUND,
            "RequestNotSupported",
            "This request is not supported by this endpoint.",
        );
        return error_response(&error, &request_id());
    };
    let default_region = console.config.default_region.clone();
    let mut params = Params::from_pairs([("RegionId", default_region.clone())]);
    if let Some(p) = &host_project {
        params.insert("projectName", p);
    }
    let refuse = |refusal: Refusal, params: &Params| {
        let request_id = match &refusal.key {
            Some(k) => console.record_failure(&PRODUCT, action, params, &caller_of(k, req), &refusal.error),
            None => request_id(),
        };
        error_response(&refusal.error, &request_id)
    };
    let access_key = match authenticate(console, req) {
        Ok(k) => k,
        Err(refusal) => return refuse(refusal, &params),
    };
    let audited = |error| Refusal {
        error,
        key: Some(Box::new(access_key.clone())),
    };
    let mut full = match params_of(req, host_project.as_deref(), logstore.as_deref()) {
        Ok(p) => p,
        Err(e) => return refuse(audited(e), &params),
    };
    // Project names are global: find the project's owner (and so its region) first.
    let _names_guard = (action == "CreateProject").then(|| GLOBAL_NAMES.lock());
    let project = full.get("projectName").map(str::to_owned);
    let owner = project
        .as_deref()
        .and_then(|name| owner_of(console, |account_id| project_id(account_id, name)));
    let region = match &owner {
        Some((_, resource)) => resource.region.clone(),
        None => region_of_host(req).map_or(default_region, str::to_owned),
    };
    full.insert("RegionId", region.clone());
    if let (Some((owner_id, _)), Some(name)) = (&owner, &project)
        && *owner_id != access_key.account_id
        && action != "ListProject"
    {
        let error = if action == "CreateProject" {
            project_already_exist(name)
        } else {
            ApiError::new(
                StatusCode::UNAUTHORIZED,
                "Unauthorized",
                format!("The project {name} does not belong to you."),
            )
        };
        return refuse(audited(error), &full);
    }
    let outcome = console.call(&PRODUCT, action, &full, &caller_of(&access_key, req));
    match outcome.result {
        Ok(body) => success_response(&outcome.request_id, body),
        Err(e) => error_response(&e, &outcome.request_id),
    }
}

fn with_request_id(mut response: Response, request_id: &str) -> Response {
    if let Ok(v) = HeaderValue::from_str(request_id) {
        response.headers_mut().insert("x-log-requestid", v);
    }
    response
        .headers_mut()
        .insert(header::SERVER, HeaderValue::from_static("nginx"));
    response
}

fn success_response(request_id: &str, body: Value) -> Response {
    let mut map = match body {
        Value::Object(map) => map,
        _ => serde_json::Map::new(),
    };
    map.remove("RequestId");
    let response = if map.is_empty() {
        (StatusCode::OK, [(header::CONTENT_LENGTH, "0")]).into_response()
    } else {
        (StatusCode::OK, axum::Json(Value::Object(map))).into_response()
    };
    with_request_id(response, request_id)
}

fn error_response(e: &ApiError, request_id: &str) -> Response {
    let body = json!({ "errorCode": e.code, "errorMessage": e.message });
    with_request_id((e.status, axum::Json(body)).into_response(), request_id)
}

pub(crate) fn internal_error(message: &str) -> Response {
    let error = ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "InternalServerError", message);
    error_response(&error, &request_id())
}

#[cfg(test)]
mod tests {

    use super::*;
    use crate::rest::test_request as request;

    #[test]
    fn finds_the_project_in_the_host() {
        let host = |h: &str| project_of(&request(Method::GET, "/", &[("host", h)]));
        assert_eq!(host("my-logs.127.0.0.1:8080").as_deref(), Some("my-logs"));
        assert_eq!(host("my-logs.cn-hangzhou.log.aliyuncs.com").as_deref(), Some("my-logs"));
        assert_eq!(host("127.0.0.1:8080"), None);
        assert_eq!(host("cn-hangzhou.log.aliyuncs.com"), None);
        let header = request(Method::GET, "/", &[("host", "127.0.0.1:1"), ("x-log-project", "p1")]);
        assert_eq!(project_of(&header).as_deref(), Some("p1"));
    }

    #[test]
    fn string_to_sign_sorts_headers_and_query() {
        let req = request(
            Method::GET,
            "/logstores?size=10&offset=0",
            &[
                ("date", "Mon, 09 Nov 2015 06:03:03 GMT"),
                ("x-log-signaturemethod", "hmac-sha1"),
                ("x-log-apiversion", "0.6.0"),
                ("x-log-date", "Mon, 09 Nov 2015 06:03:03 GMT"),
                ("x-log-meta-source", "unsigned"),
                ("x-acs-security-token", "t"),
                ("host", "p.127.0.0.1"),
            ],
        );
        assert_eq!(
            string_to_sign(&req),
            "GET\n\n\nMon, 09 Nov 2015 06:03:03 GMT\nx-acs-security-token:t\nx-log-apiversion:0.6.0\n\
             x-log-signaturemethod:hmac-sha1\n/logstores?offset=0&size=10"
        );
    }

    #[test]
    fn the_delimiter_box_is_one_delimiter_a_character() {
        assert_eq!(tokens_of(r",;\n\t,"), [",", ";", "\n", "\t"]);
        let tokens = tokens_of(DEFAULT_TOKENS);
        assert!(tokens.contains(&"\r".to_owned()) && tokens.contains(&"\"".to_owned()) && tokens.len() == 22);
    }

    #[test]
    fn the_panels_settings_make_a_full_text_index() {
        let p = Params::from_pairs([
            ("line.enabled", "true".to_owned()),
            ("line.chn", "true".to_owned()),
            ("line.token", ",;".to_owned()),
            ("log_reduce", "true".to_owned()),
        ]);
        let index = index_of(&p).unwrap();
        assert_eq!(index["line"], json!({ "token": [",", ";"], "caseSensitive": false, "chn": true }));
        assert_eq!(index["log_reduce"], json!(true));
        // Full Text Index off and no field index: nothing to index.
        let off = Params::from_pairs([("line.token", ",".to_owned())]);
        assert_eq!(index_of(&off).unwrap_err().code, "ParameterInvalid");
    }

    #[test]
    fn routes_projects_and_logstores() {
        let action = |m: Method, uri: &str, project: Option<&str>| action_of(&request(m, uri, &[]), project);
        assert_eq!(action(Method::GET, "/", None), Some(("ListProject", None)));
        assert_eq!(action(Method::GET, "/", Some("p")), Some(("GetProject", None)));
        assert_eq!(
            action(Method::DELETE, "/logstores/app_log", Some("p")),
            Some(("DeleteLogStore", Some("app_log".into())))
        );
        assert_eq!(action(Method::POST, "/shards", Some("p")), None);
        assert_eq!(
            action(Method::POST, "/logstores/app_log/index", Some("p")),
            Some(("CreateIndex", Some("app_log".into())))
        );
        assert_eq!(
            action(Method::PUT, "/logstores/app_log/index", Some("p")),
            Some(("UpdateIndex", Some("app_log".into())))
        );
        assert_eq!(action(Method::GET, "/index", Some("p")), None);
    }
}
