//! Security groups and their inbound and outbound rules.

use super::*;

pub(super) fn instances_in_group(ctx: &OpCtx<'_>, sg_id: &str) -> usize {
    ctx.list_all(INSTANCE)
        .iter()
        .filter(|i| attr_strings(i, "SecurityGroupIds").iter().any(|g| g == sg_id))
        .count()
}

pub(super) fn create_security_group(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    region(&ctx.region)?;
    let vpc_id = p.required("VpcId")?;
    let vpc = vpc::find_in_region(ctx, vpc::VPC, vpc_id, "VpcId")?;
    let name = optional_name(p, "SecurityGroupName")?;
    super::quotas::allocate_security_group(ctx)?;
    let group_type = p
        .one_of("SecurityGroupType", &["normal", "enterprise"])?
        .unwrap_or("normal");
    let id = ctx.new_id("sg");
    let mut sg = Resource::new(SECURITY_GROUP, id.clone(), &vpc.region, &name, "Available", ctx.now_ms)
        .with("VpcId", vpc_id)
        .with("Description", checked_description(p, "Description")?)
        .with("SecurityGroupType", group_type)
        .with(
            "InnerAccessPolicy",
            if group_type == "normal" { "Accept" } else { "Drop" },
        )
        .with("Permissions", json!([]))
        .with("ResourceGroupId", p.get("ResourceGroupId").unwrap_or("rg-default"))
        .with("Tags", tags(p)?);
    sg.parent = Some(vpc_id.to_owned());
    ctx.reference(SECURITY_GROUP_REF, &id);
    ctx.put(sg);
    Ok(json!({ "SecurityGroupId": id }))
}

pub(super) fn describe_security_groups(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    region(&ctx.region)?;
    let ids = p.list("SecurityGroupIds")?;
    let single = p.get("SecurityGroupId");
    let vpc_id = p.get("VpcId");
    let name = p.get("SecurityGroupName");
    let group_type = p.one_of("SecurityGroupType", &["normal", "enterprise"])?;
    let groups: Vec<Resource> = ctx
        .list(SECURITY_GROUP)
        .into_iter()
        .filter(|g| ids.is_empty() || ids.contains(&g.id))
        .filter(|g| single.is_none_or(|s| g.id == s))
        .filter(|g| vpc_id.is_none_or(|v| g.attr_str("VpcId") == v))
        .filter(|g| name.is_none_or(|n| glob_match(n, &g.name)))
        .filter(|g| group_type.is_none_or(|t| g.attr_str("SecurityGroupType") == t))
        .collect();
    let (page, number, size, total) = paginate(groups, p, 50)?;
    let items: Vec<Value> = page
        .iter()
        .map(|g| {
            let members = instances_in_group(ctx, &g.id);
            let capacity: usize = if g.attr_str("SecurityGroupType") == "enterprise" {
                65536
            } else {
                2000
            };
            json!({
                "SecurityGroupId": g.id,
                "SecurityGroupName": g.name,
                "Description": g.attr_str("Description"),
                "VpcId": g.attr_str("VpcId"),
                "SecurityGroupType": g.attr_str("SecurityGroupType"),
                "CreationTime": iso8601(g.created_ms),
                "EcsCount": members,
                "AvailableInstanceAmount": capacity.saturating_sub(members),
                "RuleCount": g.attrs.get("Permissions").and_then(Value::as_array).map_or(0, Vec::len),
                "ServiceManaged": false,
                "ResourceGroupId": g.attr_str("ResourceGroupId"),
                "Tags": { "Tag": attr_array(g, "Tags") },
            })
        })
        .collect();
    Ok(json!({
        "TotalCount": total,
        "PageNumber": number,
        "PageSize": size,
        "RegionId": ctx.region,
        "SecurityGroups": { "SecurityGroup": items },
    }))
}

pub(super) fn describe_security_group_attribute(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let id = p.required("SecurityGroupId")?;
    let direction = p.one_of("Direction", &["ingress", "egress", "all"])?.unwrap_or("all");
    let sg = here(ctx, SECURITY_GROUP, id, "SecurityGroupId")?;
    let permissions: Vec<Value> = sg
        .attrs
        .get("Permissions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|rule| direction == "all" || rule["Direction"] == json!(direction))
        .cloned()
        .collect();
    Ok(json!({
        "SecurityGroupId": sg.id,
        "SecurityGroupName": sg.name,
        "Description": sg.attr_str("Description"),
        "VpcId": sg.attr_str("VpcId"),
        "RegionId": sg.region,
        "InnerAccessPolicy": sg.attr_str("InnerAccessPolicy"),
        "Permissions": { "Permission": permissions },
    }))
}

/// One rule of a request: from `Permissions.N.*`, or from the flat legacy parameters.
pub(super) struct RuleInput {
    /// Parameter name prefix for error messages: `""` or `Permissions.1.`.
    prefix: String,
    fields: std::collections::BTreeMap<String, String>,
}

impl RuleInput {
    fn get(&self, field: &str) -> Option<&str> {
        self.fields.get(field).map(String::as_str).filter(|v| !v.is_empty())
    }

    fn param(&self, field: &str) -> String {
        format!("{}{field}", self.prefix)
    }
}

pub(super) const RULE_FIELDS: &[&str] = &[
    "IpProtocol",
    "PortRange",
    "SourcePortRange",
    "SourceCidrIp",
    "SourceGroupId",
    "DestCidrIp",
    "DestGroupId",
    "Policy",
    "Priority",
    "NicType",
    "Description",
];

pub(super) fn rule_inputs(p: &Params) -> Vec<RuleInput> {
    let listed = p.object_list("Permissions");
    if !listed.is_empty() {
        return listed
            .into_iter()
            .enumerate()
            .map(|(i, fields)| RuleInput {
                prefix: format!("Permissions.{}.", i + 1),
                fields,
            })
            .collect();
    }
    let fields: std::collections::BTreeMap<String, String> = RULE_FIELDS
        .iter()
        .filter_map(|f| p.get(f).map(|v| ((*f).to_owned(), v.to_owned())))
        .collect();
    if fields.is_empty() {
        Vec::new()
    } else {
        vec![RuleInput {
            prefix: String::new(),
            fields,
        }]
    }
}

/// `TCP`, `UDP`, `ICMP`, `GRE`, `ALL` or `ICMPv6`, given in any case.
pub(super) fn protocol(input: &RuleInput) -> Result<String, ApiError> {
    let param = input.param("IpProtocol");
    let given = input
        .get("IpProtocol")
        .ok_or_else(|| ApiError::missing_parameter(&param))?;
    ["TCP", "UDP", "ICMP", "GRE", "ALL", "ICMPv6"]
        .iter()
        .find(|known| known.eq_ignore_ascii_case(given))
        .map(|known| (*known).to_owned())
        .ok_or_else(|| {
            error(
                StatusCode::BAD_REQUEST,
                "InvalidIpProtocol.Malformed",
                format!("The specified parameter \"{param}\" is not valid."),
            )
        })
}

/// `22/22` or `1/65535` for TCP and UDP; `-1/-1` for every other protocol.
pub(super) fn port_range(input: &RuleInput, field: &str, protocol: &str, required: bool) -> Result<String, ApiError> {
    let param = input.param(field);
    let bad = || {
        error(
            StatusCode::BAD_REQUEST,
            "InvalidPortRange.Malformed",
            format!("The specified parameter \"{param}\" is not valid."),
        )
    };
    let Some(given) = input.get(field) else {
        return if required {
            Err(ApiError::missing_parameter(&param))
        } else {
            Ok(String::new())
        };
    };
    let (from, to) = given.split_once('/').ok_or_else(bad)?;
    let (from, to): (i64, i64) = (
        from.trim().parse().map_err(|_| bad())?,
        to.trim().parse().map_err(|_| bad())?,
    );
    let ok = if protocol == "TCP" || protocol == "UDP" {
        (1..=65535).contains(&from) && (from..=65535).contains(&to)
    } else {
        from == -1 && to == -1
    };
    if ok { Ok(format!("{from}/{to}")) } else { Err(bad()) }
}

pub(super) fn check_cidr(param: &str, value: &str) -> Result<(), ApiError> {
    if value.contains('/') {
        parse_cidr(param, value).map(|_| ())
    } else {
        value
            .parse::<std::net::Ipv4Addr>()
            .map(|_| ())
            .map_err(|_| ApiError::invalid_parameter(param, format!("{value:?} is not an IPv4 address or CIDR block")))
    }
}

/// A validated rule, shaped as `DescribeSecurityGroupAttribute` returns it.
pub(super) fn parse_rule(
    ctx: &OpCtx<'_>,
    sg: &Resource,
    input: &RuleInput,
    direction: &str,
) -> Result<Map<String, Value>, ApiError> {
    let protocol = protocol(input)?;
    let ports = port_range(input, "PortRange", &protocol, true)?;
    let source_ports = port_range(input, "SourcePortRange", &protocol, false)?;
    let policy = match input.get("Policy") {
        None => "Accept",
        Some(p) if p.eq_ignore_ascii_case("accept") => "Accept",
        Some(p) if p.eq_ignore_ascii_case("drop") => "Drop",
        Some(p) => {
            return Err(ApiError::invalid_parameter(
                &input.param("Policy"),
                format!("{p:?} is not accept or drop"),
            ));
        }
    };
    let priority_param = input.param("Priority");
    let priority = match input.get("Priority") {
        None => 1,
        Some(v) => v.parse::<i64>().ok().filter(|n| (1..=100).contains(n)).ok_or_else(|| {
            error(
                StatusCode::BAD_REQUEST,
                "InvalidPriority.Malformed",
                format!("The specified parameter \"{priority_param}\" is not valid."),
            )
        })?,
    };
    let (cidr_field, group_field) = if direction == "ingress" {
        ("SourceCidrIp", "SourceGroupId")
    } else {
        ("DestCidrIp", "DestGroupId")
    };
    let cidr = input.get(cidr_field).unwrap_or("");
    let group = input.get(group_field).unwrap_or("");
    if cidr.is_empty() && group.is_empty() {
        return Err(ApiError::missing_parameter(&input.param(cidr_field)));
    }
    if !cidr.is_empty() {
        check_cidr(&input.param(cidr_field), cidr)?;
    }
    let group_name = if group.is_empty() {
        String::new()
    } else {
        let other = here(ctx, SECURITY_GROUP, group, "SecurityGroupId")?;
        if other.attr_str("VpcId") != sg.attr_str("VpcId") {
            return Err(error(
                StatusCode::BAD_REQUEST,
                "InvalidParameter.Mismatch",
                "The specified security groups are not in the same VPC.",
            ));
        }
        other.name
    };
    let rule_description = input.get("Description").unwrap_or("");
    if rule_description.chars().count() > 512
        || rule_description.starts_with("http://")
        || rule_description.starts_with("https://")
    {
        return Err(error(
            StatusCode::BAD_REQUEST,
            "InvalidDescription.Malformed",
            "The specified parameter \"Description\" is not valid.",
        ));
    }
    let mut rule = Map::new();
    rule.insert("SecurityGroupRuleId".into(), json!(ctx.new_id("sgr")));
    rule.insert("Direction".into(), json!(direction));
    rule.insert("IpProtocol".into(), json!(protocol));
    rule.insert("PortRange".into(), json!(ports));
    rule.insert("SourcePortRange".into(), json!(source_ports));
    let (source_cidr, source_group, source_name, dest_cidr, dest_group, dest_name) = if direction == "ingress" {
        (cidr, group, group_name.as_str(), "", "", "")
    } else {
        ("", "", "", cidr, group, group_name.as_str())
    };
    rule.insert("SourceCidrIp".into(), json!(source_cidr));
    rule.insert("SourceGroupId".into(), json!(source_group));
    rule.insert("SourceGroupName".into(), json!(source_name));
    rule.insert("DestCidrIp".into(), json!(dest_cidr));
    rule.insert("DestGroupId".into(), json!(dest_group));
    rule.insert("DestGroupName".into(), json!(dest_name));
    rule.insert("Ipv6SourceCidrIp".into(), json!(""));
    rule.insert("Ipv6DestCidrIp".into(), json!(""));
    rule.insert("Policy".into(), json!(policy));
    rule.insert("Priority".into(), json!(priority.to_string()));
    rule.insert("NicType".into(), json!("intranet"));
    rule.insert("Description".into(), json!(rule_description));
    rule.insert("CreateTime".into(), json!(iso8601(ctx.now_ms)));
    Ok(rule)
}

/// Two rules are the same rule when they match the same traffic with the same verdict.
pub(super) fn same_rule(a: &Value, b: &Map<String, Value>) -> bool {
    [
        "Direction",
        "IpProtocol",
        "PortRange",
        "SourcePortRange",
        "SourceCidrIp",
        "SourceGroupId",
        "DestCidrIp",
        "DestGroupId",
        "Policy",
    ]
    .iter()
    .all(|field| a.get(*field) == b.get(*field))
}

pub(super) fn rules_of(sg: &Resource) -> Vec<Value> {
    sg.attrs
        .get("Permissions")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default()
}

/// Adds rules; a rule identical to an existing one is accepted and not added twice, as the real API does.
pub(super) fn authorize(ctx: &mut OpCtx<'_>, p: &Params, direction: &str) -> Result<Value, ApiError> {
    let id = p.required("SecurityGroupId")?;
    let mut sg = here(ctx, SECURITY_GROUP, id, "SecurityGroupId")?;
    let inputs = rule_inputs(p);
    if inputs.is_empty() {
        return Err(ApiError::missing_parameter("Permissions.1.IpProtocol"));
    }
    let mut rules = rules_of(&sg);
    for input in &inputs {
        let rule = parse_rule(ctx, &sg, input, direction)?;
        if !rules.iter().any(|existing| same_rule(existing, &rule)) {
            rules.push(Value::Object(rule));
        }
    }
    if rules.len() > MAX_RULES {
        return Err(ApiError::incorrect_status(
            "AuthorizationLimitExceed",
            "The limit of authorization records in the security group reaches.",
        ));
    }
    sg.set("Permissions", rules);
    ctx.reference(SECURITY_GROUP_REF, id);
    ctx.put(sg);
    Ok(json!({}))
}

/// Removes rules named by `SecurityGroupRuleId.N`, or matching the given rule fields. Revoking a rule
/// that matches nothing succeeds without a change, as on the real API.
pub(super) fn revoke(ctx: &mut OpCtx<'_>, p: &Params, direction: &str) -> Result<Value, ApiError> {
    let id = p.required("SecurityGroupId")?;
    let mut sg = here(ctx, SECURITY_GROUP, id, "SecurityGroupId")?;
    let mut rules = rules_of(&sg);
    let rule_ids = p.list("SecurityGroupRuleId")?;
    if !rule_ids.is_empty() {
        for rule_id in &rule_ids {
            let known = rules
                .iter()
                .any(|r| r["SecurityGroupRuleId"] == json!(rule_id) && r["Direction"] == json!(direction));
            if !known {
                return Err(ApiError::not_found("SecurityGroupRuleId", rule_id));
            }
        }
        rules.retain(|r| {
            !rule_ids
                .iter()
                .any(|rule_id| r["SecurityGroupRuleId"] == json!(rule_id))
        });
    } else {
        let inputs = rule_inputs(p);
        if inputs.is_empty() {
            return Err(ApiError::missing_parameter("SecurityGroupRuleId.1"));
        }
        for input in &inputs {
            let wanted = parse_rule(ctx, &sg, input, direction)?;
            rules.retain(|existing| !same_rule(existing, &wanted));
        }
    }
    sg.set("Permissions", rules);
    ctx.reference(SECURITY_GROUP_REF, id);
    ctx.put(sg);
    Ok(json!({}))
}

pub(super) fn authorize_security_group(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    authorize(ctx, p, "ingress")
}

pub(super) fn authorize_security_group_egress(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    authorize(ctx, p, "egress")
}

pub(super) fn revoke_security_group(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    revoke(ctx, p, "ingress")
}

pub(super) fn revoke_security_group_egress(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    revoke(ctx, p, "egress")
}

pub(super) fn delete_security_group(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let id = p.required("SecurityGroupId")?;
    here(ctx, SECURITY_GROUP, id, "SecurityGroupId")?;
    if instances_in_group(ctx, id) > 0 {
        return Err(ApiError::incorrect_status(
            "DependencyViolation",
            "There is still instance(s) in the specified security group.",
        ));
    }
    let referenced = ctx.list_all(SECURITY_GROUP).iter().filter(|g| g.id != id).any(|g| {
        rules_of(g)
            .iter()
            .any(|r| r["SourceGroupId"] == json!(id) || r["DestGroupId"] == json!(id))
    });
    if referenced {
        return Err(ApiError::incorrect_status(
            "DependencyViolation",
            "The specified security group has been authorized in another one.",
        ));
    }
    ctx.reference(SECURITY_GROUP_REF, id);
    ctx.delete(id);
    Ok(json!({}))
}
