//! What the instances one buys in a VPC share (RDS, Tair, CLB): vSwitch placement, order ids and
//! subscription end dates.

use rand::Rng;

use crate::catalog::OpCtx;
use crate::clock::Millis;
use crate::error::ApiError;
use crate::products::regions::{check_zone, parse_cidr, region};
use crate::products::vpc::{VPC, VSWITCH};

/// `ms` moved `months` calendar months on (the day clamped to the target month's length).
pub(crate) fn add_months(ms: Millis, months: i64) -> Millis {
    let Ok(t) = time::OffsetDateTime::from_unix_timestamp(ms.div_euclid(1000)) else {
        return ms;
    };
    let total = i64::from(t.year()) * 12 + i64::from(u8::from(t.month())) - 1 + months;
    let (year, month0) = (total.div_euclid(12), total.rem_euclid(12));
    let Ok(month) = time::Month::try_from(month0 as u8 + 1) else {
        return ms;
    };
    let Ok(year) = i32::try_from(year) else { return ms };
    let day = t.day().min(month.length(year));
    match time::Date::from_calendar_date(year, month, day) {
        Ok(date) => t.replace_date(date).unix_timestamp() * 1000 + ms.rem_euclid(1000),
        Err(_) => ms,
    }
}

/// A 15-digit order (or task) id, as buy operations return.
pub(crate) fn order_id() -> String {
    let mut rng = rand::rng();
    format!("2{:014}", rng.random_range(0..100_000_000_000_000u64))
}

/// Where a VPC-connected instance lives: its VPC, vSwitch, zone and the vSwitch's CIDR block.
#[derive(Debug, Clone)]
pub(crate) struct Placement {
    pub vpc_id: String,
    pub vswitch_id: String,
    pub zone_id: String,
    pub cidr: String,
}

impl Placement {
    /// A private address inside the vSwitch (skipping the network's first addresses and its broadcast).
    pub(crate) fn random_host(&self) -> Result<String, ApiError> {
        let (address, len) = parse_cidr("VSwitchId", &self.cidr)?;
        let host_bits = 32 - u32::from(len);
        let size = 1u64 << host_bits;
        let network = u64::from(address) >> host_bits << host_bits;
        // vSwitches are /29 or larger; the smallest blocks just take their first host.
        let offset = if size > 8 {
            rand::rng().random_range(3..size - 1)
        } else {
            1.min(size - 1)
        };
        let host = network + offset;
        Ok(std::net::Ipv4Addr::from(host as u32).to_string())
    }
}

/// Checks a `(parameter, id)` pair of VPC and vSwitch (and optionally a zone) the way the database and
/// load-balancer APIs do: both must exist in the request's region, the vSwitch must belong to the VPC,
/// and a given zone must be the vSwitch's.
pub(crate) fn place_in_vswitch(
    ctx: &OpCtx<'_>,
    vpc: (&str, &str),
    vswitch: (&str, &str),
    zone: Option<(&str, &str)>,
) -> Result<Placement, ApiError> {
    let vpc_resource = ctx.find(VPC, vpc.1, vpc.0)?;
    let vsw = ctx.find(VSWITCH, vswitch.1, vswitch.0)?;
    if vpc_resource.region != ctx.region {
        return Err(ApiError::not_found(vpc.0, vpc.1));
    }
    if vsw.region != ctx.region {
        return Err(ApiError::not_found(vswitch.0, vswitch.1));
    }
    if vsw.parent.as_deref() != Some(vpc.1) {
        return Err(ApiError::invalid_parameter(
            vswitch.0,
            format!("vSwitch {} does not belong to VPC {}", vswitch.1, vpc.1),
        ));
    }
    let vsw_zone = vsw.attr_str("ZoneId").to_owned();
    if let Some((param, zone)) = zone
        && zone != vsw_zone
    {
        return Err(ApiError::invalid_parameter(
            param,
            format!("{zone} is not the zone of vSwitch {} ({vsw_zone})", vswitch.1),
        ));
    }
    Ok(Placement {
        vpc_id: vpc.1.to_owned(),
        vswitch_id: vswitch.1.to_owned(),
        zone_id: vsw_zone,
        cidr: vsw.attr_str("CidrBlock").to_owned(),
    })
}

/// The primary zone of a new instance: its vSwitch's zone when it is placed in one, else the zone the
/// request names (checked against the region), else the region's first zone.
pub(crate) fn primary_zone(
    ctx: &OpCtx<'_>,
    placement: Option<&Placement>,
    given: Option<&str>,
) -> Result<String, ApiError> {
    match (placement, given) {
        (Some(placed), _) => Ok(placed.zone_id.clone()),
        (None, Some(zone)) => {
            check_zone(&ctx.region, zone)?;
            Ok(zone.to_owned())
        }
        (None, None) => Ok(region(&ctx.region)?.zones[0].to_owned()),
    }
}
