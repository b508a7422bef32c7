//! Named IP whitelists of database instances (RDS, Tair): parsing entries, group and template names,
//! and applying a `Cover`/`Append`/`Delete` change the way both services do.

use axum::http::StatusCode;
use serde::{Deserialize, Serialize};

use crate::error::ApiError;
use crate::model::Resource;
use crate::params::Params;

/// The parameter names a product's modify-whitelist operation uses.
pub(crate) struct WhitelistParams {
    /// The comma-separated entries (`SecurityIps`).
    pub ips: &'static str,
    /// The group name (`DBInstanceIPArrayName`, `SecurityIpGroupName`).
    pub group: &'static str,
    /// The group attribute (`DBInstanceIPArrayAttribute`, `SecurityIpGroupAttribute`).
    pub attribute: &'static str,
}

/// A validated modify-whitelist request, to apply once the instance is known to accept it.
pub(crate) struct WhitelistChange {
    ips: Vec<String>,
    group: String,
    attribute: String,
    mode: ModifyMode,
}

impl WhitelistChange {
    /// Reads and checks the entries, the group name, `ModifyMode` and the group attribute, in that order.
    pub(crate) fn parse(p: &Params, names: &WhitelistParams) -> Result<Self, ApiError> {
        let ips = parse_security_ips(names.ips, p.required(names.ips)?)?;
        let group = whitelist_group_name(names.group, p.get(names.group))?;
        let mode = ModifyMode::from_param(p)?;
        let attribute = p.one_of(names.attribute, &["hidden"])?.unwrap_or("").to_owned();
        Ok(Self {
            ips,
            group,
            attribute,
            mode,
        })
    }

    /// Applies the change to the whitelist groups kept in the resource's attribute `key`.
    pub(crate) fn apply(&self, resource: &mut Resource, key: &str) -> Result<(), ApiError> {
        let mut groups = load_groups(resource, key)?;
        apply_whitelist_change(&mut groups, &self.group, &self.attribute, &self.ips, self.mode)?;
        store_groups(resource, key, &groups)
    }
}

/// One named IP whitelist of a database instance (`default`, or a group the user added).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct WhitelistGroup {
    pub name: String,
    /// Empty, or `hidden` for groups that services create and the console does not show.
    pub attribute: String,
    pub ips: Vec<String>,
}

/// How `ModifySecurityIps` changes a whitelist: replace it, add entries, or remove entries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ModifyMode {
    Cover,
    Append,
    Delete,
}

impl ModifyMode {
    /// `ModifyMode` (default `Cover`).
    fn from_param(p: &Params) -> Result<Self, ApiError> {
        Ok(match p.one_of("ModifyMode", &["Cover", "Append", "Delete"])? {
            None | Some("Cover") => Self::Cover,
            Some("Append") => Self::Append,
            _ => Self::Delete,
        })
    }
}

const MAX_WHITELIST_ENTRIES: usize = 1000;

/// A comma-separated whitelist: IPv4 addresses and CIDR blocks (`10.23.12.0/24`), each kept once.
pub(crate) fn parse_security_ips(param: &str, raw: &str) -> Result<Vec<String>, ApiError> {
    let mut out: Vec<String> = Vec::new();
    for entry in raw.split(',').map(str::trim).filter(|e| !e.is_empty()) {
        let valid = match entry.split_once('/') {
            None => entry.parse::<std::net::Ipv4Addr>().is_ok(),
            Some(("0.0.0.0", "0")) => true,
            Some((addr, len)) => {
                addr.parse::<std::net::Ipv4Addr>().is_ok() && len.parse::<u8>().is_ok_and(|l| (1..=32).contains(&l))
            }
        };
        if !valid {
            return Err(ApiError::invalid_parameter(
                param,
                format!("{entry:?} is neither an IPv4 address (10.23.12.24) nor a CIDR block (10.23.12.0/24)"),
            ));
        }
        if !out.iter().any(|e| e == entry) {
            out.push(entry.to_owned());
        }
    }
    if out.is_empty() {
        return Err(ApiError::missing_parameter(param));
    }
    if out.len() > MAX_WHITELIST_ENTRIES {
        return Err(ApiError::invalid_parameter(
            param,
            format!("at most {MAX_WHITELIST_ENTRIES} entries are allowed"),
        ));
    }
    Ok(out)
}

/// A whitelist group name (default `default`): 2–120 lowercase letters, digits and underscores,
/// starting with a letter.
fn whitelist_group_name(param: &str, name: Option<&str>) -> Result<String, ApiError> {
    let name = match name {
        None => return Ok("default".to_owned()),
        Some(n) if n.eq_ignore_ascii_case("default") => return Ok("default".to_owned()),
        Some(n) => n,
    };
    lowercase_name(param, name, false)
}

/// An IP whitelist template's name, as RDS, PolarDB and Tair take it: 2–120 lowercase letters,
/// digits and underscores, starting with a letter and ending with a letter or digit.
pub(crate) fn whitelist_template_name(param: &str, name: &str) -> Result<String, ApiError> {
    lowercase_name(param, name, true)
}

/// 2–120 lowercase letters, digits and underscores, starting with a letter and, where `ends_alnum`,
/// ending with a letter or digit.
fn lowercase_name(param: &str, name: &str, ends_alnum: bool) -> Result<String, ApiError> {
    let ok = (2..=120).contains(&name.len())
        && name.starts_with(|c: char| c.is_ascii_lowercase())
        && (!ends_alnum || name.ends_with(|c: char| c.is_ascii_lowercase() || c.is_ascii_digit()))
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    if ok {
        return Ok(name.to_owned());
    }
    let ending = if ends_alnum {
        ", start with a letter and end with a letter or digit"
    } else {
        " and start with a letter"
    };
    Err(ApiError::invalid_parameter(
        param,
        format!("the name must be 2 to 120 lowercase letters, digits or underscores{ending}"),
    ))
}

/// Applies one `ModifySecurityIps` call to an instance's whitelist groups.
///
/// `Cover` replaces the group's entries (creating the group), `Append` adds the new entries,
/// `Delete` removes them. A group left empty is removed, except `default`, which falls back to
/// `127.0.0.1` (no access), the value new instances start with. Hidden groups belong to services and
/// cannot be changed.
fn apply_whitelist_change(
    groups: &mut Vec<WhitelistGroup>,
    name: &str,
    attribute: &str,
    ips: &[String],
    mode: ModifyMode,
) -> Result<(), ApiError> {
    let position = groups.iter().position(|g| g.name == name);
    if let Some(i) = position
        && groups[i].attribute == "hidden"
    {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "OperationDenied",
            format!("The whitelist group {name:?} is managed by a service and cannot be modified."),
        ));
    }
    let mut current = position.map(|i| groups[i].ips.clone()).unwrap_or_default();
    match mode {
        ModifyMode::Cover => current = ips.to_vec(),
        ModifyMode::Append => {
            for ip in ips {
                if !current.contains(ip) {
                    current.push(ip.clone());
                }
            }
        }
        ModifyMode::Delete => {
            if position.is_none() {
                return Err(ApiError::invalid_parameter(
                    "SecurityIps",
                    format!("the whitelist group {name:?} does not exist"),
                ));
            }
            current.retain(|ip| !ips.contains(ip));
        }
    }
    if current.len() > MAX_WHITELIST_ENTRIES {
        return Err(ApiError::invalid_parameter(
            "SecurityIps",
            format!("at most {MAX_WHITELIST_ENTRIES} entries are allowed"),
        ));
    }
    if current.is_empty() && name == "default" {
        current.push("127.0.0.1".to_owned());
    }
    match (position, current.is_empty()) {
        (Some(i), true) => {
            groups.remove(i);
        }
        (Some(i), false) => groups[i].ips = current,
        (None, _) => groups.push(WhitelistGroup {
            name: name.to_owned(),
            attribute: attribute.to_owned(),
            ips: current,
        }),
    }
    Ok(())
}

pub(crate) fn load_groups(resource: &Resource, key: &str) -> Result<Vec<WhitelistGroup>, ApiError> {
    match resource.attrs.get(key) {
        None => Ok(Vec::new()),
        Some(v) => serde_json::from_value(v.clone()).map_err(|e| ApiError::internal(format!("corrupt whitelist: {e}"))),
    }
}

pub(crate) fn store_groups(resource: &mut Resource, key: &str, groups: &[WhitelistGroup]) -> Result<(), ApiError> {
    let value = serde_json::to_value(groups).map_err(|e| ApiError::internal(e.to_string()))?;
    resource.set(key, value);
    Ok(())
}
