//! The operation catalog: for each product, the console tasks (a verb and an object, as page titles
//! and dialogs write them) and the ActionTrail event each one leaves.
//!
//! Event names are the real API operation names, service names are ActionTrail's (`Ims` for RAM
//! users, `R-kvstore` for Tair), and purchases on a buy page are the `ConsoleOperation` event
//! `Create` with empty request parameters, as the real service logs them. `fields` map a console
//! field label to the request parameter it fills, for the fields whose entered value the event shows
//! unchanged (names, CIDR blocks); fields that take an id or a choice shown differently are left out.

use aca_core::EventType;

/// One product's console and API.
#[derive(Debug)]
pub struct ProductEntry {
    /// The name page titles use: `Virtual Private Cloud`.
    pub name: &'static str,
    /// Other names pages and consoles use: `VPC`, `VPC console`.
    pub aliases: &'static [&'static str],
    pub operations: &'static [OperationEntry],
    /// Controls in which the reader picks which operation to call.
    pub choices: &'static [Choice],
    /// Operations that do one task, the resource's state picking which: a page that resets a RAM
    /// user's console password does it with CreateLoginProfile for a user without console logon
    /// and with UpdateLoginProfile for one that has it. Each group's names are operations of the
    /// product's catalogue.
    pub same_task: &'static [&'static [&'static str]],
}

/// A console control that calls one of several operations, as the reader chooses in it: the
/// Grant Permission panel attaches the policy to a RAM user, a user group or a RAM role, by the
/// principal picked there.
#[derive(Debug)]
pub struct Choice {
    /// The button, panel or dialog, as pages name it.
    pub control: &'static str,
    /// The events it may leave, each an operation of the same product's catalogue.
    pub event_names: &'static [&'static str],
}

/// A console task and the audit event it leaves.
#[derive(Debug)]
pub struct OperationEntry {
    /// The event's `eventName`: the API operation, or `Create` for a buy-page purchase.
    pub event_name: &'static str,
    /// The API operation behind it (`RunInstances` behind an ECS buy page's `Create`).
    pub api: &'static str,
    /// ActionTrail's `serviceName`.
    pub service_name: &'static str,
    pub event_type: EventType,
    /// Verbs a task starts with, lower case: `create`, `add`, `stop`.
    pub verbs: &'static [&'static str],
    /// Objects a task names, as pages write them: `VPC`, `vSwitch`, `security group`.
    pub objects: &'static [&'static str],
    /// A `referencedResources` type the event carries.
    pub resource_type: Option<&'static str>,
    /// Console field label → request parameter, for values the event shows as entered.
    pub fields: &'static [(&'static str, &'static str)],
}

impl OperationEntry {
    /// A buy-page purchase: logged as `Create`, a `ConsoleOperation` whose request parameters are empty.
    pub fn is_purchase(&self) -> bool {
        self.event_type == EventType::ConsoleOperation
    }
}

const fn api(
    event_name: &'static str,
    service_name: &'static str,
    verbs: &'static [&'static str],
    objects: &'static [&'static str],
    resource_type: Option<&'static str>,
    fields: &'static [(&'static str, &'static str)],
) -> OperationEntry {
    OperationEntry {
        event_name,
        api: event_name,
        service_name,
        event_type: EventType::ApiCall,
        verbs,
        objects,
        resource_type,
        fields,
    }
}

const fn purchase(
    api: &'static str,
    service_name: &'static str,
    objects: &'static [&'static str],
    resource_type: &'static str,
) -> OperationEntry {
    OperationEntry {
        event_name: "Create",
        api,
        service_name,
        event_type: EventType::ConsoleOperation,
        verbs: CREATE,
        objects,
        resource_type: Some(resource_type),
        fields: &[],
    }
}

const CREATE: &[&str] = &["create", "buy", "purchase"];
const DELETE: &[&str] = &["delete", "release", "remove"];
const MODIFY: &[&str] = &["modify", "change", "edit", "rename", "update"];
const ADD: &[&str] = &["add", "create"];
/// Taking a policy back from a principal.
const REVOKE: &[&str] = &["revoke", "detach"];

const ECS: &str = "Ecs";
const ECS_INSTANCE: Option<&str> = Some("ACS::ECS::Instance");
const ECS_DISK: Option<&str> = Some("ACS::ECS::Disk");
const ECS_SNAPSHOT: Option<&str> = Some("ACS::ECS::Snapshot");
const ECS_SECURITY_GROUP: Option<&str> = Some("ACS::ECS::SecurityGroup");
const ECS_INSTANCE_OBJECTS: &[&str] = &["ECS instance", "instance", "instances"];
const ECS_DISK_OBJECTS: &[&str] = &["data disk", "cloud disk", "disk", "disks"];
const SECURITY_GROUP_OBJECTS: &[&str] = &["security group"];

const VPC: &str = "Vpc";
const VPC_VPC: Option<&str> = Some("ACS::VPC::VPC");
const VPC_VSWITCH: Option<&str> = Some("ACS::VPC::VSwitch");
const VPC_EIP: Option<&str> = Some("ACS::VPC::EIP");
const VPC_NAT: Option<&str> = Some("ACS::VPC::NatGateway");
const EIP_OBJECTS: &[&str] = &["EIP", "EIPs", "elastic IP address", "elastic IP addresses"];

const RDS: &str = "Rds";
const RDS_INSTANCE: Option<&str> = Some("ACS::RDS::DBInstance");
const RDS_INSTANCE_OBJECTS: &[&str] = &["ApsaraDB RDS instance", "RDS instance", "instance"];

const SLB: &str = "Slb";
const SLB_LOAD_BALANCER: Option<&str> = Some("ACS::SLB::LoadBalancer");
const LISTENER_OBJECTS: &[&str] = &["listener"];
const VSERVER_GROUP_OBJECTS: &[&str] = &["vServer group", "vServer groups"];
const CERTIFICATE_OBJECTS: &[&str] = &["certificate", "server certificate", "certificates"];

const ALB: &str = "Alb";
const ALB_LOAD_BALANCER: Option<&str> = Some("ACS::ALB::LoadBalancer");
const ALB_SERVER_GROUP: Option<&str> = Some("ACS::ALB::ServerGroup");
const ALB_INSTANCE_OBJECTS: &[&str] = &["ALB instance", "ALB instances", "Application Load Balancer instance"];
const SERVER_GROUP_OBJECTS: &[&str] = &["server group", "server groups"];

const IMS: &str = "Ims";
const RAM: &str = "Ram";
const RAM_USER: Option<&str> = Some("ACS::RAM::User");
const RAM_GROUP: Option<&str> = Some("ACS::RAM::Group");
const RAM_ROLE: Option<&str> = Some("ACS::RAM::Role");
const RAM_POLICY: Option<&str> = Some("ACS::RAM::Policy");
const RAM_USER_OBJECTS: &[&str] = &["RAM user", "user"];
const ACCESS_KEY_OBJECTS: &[&str] = &["AccessKey pair", "AccessKey"];

const KMS: &str = "Kms";
const KMS_KEY: Option<&str> = Some("ACS::KMS::Key");
const KMS_ALIAS: Option<&str> = Some("ACS::KMS::Alias");
const KMS_SECRET: Option<&str> = Some("ACS::KMS::Secret");
const SECRET_OBJECTS: &[&str] = &["generic secret", "secret"];
const KEY_OBJECTS: &[&str] = &["customer master key", "CMK", "key"];

const DNS: &str = "Alidns";
const DNS_DOMAIN: Option<&str> = Some("ACS::Alidns::Domain");
const DNS_RECORD: Option<&str> = Some("ACS::Alidns::Record");
const RECORD_OBJECTS: &[&str] = &["DNS record", "record"];

const CMS: &str = "Cms";
const ALERT_RULE_OBJECTS: &[&str] = &["threshold-triggered alert rule", "alert rule", "alarm rule"];

const KVSTORE: &str = "R-kvstore";
const KVSTORE_INSTANCE: Option<&str> = Some("ACS::KVSTORE::Instance");
const TEMPLATE_OBJECTS: &[&str] = &["IP whitelist template", "whitelist template"];

const ACTIONTRAIL: &str = "Actiontrail";
const TRAIL: Option<&str> = Some("ACS::ActionTrail::Trail");

const OSS: &str = "Oss";
const OSS_BUCKET: Option<&str> = Some("ACS::OSS::Bucket");

const SLS: &str = "Sls";
const SLS_PROJECT: Option<&str> = Some("ACS::SLS::Project");
const SLS_LOGSTORE: Option<&str> = Some("ACS::SLS::LogStore");

const CS: &str = "CS";

/// Every product of the catalog.
pub static PRODUCTS: &[ProductEntry] = &[
    ProductEntry {
        name: "Elastic Compute Service",
        aliases: &["ECS"],
        same_task: &[],
        choices: &[],
        operations: &[
            purchase("RunInstances", ECS, ECS_INSTANCE_OBJECTS, "ACS::ECS::Instance"),
            purchase("CreateDisk", ECS, ECS_DISK_OBJECTS, "ACS::ECS::Disk"),
            api(
                "StartInstance",
                ECS,
                &["start"],
                ECS_INSTANCE_OBJECTS,
                ECS_INSTANCE,
                &[],
            ),
            api("StopInstance", ECS, &["stop"], ECS_INSTANCE_OBJECTS, ECS_INSTANCE, &[]),
            api(
                "RebootInstance",
                ECS,
                &["restart", "reboot"],
                ECS_INSTANCE_OBJECTS,
                ECS_INSTANCE,
                &[],
            ),
            api("DeleteInstance", ECS, DELETE, ECS_INSTANCE_OBJECTS, ECS_INSTANCE, &[]),
            api(
                "ModifyInstanceAttribute",
                ECS,
                MODIFY,
                &["instance name", "instance attributes", "instance"],
                ECS_INSTANCE,
                &[("Instance Name", "InstanceName")],
            ),
            // Resetting an instance's logon password is ModifyInstanceAttribute with `Password`.
            api(
                "ModifyInstanceAttribute",
                ECS,
                &["reset", "change", "modify"],
                &["logon password", "instance password", "password"],
                ECS_INSTANCE,
                &[],
            ),
            api("AttachDisk", ECS, &["attach", "mount"], ECS_DISK_OBJECTS, ECS_DISK, &[]),
            api(
                "DetachDisk",
                ECS,
                &["detach", "unmount"],
                ECS_DISK_OBJECTS,
                ECS_DISK,
                &[],
            ),
            api(
                "ResizeDisk",
                ECS,
                &["resize", "expand", "extend"],
                ECS_DISK_OBJECTS,
                ECS_DISK,
                &[],
            ),
            api("DeleteDisk", ECS, DELETE, ECS_DISK_OBJECTS, ECS_DISK, &[]),
            api(
                "CreateSnapshot",
                ECS,
                CREATE,
                &["snapshot", "snapshots"],
                ECS_SNAPSHOT,
                &[("Snapshot Name", "SnapshotName"), ("Description", "Description")],
            ),
            api(
                "DeleteSnapshot",
                ECS,
                DELETE,
                &["snapshot", "snapshots"],
                ECS_SNAPSHOT,
                &[],
            ),
            api(
                "CreateAutoSnapshotPolicy",
                ECS,
                CREATE,
                &["automatic snapshot policy", "auto snapshot policy"],
                Some("ACS::ECS::AutoSnapshotPolicy"),
                &[],
            ),
            api(
                "ApplyAutoSnapshotPolicy",
                ECS,
                &["apply"],
                &["automatic snapshot policy", "auto snapshot policy"],
                Some("ACS::ECS::AutoSnapshotPolicy"),
                &[],
            ),
            api(
                "CreateSecurityGroup",
                ECS,
                CREATE,
                SECURITY_GROUP_OBJECTS,
                ECS_SECURITY_GROUP,
                &[
                    ("Security Group Name", "SecurityGroupName"),
                    ("Description", "Description"),
                ],
            ),
            api(
                "AuthorizeSecurityGroup",
                ECS,
                ADD,
                &["security group rule", "inbound rule", "rule"],
                ECS_SECURITY_GROUP,
                &[("Port Range", "PortRange"), ("Authorization Object", "SourceCidrIp")],
            ),
            api(
                "DeleteSecurityGroup",
                ECS,
                DELETE,
                SECURITY_GROUP_OBJECTS,
                ECS_SECURITY_GROUP,
                &[],
            ),
            api(
                "CreateKeyPair",
                ECS,
                CREATE,
                &["SSH key pair", "key pair"],
                Some("ACS::ECS::KeyPair"),
                &[],
            ),
        ],
    },
    ProductEntry {
        name: "Virtual Private Cloud",
        aliases: &["VPC"],
        same_task: &[],
        choices: &[],
        operations: &[
            api(
                "CreateVpc",
                VPC,
                CREATE,
                &["VPC", "virtual private cloud"],
                VPC_VPC,
                &[
                    ("Name", "VpcName"),
                    ("IPv4 CIDR Block", "CidrBlock"),
                    ("Description", "Description"),
                ],
            ),
            api(
                "ModifyVpcAttribute",
                VPC,
                MODIFY,
                &["VPC"],
                VPC_VPC,
                &[("Name", "VpcName"), ("Description", "Description")],
            ),
            api("DeleteVpc", VPC, DELETE, &["VPC"], VPC_VPC, &[]),
            api(
                "CreateVSwitch",
                VPC,
                CREATE,
                &["vSwitch", "vSwitches"],
                VPC_VSWITCH,
                &[
                    ("Name", "VSwitchName"),
                    ("IPv4 CIDR Block", "CidrBlock"),
                    ("Description", "Description"),
                ],
            ),
            api("DeleteVSwitch", VPC, DELETE, &["vSwitch"], VPC_VSWITCH, &[]),
            api(
                "AllocateEipAddress",
                VPC,
                &["apply", "create", "allocate", "buy", "purchase"],
                EIP_OBJECTS,
                VPC_EIP,
                &[],
            ),
            api(
                "AssociateEipAddress",
                VPC,
                &["associate", "bind"],
                EIP_OBJECTS,
                VPC_EIP,
                &[],
            ),
            api(
                "UnassociateEipAddress",
                VPC,
                &["disassociate", "unbind"],
                EIP_OBJECTS,
                VPC_EIP,
                &[],
            ),
            api("ReleaseEipAddress", VPC, DELETE, EIP_OBJECTS, VPC_EIP, &[]),
            api("CreateNatGateway", VPC, CREATE, &["NAT gateway"], VPC_NAT, &[]),
            api("DeleteNatGateway", VPC, DELETE, &["NAT gateway"], VPC_NAT, &[]),
            api(
                "CreateSnatEntry",
                VPC,
                ADD,
                &["SNAT entry", "SNAT entries"],
                Some("ACS::VPC::SnatEntry"),
                &[],
            ),
        ],
    },
    ProductEntry {
        name: "ApsaraDB RDS",
        aliases: &["RDS", "ApsaraDB RDS for MySQL", "ApsaraDB RDS console"],
        same_task: &[],
        choices: &[],
        operations: &[
            purchase("CreateDBInstance", RDS, RDS_INSTANCE_OBJECTS, "ACS::RDS::DBInstance"),
            api("DeleteDBInstance", RDS, DELETE, RDS_INSTANCE_OBJECTS, RDS_INSTANCE, &[]),
            api(
                "RestartDBInstance",
                RDS,
                &["restart", "reboot"],
                RDS_INSTANCE_OBJECTS,
                RDS_INSTANCE,
                &[],
            ),
            api(
                "ModifyDBInstanceDescription",
                RDS,
                MODIFY,
                &["instance name", "instance description"],
                RDS_INSTANCE,
                &[],
            ),
            api(
                "CreateDatabase",
                RDS,
                CREATE,
                &["database"],
                RDS_INSTANCE,
                &[("Database Name", "DBName")],
            ),
            api(
                "CreateAccount",
                RDS,
                CREATE,
                &["database account", "account"],
                RDS_INSTANCE,
                &[("Database Account", "AccountName")],
            ),
            api(
                "GrantAccountPrivilege",
                RDS,
                &["grant", "authorize", "modify"],
                &["account permissions", "permissions", "account"],
                RDS_INSTANCE,
                &[],
            ),
            api(
                "ModifySecurityIps",
                RDS,
                &["configure", "set", "modify", "add"],
                &["IP address whitelist", "whitelist"],
                RDS_INSTANCE,
                &[],
            ),
        ],
    },
    ProductEntry {
        name: "Classic Load Balancer",
        aliases: &["CLB", "Classic Load Balancer", "Server Load Balancer", "SLB"],
        same_task: &[],
        choices: &[],
        operations: &[
            purchase(
                "CreateLoadBalancer",
                SLB,
                &["CLB instance", "CLB instances", "load balancer", "instance"],
                "ACS::SLB::LoadBalancer",
            ),
            api(
                "DeleteLoadBalancer",
                SLB,
                DELETE,
                &["CLB instance", "load balancer", "instance"],
                SLB_LOAD_BALANCER,
                &[],
            ),
            api(
                "SetLoadBalancerName",
                SLB,
                MODIFY,
                &["instance name", "name"],
                SLB_LOAD_BALANCER,
                &[],
            ),
            api(
                "CreateLoadBalancerTCPListener",
                SLB,
                &["add", "create", "configure"],
                &["TCP listener", "listener"],
                SLB_LOAD_BALANCER,
                &[
                    ("Listener Port", "ListenerPort"),
                    ("Backend Server Port", "BackendServerPort"),
                ],
            ),
            api(
                "CreateLoadBalancerUDPListener",
                SLB,
                &["add", "create", "configure"],
                &["UDP listener"],
                SLB_LOAD_BALANCER,
                &[],
            ),
            api(
                "CreateLoadBalancerHTTPListener",
                SLB,
                &["add", "create", "configure"],
                &["HTTP listener"],
                SLB_LOAD_BALANCER,
                &[],
            ),
            api(
                "CreateLoadBalancerHTTPSListener",
                SLB,
                &["add", "create", "configure"],
                &["HTTPS listener"],
                SLB_LOAD_BALANCER,
                &[],
            ),
            api(
                "UploadServerCertificate",
                SLB,
                &["create", "add", "upload"],
                CERTIFICATE_OBJECTS,
                None,
                &[],
            ),
            api("DeleteServerCertificate", SLB, DELETE, CERTIFICATE_OBJECTS, None, &[]),
            api(
                "StartLoadBalancerListener",
                SLB,
                &["start", "enable"],
                LISTENER_OBJECTS,
                SLB_LOAD_BALANCER,
                &[],
            ),
            api(
                "StopLoadBalancerListener",
                SLB,
                &["stop", "disable"],
                LISTENER_OBJECTS,
                SLB_LOAD_BALANCER,
                &[],
            ),
            api(
                "DeleteLoadBalancerListener",
                SLB,
                DELETE,
                LISTENER_OBJECTS,
                SLB_LOAD_BALANCER,
                &[],
            ),
            api(
                "AddBackendServers",
                SLB,
                &["add"],
                &["backend servers", "backend server"],
                SLB_LOAD_BALANCER,
                &[],
            ),
            api(
                "RemoveBackendServers",
                SLB,
                &["remove"],
                &["backend servers", "backend server"],
                SLB_LOAD_BALANCER,
                &[],
            ),
            api(
                "CreateVServerGroup",
                SLB,
                ADD,
                VSERVER_GROUP_OBJECTS,
                SLB_LOAD_BALANCER,
                &[("vServer Group Name", "VServerGroupName")],
            ),
            api("DeleteVServerGroup", SLB, DELETE, VSERVER_GROUP_OBJECTS, SLB_LOAD_BALANCER, &[]),
            api(
                "AddVServerGroupBackendServers",
                SLB,
                &["add"],
                &["backend servers to a vServer group", "servers to a vServer group"],
                SLB_LOAD_BALANCER,
                &[],
            ),
            api(
                "RemoveVServerGroupBackendServers",
                SLB,
                &["remove"],
                &["backend servers from a vServer group", "servers from a vServer group"],
                SLB_LOAD_BALANCER,
                &[],
            ),
        ],
    },
    // ALB's CreateLoadBalancer shares CLB's name; its service (`Alb`) and resources keep it apart.
    ProductEntry {
        name: "Application Load Balancer",
        aliases: &["ALB"],
        same_task: &[],
        choices: &[],
        operations: &[
            purchase(
                "CreateLoadBalancer",
                ALB,
                ALB_INSTANCE_OBJECTS,
                "ACS::ALB::LoadBalancer",
            ),
            api(
                "DeleteLoadBalancer",
                ALB,
                DELETE,
                ALB_INSTANCE_OBJECTS,
                ALB_LOAD_BALANCER,
                &[],
            ),
            api(
                "CreateServerGroup",
                ALB,
                CREATE,
                SERVER_GROUP_OBJECTS,
                ALB_SERVER_GROUP,
                &[("Server Group Name", "ServerGroupName")],
            ),
            api(
                "DeleteServerGroup",
                ALB,
                DELETE,
                SERVER_GROUP_OBJECTS,
                ALB_SERVER_GROUP,
                &[],
            ),
            api(
                "CreateListener",
                ALB,
                &["add", "create", "configure"],
                &["HTTP listener", "HTTPS listener", "QUIC listener", "listener"],
                ALB_LOAD_BALANCER,
                &[("Listener port", "ListenerPort")],
            ),
            api("DeleteListener", ALB, DELETE, LISTENER_OBJECTS, ALB_LOAD_BALANCER, &[]),
        ],
    },
    ProductEntry {
        name: "Resource Access Management",
        aliases: &["RAM"],
        // reset-user-password.md (2025-08-08): Enable Console Logon or Modify Logon Settings.
        same_task: &[&["CreateLoginProfile", "UpdateLoginProfile"]],
        // manage-policy-grants.md (2025-05-08): on a policy's Grants tab.
        choices: &[
            Choice {
                control: "Grant Permission",
                event_names: &["AttachPolicyToUser", "AttachPolicyToGroup", "AttachPolicyToRole"],
            },
            Choice {
                control: "Revoke Permission",
                event_names: &["DetachPolicyFromUser", "DetachPolicyFromGroup", "DetachPolicyFromRole"],
            },
        ],
        operations: &[
            api(
                "CreateUser",
                IMS,
                CREATE,
                RAM_USER_OBJECTS,
                RAM_USER,
                &[("Logon Name", "UserName"), ("Display Name", "DisplayName")],
            ),
            api("UpdateUser", IMS, MODIFY, RAM_USER_OBJECTS, RAM_USER, &[]),
            api("DeleteUser", IMS, DELETE, RAM_USER_OBJECTS, RAM_USER, &[]),
            // A user the procedure gives its first password gets a logon profile: "Reset a RAM
            // user's console password" on a user without one is Enable Console Logon.
            api(
                "CreateLoginProfile",
                IMS,
                &["enable", "create", "configure", "reset"],
                &["console logon", "logon settings", "logon profile", "console password"],
                RAM_USER,
                &[],
            ),
            api(
                "UpdateLoginProfile",
                IMS,
                &["modify", "change", "reset", "update"],
                &["logon settings", "logon password", "console password"],
                RAM_USER,
                &[],
            ),
            api("CreateAccessKey", IMS, CREATE, ACCESS_KEY_OBJECTS, RAM_USER, &[]),
            api(
                "UpdateAccessKey",
                IMS,
                &["disable", "enable"],
                ACCESS_KEY_OBJECTS,
                RAM_USER,
                &[],
            ),
            api("DeleteAccessKey", IMS, &["delete"], ACCESS_KEY_OBJECTS, RAM_USER, &[]),
            // "Enable an MFA device for a RAM user", "Bind an MFA device to a RAM user": the
            // binding, made once the two codes are taken; making the device alone binds nothing.
            api(
                "BindMFADevice",
                IMS,
                &["enable", "bind"],
                &["MFA device", "virtual MFA device", "MFA"],
                RAM_USER,
                &[],
            ),
            api(
                "CreateGroup",
                IMS,
                CREATE,
                &["RAM user group", "user group", "group"],
                RAM_GROUP,
                &[("Group Name", "GroupName"), ("Note", "Comments")],
            ),
            api(
                "DeleteGroup",
                IMS,
                &["delete"],
                &["RAM user group", "user group"],
                RAM_GROUP,
                &[],
            ),
            api(
                "AddUserToGroup",
                IMS,
                &["add"],
                &[
                    "to a user group",
                    "to the user group",
                    "to user groups",
                    "to a group",
                    "to a RAM user group",
                ],
                RAM_GROUP,
                &[("User Group", "GroupName")],
            ),
            api(
                "RemoveUserFromGroup",
                IMS,
                &["remove"],
                &[
                    "from a user group",
                    "from the user group",
                    "from a group",
                    "from a RAM user group",
                    "from the RAM user group",
                ],
                RAM_GROUP,
                &[],
            ),
            api(
                "AttachPolicyToUser",
                RAM,
                &["grant", "attach", "add"],
                &[
                    "permissions to a RAM user",
                    "permissions to the RAM user",
                    "policy to a RAM user",
                ],
                RAM_USER,
                &[("Policy", "PolicyName")],
            ),
            api(
                "AttachPolicyToGroup",
                RAM,
                &["grant", "attach", "add"],
                &[
                    "permissions to a RAM user group",
                    "permissions to a user group",
                    "policy to a user group",
                ],
                RAM_GROUP,
                &[],
            ),
            api(
                "AttachPolicyToRole",
                RAM,
                &["grant", "attach", "add"],
                &["permissions to a RAM role", "policy to a RAM role"],
                RAM_ROLE,
                &[],
            ),
            api(
                "CreatePolicy",
                RAM,
                CREATE,
                &["custom policy", "policy"],
                RAM_POLICY,
                &[("Policy Name", "PolicyName")],
            ),
            api(
                "DetachPolicyFromUser",
                RAM,
                REVOKE,
                &[
                    "permissions from a RAM user",
                    "permissions from the RAM user",
                    "policy from a RAM user",
                ],
                RAM_USER,
                &[],
            ),
            api(
                "DetachPolicyFromGroup",
                RAM,
                REVOKE,
                &[
                    "permissions from a RAM user group",
                    "permissions from a user group",
                    "policy from a user group",
                ],
                RAM_GROUP,
                &[],
            ),
            api(
                "DetachPolicyFromRole",
                RAM,
                REVOKE,
                &["permissions from a RAM role", "policy from a RAM role"],
                RAM_ROLE,
                &[],
            ),
            api("CreateRole", RAM, CREATE, &["RAM role", "role"], RAM_ROLE, &[]),
            api("DeleteRole", RAM, &["delete"], &["RAM role"], RAM_ROLE, &[]),
        ],
    },
    ProductEntry {
        name: "Key Management Service",
        aliases: &["KMS"],
        same_task: &[],
        choices: &[],
        operations: &[
            // Before the keys: "create a generic secret" names its CMK too.
            api(
                "CreateSecret",
                KMS,
                CREATE,
                SECRET_OBJECTS,
                KMS_SECRET,
                &[("Secret Name", "SecretName"), ("Initial Version", "VersionId")],
            ),
            api("DeleteSecret", KMS, DELETE, SECRET_OBJECTS, KMS_SECRET, &[]),
            api(
                "CreateKey",
                KMS,
                CREATE,
                KEY_OBJECTS,
                KMS_KEY,
                &[("Description", "Description")],
            ),
            api("EnableKey", KMS, &["enable"], KEY_OBJECTS, KMS_KEY, &[]),
            api("DisableKey", KMS, &["disable"], KEY_OBJECTS, KMS_KEY, &[]),
            api(
                "ScheduleKeyDeletion",
                KMS,
                &["schedule", "delete"],
                &["key deletion", "deletion of a key", "key", "CMK"],
                KMS_KEY,
                &[],
            ),
            api(
                "CancelKeyDeletion",
                KMS,
                &["cancel"],
                &["key deletion", "deletion of a key", "deletion"],
                KMS_KEY,
                &[],
            ),
            api(
                "SetDeletionProtection",
                KMS,
                &["enable", "disable", "set"],
                &["deletion protection"],
                KMS_KEY,
                &[],
            ),
            api("CreateAlias", KMS, ADD, &["alias"], KMS_ALIAS, &[]),
            api("DeleteAlias", KMS, DELETE, &["alias"], KMS_ALIAS, &[]),
        ],
    },
    ProductEntry {
        name: "Alibaba Cloud DNS",
        aliases: &["DNS", "Alidns", "Alibaba Cloud DNS console"],
        same_task: &[],
        choices: &[],
        operations: &[
            api(
                "AddDomain",
                DNS,
                ADD,
                &["domain name", "domain"],
                DNS_DOMAIN,
                &[("Domain Name", "DomainName")],
            ),
            api("DeleteDomain", DNS, DELETE, &["domain name", "domain"], DNS_DOMAIN, &[]),
            api(
                "AddDomainRecord",
                DNS,
                ADD,
                RECORD_OBJECTS,
                DNS_RECORD,
                &[("Hostname", "RR"), ("Record Value", "Value"), ("Record Type", "Type")],
            ),
            api("UpdateDomainRecord", DNS, MODIFY, RECORD_OBJECTS, DNS_RECORD, &[]),
            api(
                "SetDomainRecordStatus",
                DNS,
                &["pause", "enable", "disable"],
                RECORD_OBJECTS,
                DNS_RECORD,
                &[],
            ),
            api("DeleteDomainRecord", DNS, DELETE, RECORD_OBJECTS, DNS_RECORD, &[]),
        ],
    },
    ProductEntry {
        name: "CloudMonitor",
        aliases: &["Cloud Monitor", "CMS"],
        same_task: &[],
        choices: &[],
        operations: &[
            api(
                "PutResourceMetricRule",
                CMS,
                ADD,
                ALERT_RULE_OBJECTS,
                None,
                &[("Alert Rule", "RuleName")],
            ),
            api("EnableMetricRules", CMS, &["enable"], ALERT_RULE_OBJECTS, None, &[]),
            api("DisableMetricRules", CMS, &["disable"], ALERT_RULE_OBJECTS, None, &[]),
            api("DeleteMetricRules", CMS, DELETE, ALERT_RULE_OBJECTS, None, &[]),
            api("PutContact", CMS, ADD, &["alert contact", "contact"], None, &[]),
            api(
                "PutContactGroup",
                CMS,
                ADD,
                &["alert contact group", "contact group"],
                None,
                &[],
            ),
        ],
    },
    ProductEntry {
        name: "Tair (Redis OSS-Compatible)",
        aliases: &["Tair", "ApsaraDB for Redis", "Redis", "KVStore"],
        same_task: &[],
        choices: &[],
        operations: &[
            purchase(
                "CreateInstance",
                KVSTORE,
                &["Tair instance", "Redis instance", "instance"],
                "ACS::KVSTORE::Instance",
            ),
            api("DeleteInstance", KVSTORE, DELETE, &["instance"], KVSTORE_INSTANCE, &[]),
            api(
                "RestartInstance",
                KVSTORE,
                &["restart"],
                &["Tair instance", "Redis instance", "instance"],
                KVSTORE_INSTANCE,
                &[],
            ),
            api(
                "ModifyInstanceSpec",
                KVSTORE,
                &["change", "upgrade", "downgrade", "modify"],
                &[
                    "instance specifications",
                    "specifications",
                    "configurations",
                    "instance type",
                ],
                KVSTORE_INSTANCE,
                &[],
            ),
            api(
                "ModifySecurityIps",
                KVSTORE,
                &["configure", "set", "modify"],
                &["whitelist"],
                KVSTORE_INSTANCE,
                &[],
            ),
            api(
                "CreateGlobalSecurityIPGroup",
                KVSTORE,
                &["create", "configure"],
                TEMPLATE_OBJECTS,
                None,
                &[
                    ("IP Whitelist Template Name", "GlobalIgName"),
                    ("IP Addresses in Whitelist", "GIpList"),
                ],
            ),
            api("ModifyGlobalSecurityIPGroup", KVSTORE, MODIFY, TEMPLATE_OBJECTS, None, &[]),
            api("DeleteGlobalSecurityIPGroup", KVSTORE, DELETE, TEMPLATE_OBJECTS, None, &[]),
            api(
                "ModifyAccountPassword",
                KVSTORE,
                &["change", "modify"],
                &["password"],
                KVSTORE_INSTANCE,
                &[],
            ),
            api("ResetAccountPassword", KVSTORE, &["reset"], &["password"], KVSTORE_INSTANCE, &[]),
            api("DestroyInstance", KVSTORE, &["destroy"], &["instance"], KVSTORE_INSTANCE, &[]),
            api("RenewInstance", KVSTORE, &["renew", "unlock"], &["instance"], KVSTORE_INSTANCE, &[]),
            api(
                "ModifyInstanceAutoRenewalAttribute",
                KVSTORE,
                &["enable", "disable", "edit", "modify"],
                &["automatic renewal", "auto-renewal", "auto renewal"],
                KVSTORE_INSTANCE,
                &[],
            ),
        ],
    },
    ProductEntry {
        name: "ActionTrail",
        aliases: &[],
        same_task: &[],
        choices: &[],
        operations: &[
            api(
                "CreateTrail",
                ACTIONTRAIL,
                CREATE,
                &["single-account trail", "trail"],
                TRAIL,
                &[("Trail Name", "Name")],
            ),
            api("UpdateTrail", ACTIONTRAIL, MODIFY, &["trail"], TRAIL, &[]),
            api("DeleteTrail", ACTIONTRAIL, DELETE, &["trail"], TRAIL, &[]),
            api(
                "StartLogging",
                ACTIONTRAIL,
                &["enable", "start"],
                &["logging"],
                TRAIL,
                &[],
            ),
            api(
                "StopLogging",
                ACTIONTRAIL,
                &["disable", "stop"],
                &["logging"],
                TRAIL,
                &[],
            ),
        ],
    },
    ProductEntry {
        name: "Object Storage Service",
        aliases: &["OSS"],
        same_task: &[],
        choices: &[],
        operations: &[
            api(
                "PutBucket",
                OSS,
                CREATE,
                &["bucket", "buckets"],
                OSS_BUCKET,
                &[("Bucket Name", "BucketName"), ("Storage Class", "StorageClass")],
            ),
            api("DeleteBucket", OSS, DELETE, &["bucket"], OSS_BUCKET, &[]),
            api(
                "PutBucketAcl",
                OSS,
                &["set", "modify", "configure", "change"],
                &["bucket ACL", "bucket ACLs", "ACL of a bucket", "ACL"],
                OSS_BUCKET,
                &[],
            ),
            api(
                "PutBucketLifecycle",
                OSS,
                &["configure", "create", "add", "set"],
                &["lifecycle rules", "lifecycle rule"],
                OSS_BUCKET,
                &[],
            ),
            api(
                "PutBucketVersioning",
                OSS,
                &["configure", "enable", "suspend", "set"],
                &["versioning"],
                OSS_BUCKET,
                &[],
            ),
            api(
                "PutBucketWebsite",
                OSS,
                &["configure", "set", "enable"],
                &["static website hosting", "static website", "static pages"],
                OSS_BUCKET,
                &[],
            ),
            api(
                "PutObject",
                OSS,
                &["upload", "create"],
                &[
                    "objects",
                    "object",
                    "files",
                    "file",
                    "directories",
                    "directory",
                    "folders",
                    "folder",
                ],
                OSS_BUCKET,
                &[],
            ),
            api(
                "DeleteObject",
                OSS,
                &["delete"],
                &["objects", "object"],
                OSS_BUCKET,
                &[],
            ),
        ],
    },
    ProductEntry {
        name: "Simple Log Service",
        aliases: &["Log Service", "SLS"],
        same_task: &[],
        choices: &[],
        operations: &[
            api(
                "CreateProject",
                SLS,
                CREATE,
                &["project"],
                SLS_PROJECT,
                &[("Project Name", "projectName"), ("Description", "description")],
            ),
            api("DeleteProject", SLS, DELETE, &["project"], SLS_PROJECT, &[]),
            api(
                "CreateLogStore",
                SLS,
                CREATE,
                &["Logstore", "Logstores"],
                SLS_LOGSTORE,
                &[("Logstore Name", "logstoreName")],
            ),
            api("UpdateLogStore", SLS, MODIFY, &["Logstore"], SLS_LOGSTORE, &[]),
            api("DeleteLogStore", SLS, DELETE, &["Logstore"], SLS_LOGSTORE, &[]),
            api(
                "CreateIndex",
                SLS,
                &["configure", "create", "enable"],
                &["indexes", "index", "full-text indexes"],
                SLS_LOGSTORE,
                &[],
            ),
            api("UpdateIndex", SLS, MODIFY, &["indexes", "index"], SLS_LOGSTORE, &[]),
        ],
    },
    ProductEntry {
        name: "Container Service for Kubernetes",
        aliases: &["ACK", "Container Service", "ACK console"],
        same_task: &[],
        choices: &[],
        operations: &[
            api(
                "OpenAckService",
                CS,
                &["activate"],
                &["ACK", "Container Service for Kubernetes"],
                None,
                &[],
            ),
            // RAM's quick authorization creates ACK's service roles with CreateRole.
            api(
                "CreateRole",
                RAM,
                &["assign", "grant"],
                &["default roles", "roles", "service roles", "RAM roles"],
                RAM_ROLE,
                &[],
            ),
        ],
    },
];

/// The product a page title or console name means: its name or an alias, with or without
/// `console`, in any case.
pub fn product(name: &str) -> Option<&'static ProductEntry> {
    let wanted = normalise_product(name);
    PRODUCTS
        .iter()
        .find(|p| normalise_product(p.name) == wanted || p.aliases.iter().any(|a| normalise_product(a) == wanted))
}

fn normalise_product(name: &str) -> String {
    let lower = name.trim().to_lowercase();
    let stripped = lower
        .strip_prefix("the ")
        .unwrap_or(&lower)
        .trim_end_matches(" console")
        .trim();
    stripped.to_owned()
}

/// The catalog entries whose event or API operation is `name` (`CreateDBInstance` finds the RDS
/// buy page's `Create`), in `product` first when given.
pub fn by_operation(name: &str, product: Option<&ProductEntry>) -> Vec<&'static OperationEntry> {
    let in_product = |p: &ProductEntry| product.is_none_or(|wanted| std::ptr::eq(wanted, p));
    let all = || PRODUCTS.iter().flat_map(|p| p.operations.iter().map(move |o| (p, o)));
    let found: Vec<&OperationEntry> = all()
        .filter(|(p, o)| in_product(p) && (o.api == name || (o.event_name == name && !o.is_purchase())))
        .map(|(_, o)| o)
        .collect();
    if found.is_empty() && product.is_some() {
        return by_operation(name, None);
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_products_by_the_names_pages_use() {
        assert_eq!(product("VPC console").map(|p| p.name), Some("Virtual Private Cloud"));
        assert_eq!(
            product("Elastic Compute Service").map(|p| p.name),
            Some("Elastic Compute Service")
        );
        assert_eq!(
            product("the RAM console").map(|p| p.name),
            Some("Resource Access Management")
        );
        assert_eq!(product("ApsaraDB RDS console").map(|p| p.name), Some("ApsaraDB RDS"));
        assert!(product("Quantum Annealer").is_none());
    }

    #[test]
    fn alb_and_clb_create_load_balancer_stay_two_operations() {
        let alb = product("ALB console").unwrap();
        let found = by_operation("CreateLoadBalancer", Some(alb));
        assert_eq!(found.len(), 1);
        assert_eq!(
            (found[0].service_name, found[0].resource_type, found[0].is_purchase()),
            ("Alb", Some("ACS::ALB::LoadBalancer"), true)
        );
        let clb = by_operation("CreateLoadBalancer", product("CLB"));
        assert_eq!((clb.len(), clb[0].service_name), (1, "Slb"));
        assert_eq!(by_operation("CreateLoadBalancer", None).len(), 2);
    }

    #[test]
    fn a_buy_page_api_finds_the_create_console_operation() {
        let found = by_operation("CreateDBInstance", None);
        assert_eq!(found.len(), 1);
        assert_eq!((found[0].event_name, found[0].service_name), ("Create", "Rds"));
        assert!(found[0].is_purchase());
        assert!(
            by_operation("Create", None).is_empty(),
            "Create alone names no single operation"
        );
    }

    #[test]
    fn every_product_has_operations_and_fourteen_products_are_covered() {
        assert_eq!(PRODUCTS.len(), 14);
        for p in PRODUCTS {
            assert!(!p.operations.is_empty(), "{}", p.name);
            for op in p.operations {
                assert!(!op.verbs.is_empty() && !op.objects.is_empty(), "{}", op.api);
            }
        }
    }

    #[test]
    fn every_same_task_group_names_operations_of_its_own_product() {
        for product in PRODUCTS {
            for group in product.same_task {
                assert!(group.len() > 1, "{}: {group:?} is no group", product.name);
                for name in *group {
                    assert!(
                        product.operations.iter().any(|o| o.event_name == *name),
                        "{}: {name} is not in its catalogue",
                        product.name
                    );
                }
            }
        }
    }

    #[test]
    fn every_choice_names_operations_of_its_own_product() {
        for product in PRODUCTS {
            for choice in product.choices {
                assert!(choice.event_names.len() > 1, "{}: {} offers no choice", product.name, choice.control);
                for name in choice.event_names {
                    assert!(
                        product.operations.iter().any(|o| o.event_name == *name),
                        "{}: {} calls {name}, which is not in its catalogue",
                        product.name,
                        choice.control
                    );
                }
            }
        }
    }

    #[test]
    fn acks_first_use_sections_name_its_activation_and_its_roles() {
        let ack = product("ACK console").unwrap();
        let ops: Vec<&str> = ack.operations.iter().map(|o| o.event_name).collect();
        assert_eq!(ops, ["OpenAckService", "CreateRole"]);
        assert_eq!(ack.operations[1].service_name, "Ram");
    }
}
