//! Regions and zones the emulator serves, with their real ids and console names.

use crate::error::ApiError;

pub struct Region {
    pub id: &'static str,
    /// The name the console's region selector shows.
    pub local_name: &'static str,
    pub zones: &'static [&'static str],
}

pub const REGIONS: &[Region] = &[
    Region {
        id: "cn-hangzhou",
        local_name: "China (Hangzhou)",
        zones: &["cn-hangzhou-h", "cn-hangzhou-i", "cn-hangzhou-j", "cn-hangzhou-k"],
    },
    Region {
        id: "cn-shanghai",
        local_name: "China (Shanghai)",
        zones: &["cn-shanghai-e", "cn-shanghai-f", "cn-shanghai-g"],
    },
    Region {
        id: "cn-beijing",
        local_name: "China (Beijing)",
        zones: &["cn-beijing-g", "cn-beijing-h", "cn-beijing-i"],
    },
    Region {
        id: "cn-shenzhen",
        local_name: "China (Shenzhen)",
        zones: &["cn-shenzhen-d", "cn-shenzhen-e", "cn-shenzhen-f"],
    },
    Region {
        id: "cn-hongkong",
        local_name: "China (Hong Kong)",
        zones: &["cn-hongkong-b", "cn-hongkong-c", "cn-hongkong-d"],
    },
    Region {
        id: "ap-southeast-1",
        local_name: "Singapore",
        zones: &["ap-southeast-1a", "ap-southeast-1b", "ap-southeast-1c"],
    },
    Region {
        id: "us-west-1",
        local_name: "US (Silicon Valley)",
        zones: &["us-west-1a", "us-west-1b"],
    },
    Region {
        id: "eu-central-1",
        local_name: "Germany (Frankfurt)",
        zones: &["eu-central-1a", "eu-central-1b"],
    },
];

pub fn region(id: &str) -> Result<&'static Region, ApiError> {
    REGIONS.iter().find(|r| r.id == id).ok_or_else(|| {
        ApiError::new(
            axum::http::StatusCode::BAD_REQUEST,
            "InvalidRegionId.NotFound",
            format!("The specified RegionId \"{id}\" does not exist."),
        )
    })
}

/// Checks that `zone` belongs to `region`, with the real error code when it does not.
pub fn check_zone(region_id: &str, zone: &str) -> Result<(), ApiError> {
    if region(region_id)?.zones.contains(&zone) {
        Ok(())
    } else {
        Err(ApiError::new(
            axum::http::StatusCode::BAD_REQUEST,
            "InvalidZoneId.NotFound",
            format!("The specified zone \"{zone}\" does not exist in region {region_id}."),
        ))
    }
}

/// An IPv4 CIDR block `a.b.c.d/n`: returns (network address as u32, prefix length).
pub fn parse_cidr(param: &str, value: &str) -> Result<(u32, u8), ApiError> {
    let bad = || {
        ApiError::invalid_parameter(
            param,
            format!("{value:?} is not an IPv4 CIDR block such as 192.168.0.0/16"),
        )
    };
    let (addr, len) = value.split_once('/').ok_or_else(bad)?;
    let ip: std::net::Ipv4Addr = addr.parse().map_err(|_| bad())?;
    let len: u8 = len.parse().map_err(|_| bad())?;
    if len > 32 {
        return Err(bad());
    }
    Ok((u32::from(ip), len))
}

/// True when `inner` lies inside `outer`.
pub fn cidr_contains(outer: (u32, u8), inner: (u32, u8)) -> bool {
    if inner.1 < outer.1 {
        return false;
    }
    let mask = if outer.1 == 0 { 0 } else { u32::MAX << (32 - outer.1) };
    inner.0 & mask == outer.0 & mask
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cidr_checks() {
        let vpc = parse_cidr("CidrBlock", "192.168.0.0/16").unwrap();
        assert!(cidr_contains(vpc, parse_cidr("CidrBlock", "192.168.1.0/24").unwrap()));
        assert!(!cidr_contains(vpc, parse_cidr("CidrBlock", "10.0.0.0/24").unwrap()));
        assert!(parse_cidr("CidrBlock", "192.168.0.0/33").is_err());
        assert!(check_zone("cn-hangzhou", "cn-hangzhou-h").is_ok());
        assert_eq!(
            check_zone("cn-hangzhou", "cn-beijing-g").unwrap_err().code,
            "InvalidZoneId.NotFound"
        );
    }
}
