//! The catalogs a buy page reads: regions, zones, instance types, public images and disk categories.

use super::*;

/// One instance type as `DescribeInstanceTypes` reports it.
#[derive(Debug)]
pub struct InstanceTypeSpec {
    pub id: &'static str,
    pub family: &'static str,
    pub cpu: i64,
    pub memory_gib: f64,
    /// `EnterpriseLevel`, `EntryLevel`, or `CreditEntryLevel` for burstable types.
    pub level: &'static str,
    pub eni_quantity: i64,
    /// Baseline bandwidth, Kbit/s.
    pub bandwidth_kbps: i64,
    /// Packet forwarding rate, packets/s.
    pub pps: i64,
}

#[allow(clippy::too_many_arguments)]
pub(super) const fn instance_type(
    id: &'static str,
    family: &'static str,
    cpu: i64,
    memory_gib: f64,
    level: &'static str,
    eni_quantity: i64,
    bandwidth_kbps: i64,
    pps: i64,
) -> InstanceTypeSpec {
    InstanceTypeSpec {
        id,
        family,
        cpu,
        memory_gib,
        level,
        eni_quantity,
        bandwidth_kbps,
        pps,
    }
}

pub const INSTANCE_TYPES: &[InstanceTypeSpec] = &[
    instance_type(
        "ecs.g7.large",
        "ecs.g7",
        2,
        8.0,
        "EnterpriseLevel",
        3,
        2_000_000,
        900_000,
    ),
    instance_type(
        "ecs.g7.xlarge",
        "ecs.g7",
        4,
        16.0,
        "EnterpriseLevel",
        4,
        3_000_000,
        1_000_000,
    ),
    instance_type(
        "ecs.g7.2xlarge",
        "ecs.g7",
        8,
        32.0,
        "EnterpriseLevel",
        4,
        5_000_000,
        1_600_000,
    ),
    instance_type(
        "ecs.c7.large",
        "ecs.c7",
        2,
        4.0,
        "EnterpriseLevel",
        3,
        2_000_000,
        900_000,
    ),
    instance_type(
        "ecs.c7.xlarge",
        "ecs.c7",
        4,
        8.0,
        "EnterpriseLevel",
        4,
        3_000_000,
        1_000_000,
    ),
    instance_type(
        "ecs.r7.large",
        "ecs.r7",
        2,
        16.0,
        "EnterpriseLevel",
        3,
        2_000_000,
        900_000,
    ),
    instance_type(
        "ecs.g6.large",
        "ecs.g6",
        2,
        8.0,
        "EnterpriseLevel",
        2,
        1_000_000,
        300_000,
    ),
    instance_type(
        "ecs.u1-c1m2.large",
        "ecs.u1",
        2,
        4.0,
        "EnterpriseLevel",
        2,
        1_000_000,
        300_000,
    ),
    instance_type("ecs.e-c1m2.large", "ecs.e", 2, 4.0, "EntryLevel", 2, 500_000, 100_000),
    instance_type(
        "ecs.t6-c1m1.large",
        "ecs.t6",
        2,
        2.0,
        "CreditEntryLevel",
        2,
        100_000,
        60_000,
    ),
    instance_type(
        "ecs.t6-c1m2.large",
        "ecs.t6",
        2,
        4.0,
        "CreditEntryLevel",
        2,
        100_000,
        60_000,
    ),
    instance_type(
        "ecs.t6-c2m1.large",
        "ecs.t6",
        2,
        1.0,
        "CreditEntryLevel",
        1,
        100_000,
        60_000,
    ),
];

pub fn find_instance_type(id: &str) -> Option<&'static InstanceTypeSpec> {
    INSTANCE_TYPES.iter().find(|t| t.id == id)
}

/// One public (system) image.
#[derive(Debug)]
pub struct PublicImage {
    pub id: &'static str,
    /// The Chinese-locale OS name, as the API returns it in `OSName`.
    pub os_name: &'static str,
    pub os_name_en: &'static str,
    pub platform: &'static str,
    /// `linux` or `windows`.
    pub os_type: &'static str,
    pub family: &'static str,
    /// The smallest system disk the image fits on, GiB.
    pub size_gib: i64,
    pub created: &'static str,
}

pub const PUBLIC_IMAGES: &[PublicImage] = &[
    PublicImage {
        id: "aliyun_3_x64_20G_alibase_20240528.vhd",
        os_name: "Alibaba Cloud Linux  3.2104 LTS 64位",
        os_name_en: "Alibaba Cloud Linux  3.2104 LTS 64 bit",
        platform: "Aliyun",
        os_type: "linux",
        family: "acs:alibaba_cloud_linux_3_2104_lts_x64",
        size_gib: 20,
        created: "2024-05-28T08:11:37Z",
    },
    PublicImage {
        id: "ubuntu_22_04_x64_20G_alibase_20240508.vhd",
        os_name: "Ubuntu  22.04 64位",
        os_name_en: "Ubuntu  22.04 64 bit",
        platform: "Ubuntu",
        os_type: "linux",
        family: "acs:ubuntu_22_04_x64",
        size_gib: 20,
        created: "2024-05-08T10:02:15Z",
    },
    PublicImage {
        id: "centos_7_9_x64_20G_alibase_20240403.vhd",
        os_name: "CentOS  7.9 64位",
        os_name_en: "CentOS  7.9 64 bit",
        platform: "CentOS",
        os_type: "linux",
        family: "acs:centos_7_9_x64",
        size_gib: 20,
        created: "2024-04-03T06:45:20Z",
    },
    PublicImage {
        id: "debian_12_5_x64_20G_alibase_20240424.vhd",
        os_name: "Debian  12.5 64位",
        os_name_en: "Debian  12.5 64 bit",
        platform: "Debian",
        os_type: "linux",
        family: "acs:debian_12_x64",
        size_gib: 20,
        created: "2024-04-24T03:30:52Z",
    },
    PublicImage {
        id: "win2022_21H2_x64_dtc_en-us_40G_alibase_20240515.vhd",
        os_name: "Windows Server  2022 数据中心版 64位英文版",
        os_name_en: "Windows Server  2022 Data Center Edition 64bit English Edition",
        platform: "Windows Server 2022",
        os_type: "windows",
        family: "acs:windows_server_2022_datacenter_en",
        size_gib: 40,
        created: "2024-05-15T09:18:44Z",
    },
];

pub fn find_image(id: &str) -> Option<&'static PublicImage> {
    PUBLIC_IMAGES.iter().find(|i| i.id == id)
}

/// Disk categories with their size limits (GiB) for data disks.
pub(super) const DISK_CATEGORIES: &[(&str, i64, i64)] = &[
    ("cloud", 5, 2000),
    ("cloud_efficiency", 20, 32768),
    ("cloud_ssd", 20, 32768),
    ("cloud_essd", 20, 65536),
    ("cloud_auto", 1, 65536),
    ("cloud_essd_entry", 10, 32768),
];
/// The largest system disk, GiB.
pub(super) const MAX_SYSTEM_DISK_GIB: i64 = 2048;

pub(super) fn category_limits(category: &str) -> Option<(i64, i64)> {
    DISK_CATEGORIES
        .iter()
        .find(|(c, _, _)| *c == category)
        .map(|(_, min, max)| (*min, *max))
}

// ---------------------------------------------------------------------------------------------------
// Catalogs: regions, zones, instance types, images

pub(super) fn describe_regions(_ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    p.one_of("AcceptLanguage", &["zh-CN", "en-US", "ja"])?;
    let regions: Vec<Value> = REGIONS
        .iter()
        .map(|r| {
            json!({
                "RegionId": r.id,
                "LocalName": r.local_name,
                "RegionEndpoint": format!("ecs.{}.aliyuncs.com", r.id),
                "Status": "available",
            })
        })
        .collect();
    Ok(json!({ "Regions": { "Region": regions } }))
}

/// `Hangzhou Zone H`: the city in the region's name, and the zone's letter.
pub(super) fn zone_local_name(region_local_name: &str, zone_id: &str) -> String {
    let city = region_local_name
        .split_once('(')
        .and_then(|(_, rest)| rest.split_once(')'))
        .map_or(region_local_name, |(inside, _)| inside);
    let letter = zone_id.chars().last().map(|c| c.to_ascii_uppercase()).unwrap_or('A');
    format!("{city} Zone {letter}")
}

pub(super) fn describe_zones(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let region = region(&ctx.region)?;
    let verbose = p.bool("Verbose")?.unwrap_or(true);
    let types: Vec<&str> = INSTANCE_TYPES.iter().map(|t| t.id).collect();
    let disk_categories: Vec<&str> = DISK_CATEGORIES.iter().map(|(c, _, _)| *c).collect();
    let zones: Vec<Value> = region
        .zones
        .iter()
        .map(|zone| {
            let mut entry = json!({
                "ZoneId": zone,
                "LocalName": zone_local_name(region.local_name, zone),
                "ZoneType": "AvailabilityZone",
                "AvailableResourceCreation": {
                    "ResourceTypes": ["VSwitch", "IoOptimized", "Instance", "Disk", "DedicatedHost"],
                },
                "AvailableDiskCategories": { "DiskCategories": disk_categories },
                "AvailableVolumeCategories": { "VolumeCategories": ["cloud_efficiency", "cloud_ssd", "cloud_essd"] },
            });
            if verbose {
                entry["AvailableInstanceTypes"] = json!({ "InstanceTypes": types });
            }
            entry
        })
        .collect();
    Ok(json!({ "Zones": { "Zone": zones } }))
}

pub(super) fn describe_instance_types(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    region(&ctx.region)?;
    let wanted = p.list("InstanceTypes")?;
    let family = p.get("InstanceTypeFamily");
    let min_cpu = p.int("MinimumCpuCoreCount")?;
    let max_cpu = p.int("MaximumCpuCoreCount")?;
    let types: Vec<Value> = INSTANCE_TYPES
        .iter()
        .filter(|t| wanted.is_empty() || wanted.iter().any(|w| w == t.id))
        .filter(|t| family.is_none_or(|f| t.family == f))
        .filter(|t| min_cpu.is_none_or(|m| t.cpu >= m) && max_cpu.is_none_or(|m| t.cpu <= m))
        .map(|t| {
            json!({
                "InstanceTypeId": t.id,
                "InstanceTypeFamily": t.family,
                "CpuCoreCount": t.cpu,
                "MemorySize": t.memory_gib,
                "InstanceFamilyLevel": t.level,
                "GPUAmount": 0,
                "GPUSpec": "",
                "EniQuantity": t.eni_quantity,
                "EniPrivateIpAddressQuantity": if t.eni_quantity > 2 { 10 } else { 6 },
                "InstanceBandwidthRx": t.bandwidth_kbps,
                "InstanceBandwidthTx": t.bandwidth_kbps,
                "InstancePpsRx": t.pps,
                "InstancePpsTx": t.pps,
                "CpuArchitecture": "X86",
                "LocalStorageCategory": "",
            })
        })
        .collect();
    Ok(json!({ "NextToken": "", "InstanceTypes": { "InstanceType": types } }))
}

pub(super) fn describe_images(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    region(&ctx.region)?;
    let ids = p.list("ImageId")?;
    let name = p.get("ImageName");
    let owner = p.one_of("ImageOwnerAlias", &["system", "self", "others", "marketplace"])?;
    let os_type = p.one_of("OSType", &["linux", "windows"])?;
    let architecture = p.one_of("Architecture", &["i386", "x86_64", "arm64"])?;
    let family = p.get("ImageFamily");
    let images: Vec<&PublicImage> = PUBLIC_IMAGES
        .iter()
        .filter(|_| owner.is_none_or(|o| o == "system"))
        .filter(|i| ids.is_empty() || ids.iter().any(|id| id == i.id))
        .filter(|i| name.is_none_or(|n| glob_match(n, i.id)))
        .filter(|i| os_type.is_none_or(|t| i.os_type == t))
        .filter(|_| architecture.is_none_or(|a| a == "x86_64"))
        .filter(|i| family.is_none_or(|f| i.family == f))
        .collect();
    let (page, number, size, total) = paginate(images, p, 100)?;
    let items: Vec<Value> = page
        .iter()
        .map(|i| {
            json!({
                "ImageId": i.id,
                "ImageName": i.id,
                "ImageOwnerAlias": "system",
                "ImageFamily": i.family,
                "OSName": i.os_name,
                "OSNameEn": i.os_name_en,
                "OSType": i.os_type,
                "Platform": i.platform,
                "Architecture": "x86_64",
                "Size": i.size_gib,
                "Status": "Available",
                "Progress": "100%",
                "Usage": "instance",
                "BootMode": "BIOS",
                "IsSupportCloudinit": true,
                "IsSupportIoOptimized": true,
                "IsSubscribed": false,
                "IsCopied": false,
                "IsSelfShared": "",
                "ProductCode": "",
                "Description": "",
                "CreationTime": i.created,
                "DiskDeviceMappings": { "DiskDeviceMapping": [] },
            })
        })
        .collect();
    Ok(json!({
        "TotalCount": total,
        "PageNumber": number,
        "PageSize": size,
        "RegionId": ctx.region,
        "Images": { "Image": items },
    }))
}
