//! Network services and operations: `alicloud_slb_load_balancer` (and `alicloud_slb`, CLB),
//! `alicloud_slb_server_certificate` (a CLB server certificate for HTTPS listeners),
//! `alicloud_ssl_certificates_service_certificate` (a certificate of Certificate Management
//! Service, which CLB offers as an Alibaba Cloud certificate),
//! `alicloud_alidns_domain` (and `alicloud_dns_domain`), `alicloud_alidns_record` (Alibaba Cloud
//! DNS), `alicloud_cms_alarm_contact` and `alicloud_cms_alarm_contact_group` (CloudMonitor).

use super::{Arg, IdFrom, Ready, RpcType, Source, TAGS, arg, list, local, lower, mapped, required};

pub static TYPES: &[&RpcType] = &[
    &SLB_LOAD_BALANCER,
    &SLB,
    &SLB_SERVER_CERTIFICATE,
    &SSL_CERTIFICATE,
    &ALIDNS_DOMAIN,
    &DNS_DOMAIN,
    &ALIDNS_RECORD,
    &CMS_CONTACT,
    &CMS_CONTACT_GROUP,
];

/// The provider's payment types and CLB's `PayType`.
const PAYMENT_TYPES: &[(&str, &str)] = &[
    ("PayAsYouGo", "PayOnDemand"),
    ("PostPaid", "PayOnDemand"),
    ("Subscription", "PrePay"),
    ("PrePaid", "PrePay"),
];

const SLB_ARGS: &[Arg] = &[
    arg("load_balancer_name", "LoadBalancerName"),
    arg("name", "LoadBalancerName"),
    arg("address_type", "AddressType"),
    lower("internet_charge_type", "InternetChargeType"),
    arg("load_balancer_spec", "LoadBalancerSpec"),
    arg("specification", "LoadBalancerSpec"),
    arg("vswitch_id", "VSwitchId"),
    arg("master_zone_id", "MasterZoneId"),
    arg("slave_zone_id", "SlaveZoneId"),
    arg("bandwidth", "Bandwidth"),
    mapped("payment_type", "PayType", PAYMENT_TYPES),
    mapped("instance_charge_type", "PayType", PAYMENT_TYPES),
    arg("address_ip_version", "AddressIPVersion"),
    arg("resource_group_id", "ResourceGroupId"),
    local("delete_protection"),
    TAGS,
];

pub static SLB_LOAD_BALANCER: RpcType = RpcType {
    name: "alicloud_slb_load_balancer",
    code: "slb",
    product: "CLB",
    args: SLB_ARGS,
    name_arguments: &["load_balancer_name", "name"],
    fixed: &[],
    vpc_of_vswitch: Some("VpcId"),
    create: "CreateLoadBalancer",
    id: IdFrom::Response("/LoadBalancerId"),
    read: "DescribeLoadBalancerAttribute",
    read_params: &[("LoadBalancerId", Source::Id)],
    item_at: "",
    match_field: None,
    attributes: &[
        ("load_balancer_name", "/LoadBalancerName"),
        ("address", "/Address"),
        ("address_type", "/AddressType"),
        ("internet_charge_type", "/InternetChargeType"),
        ("load_balancer_spec", "/LoadBalancerSpec"),
        ("vswitch_id", "/VSwitchId"),
        ("vpc_id", "/VpcId"),
        ("master_zone_id", "/MasterZoneId"),
        ("slave_zone_id", "/SlaveZoneId"),
        ("bandwidth", "/Bandwidth"),
        ("payment_type", "/PayType"),
        ("status", "/LoadBalancerStatus"),
    ],
    gone_when: None,
    ready: Some(Ready {
        attribute: "status",
        states: &["active"],
    }),
    settle: &[],
    delete: "DeleteLoadBalancer",
    delete_params: &[("LoadBalancerId", Source::Id)],
    purge: None,
};

/// The provider's older name for [`SLB_LOAD_BALANCER`].
pub static SLB: RpcType = RpcType {
    name: "alicloud_slb",
    ..SLB_LOAD_BALANCER
};

const SERVER_CERTIFICATE_ARGS: &[Arg] = &[
    arg("server_certificate_name", "ServerCertificateName"),
    arg("name", "ServerCertificateName"),
    arg("server_certificate", "ServerCertificate"),
    arg("private_key", "PrivateKey"),
    arg("alicloud_certificate_id", "AliCloudCertificateId"),
    arg("alicloud_certificate_name", "AliCloudCertificateName"),
    arg("alicloud_certificate_region_id", "AliCloudCertificateRegionId"),
    arg("resource_group_id", "ResourceGroupId"),
    TAGS,
];

/// A server certificate uploaded to CLB (`UploadServerCertificate`): a third-party one, from its
/// PEM certificate and private key, or one of Certificate Management Service by its id.
pub static SLB_SERVER_CERTIFICATE: RpcType = RpcType {
    name: "alicloud_slb_server_certificate",
    code: "slb",
    product: "CLB",
    args: SERVER_CERTIFICATE_ARGS,
    name_arguments: &["server_certificate_name", "name"],
    fixed: &[],
    vpc_of_vswitch: None,
    create: "UploadServerCertificate",
    id: IdFrom::Response("/ServerCertificateId"),
    read: "DescribeServerCertificates",
    read_params: &[("ServerCertificateId", Source::Id)],
    item_at: "/ServerCertificates/ServerCertificate",
    match_field: Some("ServerCertificateId"),
    attributes: &[
        ("server_certificate_name", "/ServerCertificateName"),
        ("name", "/ServerCertificateName"),
        ("fingerprint", "/Fingerprint"),
        ("resource_group_id", "/ResourceGroupId"),
    ],
    gone_when: None,
    ready: None,
    settle: &[],
    delete: "DeleteServerCertificate",
    delete_params: &[("ServerCertificateId", Source::Id)],
    purge: None,
};

const SSL_CERTIFICATE_ARGS: &[Arg] = &[
    arg("certificate_name", "Name"),
    arg("name", "Name"),
    required("cert", "Cert"),
    required("key", "Key"),
    arg("resource_group_id", "ResourceGroupId"),
    local("lang"),
];

/// A certificate uploaded to Certificate Management Service (API 2020-04-07,
/// `UploadUserCertificate`); the provider reads it back by its numeric `CertId`.
pub static SSL_CERTIFICATE: RpcType = RpcType {
    name: "alicloud_ssl_certificates_service_certificate",
    code: "cas",
    product: "Certificate Management Service",
    args: SSL_CERTIFICATE_ARGS,
    name_arguments: &["certificate_name", "name"],
    fixed: &[],
    vpc_of_vswitch: None,
    create: "UploadUserCertificate",
    id: IdFrom::Response("/CertId"),
    read: "GetUserCertificateDetail",
    read_params: &[("CertId", Source::Id)],
    item_at: "",
    match_field: None,
    attributes: &[
        ("certificate_name", "/Name"),
        ("name", "/Name"),
        ("fingerprint", "/Fingerprint"),
        ("resource_group_id", "/ResourceGroupId"),
    ],
    gone_when: None,
    ready: None,
    settle: &[],
    delete: "DeleteUserCertificate",
    delete_params: &[("CertId", Source::Id)],
    purge: None,
};

const DOMAIN_ARGS: &[Arg] = &[
    arg("domain_name", "DomainName"),
    arg("name", "DomainName"),
    arg("group_id", "GroupId"),
    arg("resource_group_id", "ResourceGroupId"),
    local("remark"),
    local("lang"),
    TAGS,
];

const DOMAIN_NAME: Source = Source::AnyAttr(&["domain_name", "name"]);

pub static ALIDNS_DOMAIN: RpcType = RpcType {
    name: "alicloud_alidns_domain",
    code: "dns",
    product: "Alibaba Cloud DNS",
    args: DOMAIN_ARGS,
    name_arguments: &["domain_name", "name"],
    fixed: &[],
    vpc_of_vswitch: None,
    create: "AddDomain",
    id: IdFrom::Arguments(&[DOMAIN_NAME]),
    read: "DescribeDomainInfo",
    read_params: &[("DomainName", Source::Id)],
    item_at: "",
    match_field: None,
    attributes: &[
        ("domain_name", "/DomainName"),
        ("domain_id", "/DomainId"),
        ("group_id", "/GroupId"),
        ("dns_servers", "/DnsServers/DnsServer"),
        ("resource_group_id", "/ResourceGroupId"),
    ],
    gone_when: None,
    ready: None,
    settle: &[],
    delete: "DeleteDomain",
    delete_params: &[("DomainName", Source::Id)],
    purge: None,
};

/// The provider's older name for [`ALIDNS_DOMAIN`].
pub static DNS_DOMAIN: RpcType = RpcType {
    name: "alicloud_dns_domain",
    ..ALIDNS_DOMAIN
};

const RECORD_ARGS: &[Arg] = &[
    required("domain_name", "DomainName"),
    required("rr", "RR"),
    required("type", "Type"),
    required("value", "Value"),
    arg("ttl", "TTL"),
    arg("line", "Line"),
    arg("priority", "Priority"),
    local("remark"),
    local("status"),
];

pub static ALIDNS_RECORD: RpcType = RpcType {
    name: "alicloud_alidns_record",
    code: "dns",
    product: "Alibaba Cloud DNS",
    args: RECORD_ARGS,
    name_arguments: &["rr"],
    fixed: &[],
    vpc_of_vswitch: None,
    create: "AddDomainRecord",
    id: IdFrom::Response("/RecordId"),
    read: "DescribeDomainRecordInfo",
    read_params: &[("RecordId", Source::Id)],
    item_at: "",
    match_field: None,
    attributes: &[
        ("domain_name", "/DomainName"),
        ("rr", "/RR"),
        ("type", "/Type"),
        ("value", "/Value"),
        ("ttl", "/TTL"),
        ("line", "/Line"),
        ("status", "/Status"),
    ],
    gone_when: None,
    ready: None,
    settle: &[],
    delete: "DeleteDomainRecord",
    delete_params: &[("RecordId", Source::Id)],
    purge: None,
};

const CONTACT_ARGS: &[Arg] = &[
    required("alarm_contact_name", "ContactName"),
    required("describe", "Describe"),
    arg("channels_mail", "Channels.Mail"),
    arg("channels_sms", "Channels.SMS"),
    arg("channels_ding_web_hook", "Channels.DingWebHook"),
    arg("channels_aliim", "Channels.AliIM"),
    arg("lang", "Lang"),
];

pub static CMS_CONTACT: RpcType = RpcType {
    name: "alicloud_cms_alarm_contact",
    code: "cms",
    product: "CloudMonitor",
    args: CONTACT_ARGS,
    name_arguments: &["alarm_contact_name"],
    fixed: &[],
    vpc_of_vswitch: None,
    create: "PutContact",
    id: IdFrom::Arguments(&[Source::Attr("alarm_contact_name")]),
    read: "DescribeContactList",
    read_params: &[("ContactName", Source::Id)],
    item_at: "/Contacts/Contact",
    match_field: Some("Name"),
    attributes: &[
        ("alarm_contact_name", "/Name"),
        ("describe", "/Desc"),
        ("lang", "/Lang"),
        ("channels_mail", "/Channels/Mail"),
        ("channels_sms", "/Channels/SMS"),
    ],
    gone_when: None,
    ready: None,
    settle: &[],
    delete: "DeleteContact",
    delete_params: &[("ContactName", Source::Id)],
    purge: None,
};

const CONTACT_GROUP_ARGS: &[Arg] = &[
    required("alarm_contact_group_name", "ContactGroupName"),
    list("contacts", "ContactNames"),
    arg("describe", "Describe"),
    arg("enable_subscribed", "EnableSubscribed"),
];

pub static CMS_CONTACT_GROUP: RpcType = RpcType {
    name: "alicloud_cms_alarm_contact_group",
    code: "cms",
    product: "CloudMonitor",
    args: CONTACT_GROUP_ARGS,
    name_arguments: &["alarm_contact_group_name"],
    fixed: &[],
    vpc_of_vswitch: None,
    create: "PutContactGroup",
    id: IdFrom::Arguments(&[Source::Attr("alarm_contact_group_name")]),
    read: "DescribeContactGroupList",
    read_params: &[("PageSize", Source::Const("100"))],
    item_at: "/ContactGroupList/ContactGroup",
    match_field: Some("Name"),
    attributes: &[
        ("alarm_contact_group_name", "/Name"),
        ("describe", "/Describe"),
        ("enable_subscribed", "/EnableSubscribed"),
        ("contacts", "/Contacts/Contact"),
    ],
    gone_when: None,
    ready: None,
    settle: &[],
    delete: "DeleteContactGroup",
    delete_params: &[("ContactGroupName", Source::Id)],
    purge: None,
};
