//! Whether a RAM user may call an operation: the policies attached to the user and to its groups,
//! evaluated as RAM evaluates them — an explicit Deny wins, otherwise any Allow, otherwise denied.
//!
//! Statements are matched on `Action` (`ecs:RunInstances`, with `*` wildcards, case-insensitive);
//! `Resource` and `Condition` are not evaluated, so a statement applies to every resource.

use serde_json::Value;

use super::{ATTACHMENT, MEMBERSHIP, POLICY, SYSTEM_POLICIES};
use crate::catalog::Product;
use crate::error::ApiError;
use crate::state::AccountState;

/// The namespace RAM policies use for a product's actions (`ecs`, `vpc`, `log`, `alidns`, …).
pub fn action_namespace(product: &Product) -> &'static str {
    match product.code {
        "sls" => "log",
        "dns" => "alidns",
        code => code,
    }
}

/// `Ok` when `user` may call `action` (`ecs:RunInstances`); otherwise RAM's `Forbidden.RAM`.
pub fn authorize(state: &AccountState, user: &str, action: &str) -> Result<(), ApiError> {
    let groups: Vec<&str> = state
        .stored_of(MEMBERSHIP)
        .filter(|r| r.attr_str("UserName") == user)
        .map(|r| r.attr_str("GroupName"))
        .collect();
    let attached = state.stored_of(ATTACHMENT).filter(|a| {
        let name = a.attr_str("PrincipalName");
        match a.attr_str("PrincipalType") {
            "User" => name == user,
            "Group" => groups.contains(&name),
            _ => false,
        }
    });
    let mut allowed = false;
    for attachment in attached {
        let name = attachment.attr_str("PolicyName");
        let statements = match attachment.attr_str("PolicyType") {
            "System" => SYSTEM_POLICIES
                .iter()
                .find(|p| p.name == name)
                .map(|p| vec![(true, p.actions.iter().map(|a| (*a).to_owned()).collect())])
                .unwrap_or_default(),
            _ => state
                .stored_of(POLICY)
                .find(|p| p.name == name)
                .map(|p| custom_statements(p.attr_str("PolicyDocument")))
                .unwrap_or_default(),
        };
        for (allow, actions) in statements {
            if actions.iter().any(|pattern| matches(pattern, action)) {
                if !allow {
                    return Err(denied(action, "an explicit Deny"));
                }
                allowed = true;
            }
        }
    }
    if allowed {
        Ok(())
    } else {
        Err(denied(action, "no policy that allows it"))
    }
}

fn denied(action: &str, why: &str) -> ApiError {
    ApiError::forbidden(format!(
        "User not authorized to operate on the specified resource, or this API doesn't support RAM. \
         ({action} is refused by {why}.)"
    ))
}

/// (is Allow, action patterns) of each statement of a stored policy document.
fn custom_statements(document: &str) -> Vec<(bool, Vec<String>)> {
    let Ok(doc) = serde_json::from_str::<Value>(document) else {
        return Vec::new();
    };
    let statements = match doc.get("Statement") {
        Some(Value::Array(list)) => list.clone(),
        Some(single @ Value::Object(_)) => vec![single.clone()],
        _ => Vec::new(),
    };
    statements
        .iter()
        .map(|s| {
            let allow = s
                .get("Effect")
                .and_then(Value::as_str)
                .is_some_and(|e| e.eq_ignore_ascii_case("Allow"));
            let actions = match s.get("Action") {
                Some(Value::String(a)) => vec![a.clone()],
                Some(Value::Array(list)) => list.iter().filter_map(Value::as_str).map(str::to_owned).collect(),
                _ => Vec::new(),
            };
            (allow, actions)
        })
        .collect()
}

/// Case-insensitive glob match where `*` stands for any run of characters.
fn matches(pattern: &str, action: &str) -> bool {
    let (pattern, action) = (pattern.to_ascii_lowercase(), action.to_ascii_lowercase());
    let parts: Vec<&str> = pattern.split('*').collect();
    if parts.len() == 1 {
        return pattern == action;
    }
    let mut rest = action.as_str();
    for (i, part) in parts.iter().enumerate() {
        if i == 0 {
            let Some(after) = rest.strip_prefix(part) else {
                return false;
            };
            rest = after;
        } else if i == parts.len() - 1 {
            return rest.ends_with(part);
        } else {
            let Some(at) = rest.find(part) else { return false };
            rest = &rest[at + part.len()..];
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::matches;

    #[test]
    fn action_patterns_match_like_ram() {
        assert!(matches("*", "ecs:RunInstances"));
        assert!(matches("ecs:*", "ecs:RunInstances"));
        assert!(matches("ecs:Describe*", "ecs:DescribeInstances"));
        assert!(matches("ECS:describe*", "ecs:DescribeInstances"));
        assert!(matches("ecs:*Instances", "ecs:RunInstances"));
        assert!(!matches("ecs:Describe*", "ecs:RunInstances"));
        assert!(!matches("vpc:*", "ecs:RunInstances"));
        assert!(matches("ecs:RunInstances", "ecs:runinstances"));
        assert!(!matches("ecs:Run", "ecs:RunInstances"));
    }
}
