//! The `alicloud` resource types and data sources the emulator applier knows: for each, the
//! Terraform arguments it accepts and the OpenAPI calls that create, read and delete it.
//!
//! Most types are RPC resources described as data ([`RpcType`]): a create call whose response holds
//! the id, a read call whose response holds the resource, a delete call, and the mapping between
//! Terraform attribute names and API fields. Types whose API is not RPC (OSS buckets, Simple Log
//! Service projects and logstores) or whose id is composite (security group rules) implement
//! [`ResourceType`] themselves.

use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;

use serde_json::{Map, Value};

use super::client::{CallError, Client};

mod alarm;
mod alb;
mod compute;
mod data;
mod database;
mod identity;
mod kms_instance;
mod network;
mod services;
mod storage;

pub use data::{DataSource, data_source};

/// Terraform arguments or attributes, by name.
pub type Attrs = Map<String, Value>;

pub type Fut<'a, T> = Pin<Box<dyn Future<Output = Result<T, CallError>> + Send + 'a>>;

/// What a call needs besides its arguments.
#[derive(Debug, Clone, Copy)]
pub struct Cx<'a> {
    pub client: &'a Client,
    pub region: &'a str,
}

/// How a Terraform argument becomes API parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// A string, number or boolean, sent as text.
    Scalar,
    /// A list, sent as `Param.1`, `Param.2`, … (the RPC repeat-list form).
    List,
    /// A list joined with commas.
    Joined,
    /// A string sent in lower case (`PayByTraffic` → `paybytraffic`, as the provider does for CLB).
    Lower,
    /// A string translated from the provider's vocabulary to the API's (`PayAsYouGo` →
    /// `PayOnDemand`); values not in the table are sent unchanged.
    Mapped(&'static [(&'static str, &'static str)]),
    /// A map, sent as `Tag.1.Key`, `Tag.1.Value`, …
    Tags,
    /// Accepted and recorded, but not sent (a provider-side setting such as `force_destroy`).
    Local,
    /// A nested block given once (`load_balancer_billing_config { pay_type = … }`), sent as
    /// `Param.Field`.
    Block(&'static [BlockField]),
    /// A nested block given once or more (`zone_mappings { … }`), sent as `Param.N.Field`.
    Blocks(&'static [BlockField]),
}

/// One argument of a nested block: its Terraform name, the API field it becomes, and values
/// translated as [`Form::Mapped`] translates them. A list value is sent as `Field.1`, `Field.2`, ….
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockField {
    pub name: &'static str,
    pub param: &'static str,
    pub table: &'static [(&'static str, &'static str)],
}

pub const fn block_field(name: &'static str, param: &'static str) -> BlockField {
    BlockField {
        name,
        param,
        table: &[],
    }
}

pub const fn block_mapped(
    name: &'static str,
    param: &'static str,
    table: &'static [(&'static str, &'static str)],
) -> BlockField {
    BlockField { name, param, table }
}

/// One Terraform argument of a resource type.
#[derive(Debug, Clone, Copy)]
pub struct Arg {
    pub name: &'static str,
    /// The API parameter it becomes (unused for [`Form::Local`]).
    pub param: &'static str,
    pub form: Form,
    pub required: bool,
}

pub const fn arg(name: &'static str, param: &'static str) -> Arg {
    Arg {
        name,
        param,
        form: Form::Scalar,
        required: false,
    }
}

pub const fn required(name: &'static str, param: &'static str) -> Arg {
    Arg {
        name,
        param,
        form: Form::Scalar,
        required: true,
    }
}

pub const fn list(name: &'static str, param: &'static str) -> Arg {
    Arg {
        name,
        param,
        form: Form::List,
        required: false,
    }
}

pub const fn joined(name: &'static str, param: &'static str) -> Arg {
    Arg {
        name,
        param,
        form: Form::Joined,
        required: false,
    }
}

pub const fn local(name: &'static str) -> Arg {
    Arg {
        name,
        param: "",
        form: Form::Local,
        required: false,
    }
}

pub const fn lower(name: &'static str, param: &'static str) -> Arg {
    Arg {
        name,
        param,
        form: Form::Lower,
        required: false,
    }
}

pub const fn mapped(name: &'static str, param: &'static str, table: &'static [(&'static str, &'static str)]) -> Arg {
    Arg {
        name,
        param,
        form: Form::Mapped(table),
        required: false,
    }
}

pub const fn block(name: &'static str, param: &'static str, fields: &'static [BlockField]) -> Arg {
    Arg {
        name,
        param,
        form: Form::Block(fields),
        required: false,
    }
}

pub const fn blocks(name: &'static str, param: &'static str, fields: &'static [BlockField]) -> Arg {
    Arg {
        name,
        param,
        form: Form::Blocks(fields),
        required: false,
    }
}

pub const TAGS: Arg = Arg {
    name: "tags",
    param: "Tag",
    form: Form::Tags,
    required: false,
};

/// The state a resource must reach before it counts as created: `status` = `Available`.
#[derive(Debug, Clone, Copy)]
pub struct Ready {
    pub attribute: &'static str,
    pub states: &'static [&'static str],
}

/// One `alicloud_*` resource type.
pub trait ResourceType: Send + Sync {
    /// `alicloud_vpc`.
    fn name(&self) -> &'static str;
    /// The product as the console names it, for the resource report: `VPC`.
    fn product(&self) -> &'static str;
    /// The API operation that creates it: `CreateVpc`.
    fn operation(&self) -> &'static str;
    fn arguments(&self) -> &'static [Arg];
    /// The arguments that can carry the resource's name, in order of preference.
    fn name_arguments(&self) -> &'static [&'static str];
    /// Attributes known only after apply (besides `id`), for plans.
    fn computed(&self) -> Vec<&'static str>;
    /// The state to wait for after create, given the arguments (`status = "Stopped"` asks for one).
    fn ready(&self, args: &Attrs) -> Option<(String, Vec<String>)>;
    /// Creates the resource; returns its id.
    fn create<'a>(&'a self, cx: Cx<'a>, args: &'a Attrs) -> Fut<'a, String>;
    /// Reads the resource's current attributes; `None` when it does not exist.
    fn read<'a>(&'a self, cx: Cx<'a>, id: &'a str, attrs: &'a Attrs) -> Fut<'a, Option<Attrs>>;
    /// Steps that bring a created resource to what its arguments ask (stop an instance, disable a
    /// key); run once the resource is ready.
    fn settle<'a>(&'a self, cx: Cx<'a>, id: &'a str, args: &'a Attrs) -> Fut<'a, Option<(String, Vec<String>)>> {
        let _ = (cx, id, args);
        Box::pin(async { Ok(None) })
    }
    fn delete<'a>(&'a self, cx: Cx<'a>, id: &'a str, attrs: &'a Attrs) -> Fut<'a, ()>;
}

/// Where a read or delete parameter's value comes from.
#[derive(Debug, Clone, Copy)]
pub enum Source {
    Id,
    /// The id as a one-element JSON array (`["i-…"]`), as `DescribeInstances` takes `InstanceIds`.
    IdList,
    /// A Terraform attribute of the resource (an argument or a computed attribute).
    Attr(&'static str),
    /// The first of several attributes that is set (aliases such as `name` / `user_name`).
    AnyAttr(&'static [&'static str]),
    /// A Terraform attribute, or this default when it is not set.
    AttrOr(&'static str, &'static str),
    Const(&'static str),
}

/// An action run after create when an argument has a value: `status = "Stopped"` → `StopInstance`.
#[derive(Debug, Clone, Copy)]
pub struct Settle {
    pub argument: &'static str,
    pub value: &'static str,
    pub action: &'static str,
    pub params: &'static [(&'static str, Source)],
    /// What to wait for afterwards.
    pub ready: Option<Ready>,
}

/// Where a new resource's id comes from.
#[derive(Debug, Clone, Copy)]
pub enum IdFrom {
    /// A JSON pointer into the create response (`/VpcId`).
    Response(&'static str),
    /// Arguments joined with `:` (`instance_id:name` for a database), for resources the API names
    /// by their parent and name.
    Arguments(&'static [Source]),
}

/// An RPC resource, described as data.
#[derive(Debug)]
pub struct RpcType {
    pub name: &'static str,
    /// The emulator's product code (`vpc`), which gives the API version.
    pub code: &'static str,
    pub product: &'static str,
    pub args: &'static [Arg],
    pub name_arguments: &'static [&'static str],
    /// Parameters every create call sends.
    pub fixed: &'static [(&'static str, &'static str)],
    /// The create parameter that takes the VPC of the `vswitch_id` argument, for APIs that want
    /// both while the provider asks only for the vSwitch (`VPCId` of `CreateDBInstance`).
    pub vpc_of_vswitch: Option<&'static str>,
    pub create: &'static str,
    /// Where the new id comes from.
    pub id: IdFrom,
    pub read: &'static str,
    pub read_params: &'static [(&'static str, Source)],
    /// Where the resource is in the read response: an object, or an array searched for `match_field`
    /// = id (or its first element without a `match_field`).
    pub item_at: &'static str,
    pub match_field: Option<&'static str>,
    /// Terraform attribute ← JSON pointer inside the item.
    pub attributes: &'static [(&'static str, &'static str)],
    /// The item is gone when this attribute has this value (a key pending deletion).
    pub gone_when: Option<(&'static str, &'static str)>,
    pub ready: Option<Ready>,
    pub settle: &'static [Settle],
    pub delete: &'static str,
    pub delete_params: &'static [(&'static str, Source)],
    /// Called after `delete` with the same parameters, to remove what a deletion leaves behind
    /// (Tair keeps a released instance in its recycle bin until `DestroyInstance`).
    pub purge: Option<&'static str>,
}

impl RpcType {
    fn version(&self) -> Result<&'static str, CallError> {
        aca_console::products::by_code(self.code)
            .map(|p| p.version)
            .ok_or_else(|| CallError::Protocol {
                action: self.create.to_owned(),
                message: format!("the emulator serves no {} product", self.code),
            })
    }
}

/// The value of a [`Source`] for a resource, as API text.
pub fn source_value(source: Source, id: &str, attrs: &Attrs) -> Option<String> {
    match source {
        Source::Id => Some(id.to_owned()),
        Source::IdList => Some(serde_json::json!([id]).to_string()),
        Source::Attr(name) => attrs.get(name).and_then(scalar),
        Source::AnyAttr(names) => names.iter().find_map(|n| attrs.get(*n).and_then(scalar)),
        Source::AttrOr(name, default) => attrs.get(name).and_then(scalar).or_else(|| Some(default.to_owned())),
        Source::Const(value) => Some(value.to_owned()),
    }
}

/// A scalar JSON value as API text; `None` for null, arrays and objects.
pub fn scalar(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// The API parameters for a resource's arguments.
pub fn parameters(args_spec: &[Arg], args: &Attrs) -> BTreeMap<String, String> {
    let mut params = BTreeMap::new();
    for spec in args_spec {
        let Some(value) = args.get(spec.name) else { continue };
        match spec.form {
            Form::Local => {}
            Form::Scalar => {
                if let Some(text) = scalar(value) {
                    params.insert(spec.param.to_owned(), text);
                }
            }
            Form::List => {
                for (i, item) in as_list(value).iter().enumerate() {
                    params.insert(format!("{}.{}", spec.param, i + 1), item.clone());
                }
            }
            Form::Joined => {
                params.insert(spec.param.to_owned(), as_list(value).join(","));
            }
            Form::Mapped(table) => {
                if let Some(text) = scalar(value) {
                    let api = table
                        .iter()
                        .find(|(tf, _)| *tf == text)
                        .map_or(text.clone(), |(_, api)| (*api).to_owned());
                    params.insert(spec.param.to_owned(), api);
                }
            }
            Form::Lower => {
                if let Some(text) = scalar(value) {
                    params.insert(spec.param.to_owned(), text.to_ascii_lowercase());
                }
            }
            Form::Block(fields) => {
                if let Some(item) = block_items(value).first() {
                    block_parameters(spec.param, fields, item, &mut params);
                }
            }
            Form::Blocks(fields) => {
                for (i, item) in block_items(value).iter().enumerate() {
                    block_parameters(&format!("{}.{}", spec.param, i + 1), fields, item, &mut params);
                }
            }
            Form::Tags => {
                if let Value::Object(map) = value {
                    for (i, (key, v)) in map.iter().enumerate() {
                        params.insert(format!("{}.{}.Key", spec.param, i + 1), key.clone());
                        params.insert(format!("{}.{}.Value", spec.param, i + 1), scalar(v).unwrap_or_default());
                    }
                }
            }
        }
    }
    params
}

/// The blocks an argument holds: HCL blocks evaluate to a list of objects; an object written as
/// an attribute (`config = { … }`) is one block.
fn block_items(value: &Value) -> Vec<&Map<String, Value>> {
    match value {
        Value::Array(items) => items.iter().filter_map(Value::as_object).collect(),
        Value::Object(map) => vec![map],
        _ => Vec::new(),
    }
}

/// One block's arguments as `<prefix>.<Field>` parameters.
fn block_parameters(
    prefix: &str,
    fields: &[BlockField],
    item: &Map<String, Value>,
    params: &mut BTreeMap<String, String>,
) {
    for field in fields {
        let Some(value) = item.get(field.name) else { continue };
        let translate = |text: String| {
            field
                .table
                .iter()
                .find(|(tf, _)| *tf == text)
                .map_or(text.clone(), |(_, api)| (*api).to_owned())
        };
        match value {
            Value::Array(_) => {
                for (j, text) in as_list(value).into_iter().enumerate() {
                    params.insert(format!("{prefix}.{}.{}", field.param, j + 1), translate(text));
                }
            }
            other => {
                if let Some(text) = scalar(other) {
                    params.insert(format!("{prefix}.{}", field.param), translate(text));
                }
            }
        }
    }
}

fn as_list(value: &Value) -> Vec<String> {
    match value {
        Value::Array(items) => items.iter().filter_map(scalar).collect(),
        other => scalar(other).into_iter().collect(),
    }
}

fn params_of(spec: &[(&'static str, Source)], id: &str, attrs: &Attrs) -> BTreeMap<String, String> {
    spec.iter()
        .filter_map(|(param, source)| source_value(*source, id, attrs).map(|v| ((*param).to_owned(), v)))
        .collect()
}

impl ResourceType for RpcType {
    fn name(&self) -> &'static str {
        self.name
    }

    fn product(&self) -> &'static str {
        self.product
    }

    fn operation(&self) -> &'static str {
        self.create
    }

    fn arguments(&self) -> &'static [Arg] {
        self.args
    }

    fn name_arguments(&self) -> &'static [&'static str] {
        self.name_arguments
    }

    fn computed(&self) -> Vec<&'static str> {
        self.attributes.iter().map(|(name, _)| *name).collect()
    }

    fn ready(&self, _args: &Attrs) -> Option<(String, Vec<String>)> {
        self.ready.map(|r| {
            (
                r.attribute.to_owned(),
                r.states.iter().map(|s| (*s).to_owned()).collect(),
            )
        })
    }

    fn create<'a>(&'a self, cx: Cx<'a>, args: &'a Attrs) -> Fut<'a, String> {
        Box::pin(async move {
            let mut params = parameters(self.args, args);
            for (k, v) in self.fixed {
                params.entry((*k).to_owned()).or_insert_with(|| (*v).to_owned());
            }
            if let Some(param) = self.vpc_of_vswitch
                && !params.contains_key(param)
                && let Some(vswitch) = args.get("vswitch_id").and_then(scalar)
            {
                params.insert(param.to_owned(), vpc_of(cx, &vswitch).await?);
            }
            let body = cx.client.rpc(self.version()?, self.create, cx.region, &params).await?;
            match self.id {
                IdFrom::Response(pointer) => {
                    body.pointer(pointer)
                        .and_then(scalar)
                        .ok_or_else(|| CallError::Protocol {
                            action: self.create.to_owned(),
                            message: format!("the response has no {pointer}: {body}"),
                        })
                }
                IdFrom::Arguments(sources) => Ok(sources
                    .iter()
                    .map(|s| source_value(*s, "", args).unwrap_or_default())
                    .collect::<Vec<_>>()
                    .join(":")),
            }
        })
    }

    fn read<'a>(&'a self, cx: Cx<'a>, id: &'a str, attrs: &'a Attrs) -> Fut<'a, Option<Attrs>> {
        Box::pin(async move {
            let params = params_of(self.read_params, id, attrs);
            let body = match cx.client.rpc(self.version()?, self.read, cx.region, &params).await {
                Ok(body) => body,
                Err(CallError::Api(e)) if e.is_not_found() => return Ok(None),
                Err(e) => return Err(e),
            };
            let item = match body.pointer(self.item_at) {
                Some(Value::Array(items)) => match self.match_field {
                    Some(field) => items
                        .iter()
                        .find(|item| item.get(field).and_then(scalar).as_deref() == Some(id)),
                    None => items.first(),
                },
                Some(item @ Value::Object(_)) => Some(item),
                _ => None,
            };
            let Some(item) = item else { return Ok(None) };
            let mut out = Attrs::new();
            for (name, pointer) in self.attributes {
                if let Some(value) = item.pointer(pointer) {
                    out.insert((*name).to_owned(), value.clone());
                }
            }
            if let Some((attribute, value)) = self.gone_when
                && out.get(attribute).and_then(scalar).as_deref() == Some(value)
            {
                return Ok(None);
            }
            Ok(Some(out))
        })
    }

    fn settle<'a>(&'a self, cx: Cx<'a>, id: &'a str, args: &'a Attrs) -> Fut<'a, Option<(String, Vec<String>)>> {
        Box::pin(async move {
            let mut wait = None;
            for step in self.settle {
                if args.get(step.argument).and_then(scalar).as_deref() != Some(step.value) {
                    continue;
                }
                let params = params_of(step.params, id, args);
                cx.client.rpc(self.version()?, step.action, cx.region, &params).await?;
                if let Some(ready) = step.ready {
                    wait = Some((
                        ready.attribute.to_owned(),
                        ready.states.iter().map(|s| (*s).to_owned()).collect(),
                    ));
                }
            }
            Ok(wait)
        })
    }

    fn delete<'a>(&'a self, cx: Cx<'a>, id: &'a str, attrs: &'a Attrs) -> Fut<'a, ()> {
        Box::pin(async move {
            let params = params_of(self.delete_params, id, attrs);
            cx.client.rpc(self.version()?, self.delete, cx.region, &params).await?;
            if let Some(purge) = self.purge {
                cx.client.rpc(self.version()?, purge, cx.region, &params).await?;
            }
            Ok(())
        })
    }
}

/// The VPC a vSwitch belongs to.
async fn vpc_of(cx: Cx<'_>, vswitch: &str) -> Result<String, CallError> {
    let version = aca_console::products::by_code("vpc")
        .map(|p| p.version)
        .ok_or_else(|| CallError::Protocol {
            action: "DescribeVSwitches".into(),
            message: "the emulator serves no vpc product".into(),
        })?;
    let params = BTreeMap::from([("VSwitchId".to_owned(), vswitch.to_owned())]);
    let body = cx.client.rpc(version, "DescribeVSwitches", cx.region, &params).await?;
    body.pointer("/VSwitches/VSwitch/0/VpcId")
        .and_then(scalar)
        .ok_or_else(|| CallError::Protocol {
            action: "DescribeVSwitches".into(),
            message: format!("no vSwitch {vswitch} in {}", cx.region),
        })
}

/// Every resource type the emulator applier supports.
pub fn resource_types() -> Vec<&'static dyn ResourceType> {
    let mut all: Vec<&'static dyn ResourceType> = Vec::new();
    for table in [
        network::TYPES,
        alb::TYPES,
        compute::TYPES,
        database::TYPES,
        identity::TYPES,
        services::TYPES,
    ] {
        all.extend(table.iter().map(|t| *t as &dyn ResourceType));
    }
    all.extend(compute::CUSTOM.iter().copied());
    all.extend(storage::TYPES.iter().copied());
    all.extend(alarm::TYPES.iter().copied());
    all.extend(kms_instance::TYPES.iter().copied());
    all
}

/// The resource type with this name.
pub fn resource_type(name: &str) -> Option<&'static dyn ResourceType> {
    resource_types().into_iter().find(|t| t.name() == name)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn arguments_become_rpc_parameters() {
        let spec = [
            arg("vpc_name", "VpcName"),
            list("security_groups", "SecurityGroupIds"),
            joined("security_ips", "SecurityIPList"),
            TAGS,
            local("force_destroy"),
        ];
        let args = json!({
            "vpc_name": "v1",
            "security_groups": ["sg-1", "sg-2"],
            "security_ips": ["10.0.0.1", "10.0.0.2"],
            "tags": { "team": "docs" },
            "force_destroy": true,
        });
        let params = parameters(&spec, args.as_object().unwrap());
        let expected: BTreeMap<String, String> = [
            ("VpcName", "v1"),
            ("SecurityGroupIds.1", "sg-1"),
            ("SecurityGroupIds.2", "sg-2"),
            ("SecurityIPList", "10.0.0.1,10.0.0.2"),
            ("Tag.1.Key", "team"),
            ("Tag.1.Value", "docs"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
        assert_eq!(params, expected);
    }

    #[test]
    fn nested_blocks_become_numbered_parameters() {
        const ZONE: &[BlockField] = &[block_field("zone_id", "ZoneId"), block_field("vswitch_id", "VSwitchId")];
        const BILLING: &[BlockField] = &[block_mapped("pay_type", "PayType", &[("PayAsYouGo", "PostPay")])];
        const CHECK: &[BlockField] = &[block_field("health_check_codes", "HealthCheckCodes")];
        let spec = [
            blocks("zone_mappings", "ZoneMappings", ZONE),
            block("load_balancer_billing_config", "LoadBalancerBillingConfig", BILLING),
            block("health_check_config", "HealthCheckConfig", CHECK),
        ];
        let args = json!({
            "zone_mappings": [
                { "zone_id": "cn-hangzhou-h", "vswitch_id": "vsw-1" },
                { "zone_id": "cn-hangzhou-i", "vswitch_id": "vsw-2" },
            ],
            "load_balancer_billing_config": [{ "pay_type": "PayAsYouGo" }],
            "health_check_config": { "health_check_codes": ["http_2xx", "http_3xx"] },
        });
        let params = parameters(&spec, args.as_object().unwrap());
        let expected: BTreeMap<String, String> = [
            ("ZoneMappings.1.ZoneId", "cn-hangzhou-h"),
            ("ZoneMappings.1.VSwitchId", "vsw-1"),
            ("ZoneMappings.2.ZoneId", "cn-hangzhou-i"),
            ("ZoneMappings.2.VSwitchId", "vsw-2"),
            ("LoadBalancerBillingConfig.PayType", "PostPay"),
            ("HealthCheckConfig.HealthCheckCodes.1", "http_2xx"),
            ("HealthCheckConfig.HealthCheckCodes.2", "http_3xx"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
        assert_eq!(params, expected);
    }

    #[test]
    fn type_names_are_unique_and_their_products_exist() {
        let types = resource_types();
        let mut names: Vec<&str> = types.iter().map(|t| t.name()).collect();
        names.sort_unstable();
        let before = names.len();
        names.dedup();
        assert_eq!(before, names.len(), "a type is listed twice");
        for t in types {
            assert!(t.name().starts_with("alicloud_"), "{}", t.name());
            for name in t.name_arguments() {
                assert!(
                    t.arguments().iter().any(|a| a.name == *name),
                    "{}: the name argument {name} is not an argument",
                    t.name()
                );
            }
        }
    }
}
