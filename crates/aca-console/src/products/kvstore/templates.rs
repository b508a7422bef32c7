//! IP whitelist templates (global security IP groups): named address lists of a region that
//! instances of that region are associated with, so that one change reaches all of them
//! (configure-a-whitelist-template, the `*GlobalSecurityIPGroup*` operations).

use super::*;
use crate::products::whitelist::{parse_security_ips, whitelist_template_name};

pub(super) const TEMPLATE: &str = "kvstore.globalsecurityipgroup";
/// The instance attribute listing the templates it is associated with.
const ASSOCIATED: &str = "GlobalSecurityGroupIds";

fn template_not_found(id: &str) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "InvalidGlobalSecurityGroupId.NotFound",
        format!("The specified IP whitelist template {id} does not exist."),
    )
}

fn find_template(ctx: &OpCtx<'_>, id: &str) -> Result<Resource, ApiError> {
    ctx.get(id)
        .filter(|t| t.kind == TEMPLATE && t.region == ctx.region)
        .ok_or_else(|| template_not_found(id))
}

/// The ids an instance is associated with, in the order they were associated.
fn associated(instance: &Resource) -> Vec<String> {
    instance
        .attrs
        .get(ASSOCIATED)
        .and_then(Value::as_array)
        .map(|ids| ids.iter().filter_map(Value::as_str).map(str::to_owned).collect())
        .unwrap_or_default()
}

fn template_json(template: &Resource) -> Value {
    json!({
        "GlobalSecurityGroupId": template.id,
        "GlobalIgName": template.name,
        "GIpList": template.attr_str("GIpList"),
        "RegionId": template.region,
    })
}

fn check_unique_name(ctx: &OpCtx<'_>, name: &str, except: Option<&str>) -> Result<(), ApiError> {
    let taken = ctx
        .list(TEMPLATE)
        .iter()
        .any(|t| t.name == name && Some(t.id.as_str()) != except);
    if taken {
        return Err(ApiError::already_exists(
            "InvalidGlobalIgName.Duplicate",
            format!("An IP whitelist template named {name:?} already exists in this region."),
        ));
    }
    Ok(())
}

pub(super) fn create_template(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    region(&ctx.region)?;
    let name = whitelist_template_name("GlobalIgName", p.required("GlobalIgName")?)?;
    let ips = parse_security_ips("GIpList", p.required("GIpList")?)?;
    check_unique_name(ctx, &name, None)?;
    let id = format!("g-{}", ctx.new_id("").trim_start_matches("bp1"));
    let template = Resource::new(TEMPLATE, id, &ctx.region.clone(), &name, "Available", ctx.now_ms)
        .with("GIpList", ips.join(","))
        .with("ResourceGroupId", p.get("ResourceGroupId").unwrap_or("rg-default"));
    let response = json!({ "GlobalSecurityIPGroup": [template_json(&template)] });
    ctx.put(template);
    Ok(response)
}

pub(super) fn describe_templates(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    region(&ctx.region)?;
    let only = p.get("GlobalSecurityGroupId");
    let instances = ctx.list(INSTANCE);
    let items: Vec<Value> = ctx
        .list(TEMPLATE)
        .iter()
        .filter(|t| only.is_none_or(|id| t.id == id))
        .map(|t| {
            let mut item = template_json(t);
            let members: Vec<&str> = instances
                .iter()
                .filter(|i| associated(i).contains(&t.id))
                .map(|i| i.id.as_str())
                .collect();
            item["DBInstances"] = json!(members);
            item
        })
        .collect();
    Ok(json!({ "GlobalSecurityIPGroup": items }))
}

/// Changes a template's name and addresses (both replace what it had); associated instances take
/// the new addresses with it.
pub(super) fn modify_template(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let mut template = find_template(ctx, p.required("GlobalSecurityGroupId")?)?;
    let name = whitelist_template_name("GlobalIgName", p.required("GlobalIgName")?)?;
    let ips = parse_security_ips("GIpList", p.required("GIpList")?)?;
    check_unique_name(ctx, &name, Some(&template.id))?;
    template.name = name;
    template.set("GIpList", ips.join(","));
    ctx.put(template);
    Ok(json!({}))
}

/// Deletes a template no instance is associated with any more.
pub(super) fn delete_template(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let template = find_template(ctx, p.required("GlobalSecurityGroupId")?)?;
    if let Some(name) = p.get("GlobalIgName")
        && name != template.name
    {
        return Err(ApiError::invalid_parameter(
            "GlobalIgName",
            format!("the template {} is named {:?}", template.id, template.name),
        ));
    }
    if ctx.list(INSTANCE).iter().any(|i| associated(i).contains(&template.id)) {
        return Err(ApiError::incorrect_status(
            "OperationDenied.GlobalSecurityIPGroupInUse",
            "The IP whitelist template is associated with instances. Disassociate them first.",
        ));
    }
    ctx.delete(&template.id);
    Ok(json!({}))
}

pub(super) fn describe_relation(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let instance = ctx.find(INSTANCE, p.required("DBClusterId")?, "InstanceId")?;
    let rels: Vec<Value> = associated(&instance)
        .iter()
        .filter_map(|id| ctx.get(id))
        .map(|t| template_json(&t))
        .collect();
    ctx.reference(INSTANCE_TYPE, &instance.id);
    Ok(json!({ "DBClusterId": instance.id, "GlobalSecurityIPGroupRel": rels }))
}

/// Sets the templates an instance is associated with: `GlobalSecurityGroupId` lists all of them,
/// comma-separated, and replaces what the instance had.
pub(super) fn modify_relation(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let mut instance = ctx.find(INSTANCE, p.required("DBClusterId")?, "InstanceId")?;
    let mut ids: Vec<String> = Vec::new();
    for id in p.required("GlobalSecurityGroupId")?.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let template = find_template(ctx, id)?;
        if template.region != instance.region {
            return Err(template_not_found(id));
        }
        if !ids.contains(&template.id) {
            ids.push(template.id);
        }
    }
    require_normal(&instance)?;
    instance.set(ASSOCIATED, json!(ids));
    ctx.reference(INSTANCE_TYPE, &instance.id);
    let id = instance.id.clone();
    ctx.put(instance);
    Ok(json!({ "DBClusterId": id }))
}

#[cfg(test)]
mod tests {
    use super::super::PRODUCT;
    use crate::products::testkit::TestConsole;

    fn instance(h: &TestConsole) -> String {
        let (vpc_id, vsw_id) = h.network();
        let body = h.ok(
            &PRODUCT,
            "CreateInstance",
            &[
                ("InstanceClass", "redis.master.small.default"),
                ("VpcId", &vpc_id),
                ("VSwitchId", &vsw_id),
            ],
        );
        body["InstanceId"].as_str().unwrap().to_owned()
    }

    #[test]
    fn templates_are_created_associated_modified_and_deleted() {
        let h = TestConsole::new();
        let id = instance(&h);
        let created = h.ok(
            &PRODUCT,
            "CreateGlobalSecurityIPGroup",
            &[("GlobalIgName", "app_servers"), ("GIpList", "10.0.0.0/24,10.0.1.5")],
        );
        let template = created["GlobalSecurityIPGroup"][0]["GlobalSecurityGroupId"]
            .as_str()
            .unwrap()
            .to_owned();
        assert!(template.starts_with("g-"), "{template}");
        let dup = h.err(
            &PRODUCT,
            "CreateGlobalSecurityIPGroup",
            &[("GlobalIgName", "app_servers"), ("GIpList", "10.0.0.1")],
        );
        assert_eq!(dup.code, "InvalidGlobalIgName.Duplicate");
        for (name, ips, param) in [("App", "10.0.0.1", "GlobalIgName"), ("ok_name", "10.0.0.0/33", "GIpList")] {
            let e = h.err(
                &PRODUCT,
                "CreateGlobalSecurityIPGroup",
                &[("GlobalIgName", name), ("GIpList", ips)],
            );
            assert!(e.message.contains(&format!("\"{param}\"")), "{e}");
        }

        h.ok(
            &PRODUCT,
            "ModifyGlobalSecurityIPGroupRelation",
            &[("DBClusterId", &id), ("GlobalSecurityGroupId", &template)],
        );
        let event = h.last_event("ModifyGlobalSecurityIPGroupRelation");
        assert_eq!(event.referenced_resources["ACS::KVSTORE::Instance"], [id.as_str()]);
        let rel = h.ok(&PRODUCT, "DescribeGlobalSecurityIPGroupRelation", &[("DBClusterId", &id)]);
        assert_eq!(rel["GlobalSecurityIPGroupRel"][0]["GlobalIgName"], "app_servers");
        let listed = h.ok(&PRODUCT, "DescribeGlobalSecurityIPGroup", &[]);
        assert_eq!(listed["GlobalSecurityIPGroup"][0]["DBInstances"][0], id.as_str());

        let in_use = h.err(
            &PRODUCT,
            "DeleteGlobalSecurityIPGroup",
            &[("GlobalSecurityGroupId", &template), ("GlobalIgName", "app_servers")],
        );
        assert_eq!(in_use.code, "OperationDenied.GlobalSecurityIPGroupInUse");
        h.ok(
            &PRODUCT,
            "ModifyGlobalSecurityIPGroup",
            &[
                ("GlobalSecurityGroupId", &template),
                ("GlobalIgName", "web_servers"),
                ("GIpList", "10.0.2.0/24"),
            ],
        );
        let rel = h.ok(&PRODUCT, "DescribeGlobalSecurityIPGroupRelation", &[("DBClusterId", &id)]);
        assert_eq!(rel["GlobalSecurityIPGroupRel"][0]["GIpList"], "10.0.2.0/24");

        let other = h.ok(
            &PRODUCT,
            "CreateGlobalSecurityIPGroup",
            &[("GlobalIgName", "office"), ("GIpList", "192.168.0.1")],
        );
        let other = other["GlobalSecurityIPGroup"][0]["GlobalSecurityGroupId"]
            .as_str()
            .unwrap()
            .to_owned();
        // The list replaces what the instance had.
        h.ok(
            &PRODUCT,
            "ModifyGlobalSecurityIPGroupRelation",
            &[("DBClusterId", &id), ("GlobalSecurityGroupId", &other)],
        );
        h.ok(
            &PRODUCT,
            "DeleteGlobalSecurityIPGroup",
            &[("GlobalSecurityGroupId", &template)],
        );
        let missing = h.err(
            &PRODUCT,
            "ModifyGlobalSecurityIPGroupRelation",
            &[("DBClusterId", &id), ("GlobalSecurityGroupId", &template)],
        );
        assert_eq!(missing.code, "InvalidGlobalSecurityGroupId.NotFound");
        let listed = h.ok(&PRODUCT, "DescribeGlobalSecurityIPGroup", &[]);
        assert_eq!(listed["GlobalSecurityIPGroup"].as_array().unwrap().len(), 1);
        let isolated = h.account("other");
        let theirs = h
            .call_as(&isolated, &PRODUCT, "DescribeGlobalSecurityIPGroup", &[])
            .unwrap();
        assert_eq!(theirs["GlobalSecurityIPGroup"].as_array().unwrap().len(), 0);
    }
}
