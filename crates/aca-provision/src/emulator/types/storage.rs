//! Resources behind REST APIs: `alicloud_oss_bucket` (OSS) and `alicloud_log_project`,
//! `alicloud_log_store` (Simple Log Service).

use reqwest::Method;
use serde_json::{Value, json};

use super::{Arg, Attrs, Cx, Fut, ResourceType, TAGS, arg, local, required, scalar};
use crate::emulator::client::{CallError, OssRequest, xml_text, xml_texts};

pub static TYPES: &[&dyn ResourceType] = &[&OssBucket, &OssBucketObject, &LogProject, &LogStore];

fn text(attrs: &Attrs, names: &[&str]) -> Option<String> {
    names.iter().find_map(|n| attrs.get(*n).and_then(scalar))
}

fn not_found_is_none<T>(result: Result<T, CallError>) -> Result<Option<T>, CallError> {
    match result {
        Ok(value) => Ok(Some(value)),
        Err(CallError::Api(e)) if e.is_not_found() => Ok(None),
        Err(e) => Err(e),
    }
}

/// `alicloud_oss_bucket`: `PutBucket`, `GetBucketInfo`, `DeleteBucket`. The id is the bucket name.
#[derive(Debug)]
pub struct OssBucket;

const BUCKET_ARGS: &[Arg] = &[
    required("bucket", "BucketName"),
    arg("acl", "x-oss-acl"),
    arg("storage_class", "StorageClass"),
    arg("redundancy_type", "DataRedundancyType"),
    arg("resource_group_id", "x-oss-resource-group-id"),
    local("force_destroy"),
    TAGS,
];

impl ResourceType for OssBucket {
    fn name(&self) -> &'static str {
        "alicloud_oss_bucket"
    }

    fn product(&self) -> &'static str {
        "OSS"
    }

    fn operation(&self) -> &'static str {
        "PutBucket"
    }

    fn arguments(&self) -> &'static [Arg] {
        BUCKET_ARGS
    }

    fn name_arguments(&self) -> &'static [&'static str] {
        &["bucket"]
    }

    fn computed(&self) -> Vec<&'static str> {
        vec![
            "location",
            "extranet_endpoint",
            "intranet_endpoint",
            "creation_date",
            "owner",
        ]
    }

    fn ready(&self, _args: &Attrs) -> Option<(String, Vec<String>)> {
        None
    }

    fn create<'a>(&'a self, cx: Cx<'a>, args: &'a Attrs) -> Fut<'a, String> {
        Box::pin(async move {
            let bucket = text(args, &["bucket"]).unwrap_or_default();
            let mut headers = Vec::new();
            let acl = text(args, &["acl"]);
            if let Some(acl) = &acl {
                headers.push(("x-oss-acl", acl.as_str()));
            }
            let group = text(args, &["resource_group_id"]);
            if let Some(group) = &group {
                headers.push(("x-oss-resource-group-id", group.as_str()));
            }
            let mut config = String::new();
            if let Some(class) = text(args, &["storage_class"]) {
                config.push_str(&format!("<StorageClass>{class}</StorageClass>"));
            }
            if let Some(redundancy) = text(args, &["redundancy_type"]) {
                config.push_str(&format!("<DataRedundancyType>{redundancy}</DataRedundancyType>"));
            }
            let body = (!config.is_empty())
                .then(|| format!("<CreateBucketConfiguration>{config}</CreateBucketConfiguration>"));
            cx.client
                .oss(OssRequest {
                    headers: &headers,
                    body,
                    ..OssRequest::new("PutBucket", Method::PUT, cx.region, &bucket)
                })
                .await?;
            Ok(bucket)
        })
    }

    fn read<'a>(&'a self, cx: Cx<'a>, id: &'a str, _attrs: &'a Attrs) -> Fut<'a, Option<Attrs>> {
        Box::pin(async move {
            let info = cx
                .client
                .oss(OssRequest {
                    sub_resource: Some("bucketInfo"),
                    ..OssRequest::new("GetBucketInfo", Method::GET, cx.region, id)
                })
                .await;
            let Some(xml) = not_found_is_none(info)? else {
                return Ok(None);
            };
            let mut out = Attrs::new();
            for (attribute, tag) in [
                ("bucket", "Name"),
                ("acl", "Grant"),
                ("storage_class", "StorageClass"),
                ("redundancy_type", "DataRedundancyType"),
                ("location", "Location"),
                ("extranet_endpoint", "ExtranetEndpoint"),
                ("intranet_endpoint", "IntranetEndpoint"),
                ("creation_date", "CreationDate"),
                ("resource_group_id", "ResourceGroupId"),
            ] {
                if let Some(value) = xml_text(&xml, tag) {
                    out.insert(attribute.to_owned(), Value::String(value));
                }
            }
            Ok(Some(out))
        })
    }

    fn delete<'a>(&'a self, cx: Cx<'a>, id: &'a str, attrs: &'a Attrs) -> Fut<'a, ()> {
        Box::pin(async move {
            // With force_destroy, the objects go first (an episode may have uploaded some).
            if attrs.get("force_destroy").and_then(Value::as_bool) == Some(true) {
                loop {
                    let listing = cx
                        .client
                        .oss(OssRequest::new("ListObjects", Method::GET, cx.region, id))
                        .await?;
                    let keys = xml_texts(&listing, "Key");
                    if keys.is_empty() {
                        break;
                    }
                    for key in &keys {
                        cx.client
                            .oss(OssRequest {
                                key: Some(key),
                                ..OssRequest::new("DeleteObject", Method::DELETE, cx.region, id)
                            })
                            .await?;
                    }
                }
            }
            cx.client
                .oss(OssRequest::new("DeleteBucket", Method::DELETE, cx.region, id))
                .await?;
            Ok(())
        })
    }
}

/// `alicloud_oss_bucket_object`: `PutObject`, `GetObject`, `DeleteObject`; the id is the key.
#[derive(Debug)]
pub struct OssBucketObject;

const OBJECT_ARGS: &[Arg] = &[
    required("bucket", ""),
    required("key", ""),
    arg("content", ""),
    arg("source", ""),
    arg("content_type", "Content-Type"),
    arg("acl", "x-oss-object-acl"),
    local("cache_control"),
    local("content_disposition"),
    local("content_encoding"),
    local("expires"),
    local("server_side_encryption"),
    local("kms_key_id"),
];

impl ResourceType for OssBucketObject {
    fn name(&self) -> &'static str {
        "alicloud_oss_bucket_object"
    }

    fn product(&self) -> &'static str {
        "OSS"
    }

    fn operation(&self) -> &'static str {
        "PutObject"
    }

    fn arguments(&self) -> &'static [Arg] {
        OBJECT_ARGS
    }

    fn name_arguments(&self) -> &'static [&'static str] {
        &["key"]
    }

    fn computed(&self) -> Vec<&'static str> {
        vec!["content_length"]
    }

    fn ready(&self, _args: &Attrs) -> Option<(String, Vec<String>)> {
        None
    }

    fn create<'a>(&'a self, cx: Cx<'a>, args: &'a Attrs) -> Fut<'a, String> {
        Box::pin(async move {
            let bucket = text(args, &["bucket"]).unwrap_or_default();
            let key = text(args, &["key"]).unwrap_or_default();
            let body = match (text(args, &["content"]), text(args, &["source"])) {
                (Some(content), _) => content,
                (None, Some(path)) => std::fs::read_to_string(&path).map_err(|e| CallError::Protocol {
                    action: "PutObject".into(),
                    message: format!("cannot read the object's source {path}: {e}"),
                })?,
                (None, None) => String::new(),
            };
            let content_type = text(args, &["content_type"]);
            let acl = text(args, &["acl"]);
            let mut headers = Vec::new();
            if let Some(content_type) = &content_type {
                headers.push(("Content-Type", content_type.as_str()));
            }
            if let Some(acl) = &acl {
                headers.push(("x-oss-object-acl", acl.as_str()));
            }
            cx.client
                .oss(OssRequest {
                    key: Some(&key),
                    headers: &headers,
                    body: Some(body),
                    ..OssRequest::new("PutObject", Method::PUT, cx.region, &bucket)
                })
                .await?;
            Ok(key)
        })
    }

    fn read<'a>(&'a self, cx: Cx<'a>, id: &'a str, attrs: &'a Attrs) -> Fut<'a, Option<Attrs>> {
        Box::pin(async move {
            let bucket = text(attrs, &["bucket"]).unwrap_or_default();
            let found = cx
                .client
                .oss(OssRequest {
                    key: Some(id),
                    ..OssRequest::new("GetObject", Method::GET, cx.region, &bucket)
                })
                .await;
            let Some(content) = not_found_is_none(found)? else {
                return Ok(None);
            };
            let mut out = Attrs::new();
            out.insert("bucket".into(), Value::String(bucket));
            out.insert("key".into(), Value::String(id.to_owned()));
            out.insert("content_length".into(), json!(content.len()));
            out.insert("content".into(), Value::String(content));
            Ok(Some(out))
        })
    }

    fn delete<'a>(&'a self, cx: Cx<'a>, id: &'a str, attrs: &'a Attrs) -> Fut<'a, ()> {
        Box::pin(async move {
            let bucket = text(attrs, &["bucket"]).unwrap_or_default();
            cx.client
                .oss(OssRequest {
                    key: Some(id),
                    ..OssRequest::new("DeleteObject", Method::DELETE, cx.region, &bucket)
                })
                .await?;
            Ok(())
        })
    }
}

/// `alicloud_log_project`: `CreateProject`, `GetProject`, `DeleteProject`. The id is the name.
#[derive(Debug)]
pub struct LogProject;

const PROJECT_ARGS: &[Arg] = &[
    arg("project_name", "projectName"),
    arg("name", "projectName"),
    arg("description", "description"),
    arg("resource_group_id", "resourceGroupId"),
    TAGS,
];

impl ResourceType for LogProject {
    fn name(&self) -> &'static str {
        "alicloud_log_project"
    }

    fn product(&self) -> &'static str {
        "Simple Log Service"
    }

    fn operation(&self) -> &'static str {
        "CreateProject"
    }

    fn arguments(&self) -> &'static [Arg] {
        PROJECT_ARGS
    }

    fn name_arguments(&self) -> &'static [&'static str] {
        &["project_name", "name"]
    }

    fn computed(&self) -> Vec<&'static str> {
        vec!["status", "create_time"]
    }

    fn ready(&self, _args: &Attrs) -> Option<(String, Vec<String>)> {
        None
    }

    fn create<'a>(&'a self, cx: Cx<'a>, args: &'a Attrs) -> Fut<'a, String> {
        Box::pin(async move {
            let name = text(args, &["project_name", "name"]).unwrap_or_default();
            let mut body =
                json!({ "projectName": name, "description": text(args, &["description"]).unwrap_or_default() });
            if let Some(group) = text(args, &["resource_group_id"]) {
                body["resourceGroupId"] = json!(group);
            }
            cx.client
                .sls("CreateProject", Method::POST, &name, "/", cx.region, Some(&body))
                .await?;
            Ok(name)
        })
    }

    fn read<'a>(&'a self, cx: Cx<'a>, id: &'a str, _attrs: &'a Attrs) -> Fut<'a, Option<Attrs>> {
        Box::pin(async move {
            let found = cx.client.sls("GetProject", Method::GET, id, "/", cx.region, None).await;
            let Some(body) = not_found_is_none(found)? else {
                return Ok(None);
            };
            let mut out = Attrs::new();
            for (attribute, field) in [
                ("project_name", "projectName"),
                ("name", "projectName"),
                ("description", "description"),
                ("status", "status"),
                ("region", "region"),
                ("create_time", "createTime"),
                ("resource_group_id", "resourceGroupId"),
            ] {
                if let Some(value) = body.get(field) {
                    out.insert(attribute.to_owned(), value.clone());
                }
            }
            Ok(Some(out))
        })
    }

    fn delete<'a>(&'a self, cx: Cx<'a>, id: &'a str, _attrs: &'a Attrs) -> Fut<'a, ()> {
        Box::pin(async move {
            cx.client
                .sls("DeleteProject", Method::DELETE, id, "/", cx.region, None)
                .await?;
            Ok(())
        })
    }
}

/// `alicloud_log_store`: `CreateLogStore`, `GetLogStore`, `DeleteLogStore`; id `project:logstore`.
#[derive(Debug)]
pub struct LogStore;

const LOGSTORE_ARGS: &[Arg] = &[
    arg("project", "projectName"),
    arg("project_name", "projectName"),
    arg("logstore_name", "logstoreName"),
    arg("name", "logstoreName"),
    arg("shard_count", "shardCount"),
    arg("retention_period", "ttl"),
    arg("auto_split", "autoSplit"),
    arg("max_split_shard_count", "maxSplitShard"),
    arg("append_meta", "appendMeta"),
    arg("enable_web_tracking", "enable_tracking"),
];

fn project_and_store(attrs: &Attrs) -> (String, String) {
    (
        text(attrs, &["project", "project_name"]).unwrap_or_default(),
        text(attrs, &["logstore_name", "name"]).unwrap_or_default(),
    )
}

impl ResourceType for LogStore {
    fn name(&self) -> &'static str {
        "alicloud_log_store"
    }

    fn product(&self) -> &'static str {
        "Simple Log Service"
    }

    fn operation(&self) -> &'static str {
        "CreateLogStore"
    }

    fn arguments(&self) -> &'static [Arg] {
        LOGSTORE_ARGS
    }

    fn name_arguments(&self) -> &'static [&'static str] {
        &["logstore_name", "name"]
    }

    fn computed(&self) -> Vec<&'static str> {
        vec!["create_time"]
    }

    fn ready(&self, _args: &Attrs) -> Option<(String, Vec<String>)> {
        None
    }

    fn create<'a>(&'a self, cx: Cx<'a>, args: &'a Attrs) -> Fut<'a, String> {
        Box::pin(async move {
            let (project, store) = project_and_store(args);
            let number = |name: &str, default: i64| {
                args.get(name)
                    .and_then(|v| v.as_i64().or_else(|| v.as_str().and_then(|s| s.parse().ok())))
                    .unwrap_or(default)
            };
            let flag = |name: &str| args.get(name).and_then(Value::as_bool).unwrap_or(false);
            let mut body = json!({
                "logstoreName": store,
                "ttl": number("retention_period", 30),
                "shardCount": number("shard_count", 2),
                "autoSplit": flag("auto_split"),
                "appendMeta": flag("append_meta"),
                "enable_tracking": flag("enable_web_tracking"),
            });
            if flag("auto_split") {
                body["maxSplitShard"] = json!(number("max_split_shard_count", 64));
            }
            cx.client
                .sls(
                    "CreateLogStore",
                    Method::POST,
                    &project,
                    "/logstores",
                    cx.region,
                    Some(&body),
                )
                .await?;
            Ok(format!("{project}:{store}"))
        })
    }

    fn read<'a>(&'a self, cx: Cx<'a>, _id: &'a str, attrs: &'a Attrs) -> Fut<'a, Option<Attrs>> {
        Box::pin(async move {
            let (project, store) = project_and_store(attrs);
            let path = format!("/logstores/{store}");
            let found = cx
                .client
                .sls("GetLogStore", Method::GET, &project, &path, cx.region, None)
                .await;
            let Some(body) = not_found_is_none(found)? else {
                return Ok(None);
            };
            let mut out = Attrs::new();
            out.insert("project".into(), Value::String(project));
            for (attribute, field) in [
                ("logstore_name", "logstoreName"),
                ("name", "logstoreName"),
                ("shard_count", "shardCount"),
                ("retention_period", "ttl"),
                ("auto_split", "autoSplit"),
                ("max_split_shard_count", "maxSplitShard"),
                ("append_meta", "appendMeta"),
                ("enable_web_tracking", "enable_tracking"),
                ("create_time", "createTime"),
            ] {
                if let Some(value) = body.get(field) {
                    out.insert(attribute.to_owned(), value.clone());
                }
            }
            Ok(Some(out))
        })
    }

    fn delete<'a>(&'a self, cx: Cx<'a>, _id: &'a str, attrs: &'a Attrs) -> Fut<'a, ()> {
        Box::pin(async move {
            let (project, store) = project_and_store(attrs);
            let path = format!("/logstores/{store}");
            cx.client
                .sls("DeleteLogStore", Method::DELETE, &project, &path, cx.region, None)
                .await?;
            Ok(())
        })
    }
}
