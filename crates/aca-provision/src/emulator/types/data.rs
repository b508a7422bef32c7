//! Data sources, read from the API at apply time: `alicloud_zones` (`DescribeZones`),
//! `alicloud_images` (`DescribeImages`) and `alicloud_instance_types` (`DescribeInstanceTypes`).

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::{Attrs, Cx, Fut, scalar};
use crate::emulator::client::CallError;

/// One `data "alicloud_*"` source.
pub trait DataSource: Send + Sync {
    fn name(&self) -> &'static str;
    fn arguments(&self) -> &'static [&'static str];
    fn read<'a>(&'a self, cx: Cx<'a>, args: &'a Attrs) -> Fut<'a, Attrs>;
}

static SOURCES: &[&dyn DataSource] = &[&Zones, &Images, &InstanceTypes];

pub fn data_source(name: &str) -> Option<&'static dyn DataSource> {
    SOURCES.iter().copied().find(|s| s.name() == name)
}

fn ecs() -> Result<&'static str, CallError> {
    aca_console::products::by_code("ecs")
        .map(|p| p.version)
        .ok_or_else(|| CallError::Protocol {
            action: "DescribeZones".into(),
            message: "the emulator serves no ecs product".into(),
        })
}

fn text(args: &Attrs, name: &str) -> Option<String> {
    args.get(name).and_then(scalar)
}

fn strings(value: Option<&Value>) -> Vec<String> {
    value
        .and_then(Value::as_array)
        .map(|items| items.iter().filter_map(scalar).collect())
        .unwrap_or_default()
}

fn with_ids(list_name: &str, items: Vec<Value>) -> Attrs {
    let ids: Vec<Value> = items.iter().filter_map(|i| i.get("id").cloned()).collect();
    let mut out = Attrs::new();
    out.insert("ids".into(), Value::Array(ids));
    out.insert(list_name.into(), Value::Array(items));
    out
}

#[derive(Debug)]
struct Zones;

impl DataSource for Zones {
    fn name(&self) -> &'static str {
        "alicloud_zones"
    }

    fn arguments(&self) -> &'static [&'static str] {
        &[
            "available_resource_creation",
            "available_instance_type",
            "available_disk_category",
            "instance_charge_type",
            "network_type",
            "multi",
            "enable_details",
            "output_file",
        ]
    }

    fn read<'a>(&'a self, cx: Cx<'a>, args: &'a Attrs) -> Fut<'a, Attrs> {
        Box::pin(async move {
            let body = cx
                .client
                .rpc(ecs()?, "DescribeZones", cx.region, &BTreeMap::new())
                .await?;
            let resource = text(args, "available_resource_creation");
            let instance_type = text(args, "available_instance_type");
            let disk = text(args, "available_disk_category");
            let zones: Vec<Value> = body
                .pointer("/Zones/Zone")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default()
                .into_iter()
                .filter_map(|zone| {
                    let resources = strings(zone.pointer("/AvailableResourceCreation/ResourceTypes"));
                    let types = strings(zone.pointer("/AvailableInstanceTypes/InstanceTypes"));
                    let disks = strings(zone.pointer("/AvailableDiskCategories/DiskCategories"));
                    let wanted = resource.as_ref().is_none_or(|r| resources.contains(r))
                        && instance_type.as_ref().is_none_or(|t| types.contains(t))
                        && disk.as_ref().is_none_or(|d| disks.contains(d));
                    wanted.then(|| {
                        json!({
                            "id": zone.get("ZoneId").cloned().unwrap_or(Value::Null),
                            "local_name": zone.get("LocalName").cloned().unwrap_or(Value::Null),
                            "available_resource_creation": resources,
                            "available_instance_types": types,
                            "available_disk_categories": disks,
                        })
                    })
                })
                .collect();
            Ok(with_ids("zones", zones))
        })
    }
}

#[derive(Debug)]
struct Images;

impl DataSource for Images {
    fn name(&self) -> &'static str {
        "alicloud_images"
    }

    fn arguments(&self) -> &'static [&'static str] {
        &[
            "name_regex",
            "owners",
            "most_recent",
            "os_type",
            "architecture",
            "instance_type",
            "status",
            "output_file",
        ]
    }

    fn read<'a>(&'a self, cx: Cx<'a>, args: &'a Attrs) -> Fut<'a, Attrs> {
        Box::pin(async move {
            let mut params = BTreeMap::from([("PageSize".to_owned(), "100".to_owned())]);
            if let Some(owners) = text(args, "owners") {
                params.insert("ImageOwnerAlias".into(), owners);
            }
            if let Some(os) = text(args, "os_type") {
                params.insert("OSType".into(), os);
            }
            if let Some(arch) = text(args, "architecture") {
                params.insert("Architecture".into(), arch);
            }
            let pattern = match text(args, "name_regex") {
                Some(p) => Some(regex::Regex::new(&p).map_err(|e| CallError::Protocol {
                    action: "DescribeImages".into(),
                    message: format!("name_regex {p:?} is not a regular expression: {e}"),
                })?),
                None => None,
            };
            let body = cx.client.rpc(ecs()?, "DescribeImages", cx.region, &params).await?;
            let mut images: Vec<Value> = body
                .pointer("/Images/Image")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default()
                .into_iter()
                .filter(|image| {
                    let name = image.get("ImageName").and_then(Value::as_str).unwrap_or("");
                    pattern.as_ref().is_none_or(|p| p.is_match(name))
                })
                .map(|image| {
                    let field = |k: &str| image.get(k).cloned().unwrap_or(Value::Null);
                    json!({
                        "id": field("ImageId"),
                        "image_id": field("ImageId"),
                        "name": field("ImageName"),
                        "image_name": field("ImageName"),
                        "os_type": field("OSType"),
                        "os_name": field("OSName"),
                        "os_name_en": field("OSNameEn"),
                        "platform": field("Platform"),
                        "architecture": field("Architecture"),
                        "size": field("Size"),
                        "owner_alias": field("ImageOwnerAlias"),
                        "creation_time": field("CreationTime"),
                    })
                })
                .collect();
            if args.get("most_recent").and_then(Value::as_bool).unwrap_or(false) {
                images.sort_by(|a, b| {
                    let time = |v: &Value| v.get("creation_time").and_then(Value::as_str).unwrap_or("").to_owned();
                    time(b).cmp(&time(a))
                });
            }
            Ok(with_ids("images", images))
        })
    }
}

#[derive(Debug)]
struct InstanceTypes;

impl DataSource for InstanceTypes {
    fn name(&self) -> &'static str {
        "alicloud_instance_types"
    }

    fn arguments(&self) -> &'static [&'static str] {
        &[
            "availability_zone",
            "cpu_core_count",
            "memory_size",
            "instance_type_family",
            "instance_charge_type",
            "network_type",
            "output_file",
        ]
    }

    fn read<'a>(&'a self, cx: Cx<'a>, args: &'a Attrs) -> Fut<'a, Attrs> {
        Box::pin(async move {
            let mut params = BTreeMap::new();
            if let Some(family) = text(args, "instance_type_family") {
                params.insert("InstanceTypeFamily".to_owned(), family);
            }
            let body = cx
                .client
                .rpc(ecs()?, "DescribeInstanceTypes", cx.region, &params)
                .await?;
            let number = |name: &str| args.get(name).and_then(Value::as_f64);
            let (cpu, memory) = (number("cpu_core_count"), number("memory_size"));
            let types: Vec<Value> = body
                .pointer("/InstanceTypes/InstanceType")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default()
                .into_iter()
                .filter(|t| {
                    let field = |k: &str| t.get(k).and_then(Value::as_f64);
                    cpu.is_none_or(|c| field("CpuCoreCount") == Some(c))
                        && memory.is_none_or(|m| field("MemorySize") == Some(m))
                })
                .map(|t| {
                    let field = |k: &str| t.get(k).cloned().unwrap_or(Value::Null);
                    json!({
                        "id": field("InstanceTypeId"),
                        "family": field("InstanceTypeFamily"),
                        "cpu_core_count": field("CpuCoreCount"),
                        "memory_size": field("MemorySize"),
                    })
                })
                .collect();
            Ok(with_ids("instance_types", types))
        })
    }
}
