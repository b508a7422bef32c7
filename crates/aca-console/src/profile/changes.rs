//! The 2024 console release, written as the typed changes that turn today's (2026) console back into
//! it. The UI applies these to its page specs, and [`super::drift`] lists them, so the drift report
//! is exactly what a user of one release finds different in the other.

use super::{Difference, DifferenceKind, Placement};

/// One difference between the 2024 and the 2026 console. Pages are named by their id in the product's
/// spec; `nav` is the left-side navigation pane and `product` the product's title.
#[derive(Debug, Clone, Copy)]
pub enum Change {
    /// A label (button, title, menu item, field, dialog title) reads differently.
    Rename {
        product: &'static str,
        page: &'static str,
        what: &'static str,
        in_2024: &'static str,
        in_2026: &'static str,
    },
    /// A row action sits somewhere else.
    MoveAction {
        product: &'static str,
        page: &'static str,
        action: &'static str,
        in_2024: Placement,
        in_2026: Placement,
    },
    /// A form field that 2026 requires and 2024 does not have.
    NewRequiredField {
        product: &'static str,
        page: &'static str,
        form: &'static str,
        field: &'static str,
    },
    /// A batch button below the list that 2024 has and 2026 removed.
    RemovedBatchButton {
        product: &'static str,
        page: &'static str,
        label: &'static str,
        action: &'static str,
        id_param: &'static str,
    },
    /// The steps of a wizard or buy page come in another order.
    ReorderSteps {
        product: &'static str,
        page: &'static str,
        form: &'static str,
        in_2024: &'static [&'static str],
        in_2026: &'static [&'static str],
    },
    /// A menu item of the navigation pane sits in another group (`""` is the top level).
    RegroupMenu {
        product: &'static str,
        item: &'static str,
        in_2024: &'static str,
        in_2026: &'static str,
    },
}

use Change::*;
use Placement::{AllActions, Inline, More};

/// Every change, product by product.
pub static CHANGES_2024: &[Change] = &[
    // Virtual Private Cloud
    Rename {
        product: "vpc",
        page: "vpcs",
        what: "confirmation button",
        in_2024: "Confirm",
        in_2026: "OK",
    },
    MoveAction {
        product: "vpc",
        page: "vpcs",
        action: "Delete",
        in_2024: More,
        in_2026: Inline,
    },
    Rename {
        product: "vpc",
        page: "nav",
        what: "menu item",
        in_2024: "vSwitches",
        in_2026: "vSwitch",
    },
    Rename {
        product: "vpc",
        page: "vswitches",
        what: "page title",
        in_2024: "vSwitches",
        in_2026: "vSwitch",
    },
    RemovedBatchButton {
        product: "vpc",
        page: "vswitches",
        label: "Delete",
        action: "DeleteVSwitch",
        id_param: "VSwitchId",
    },
    // Elastic Compute Service
    Rename {
        product: "ecs",
        page: "nav",
        what: "menu item",
        in_2024: "Disks",
        in_2026: "Block Storage",
    },
    Rename {
        product: "ecs",
        page: "disks",
        what: "page title",
        in_2024: "Disks",
        in_2026: "Block Storage",
    },
    MoveAction {
        product: "ecs",
        page: "instances",
        action: "Stop",
        in_2024: Inline,
        in_2026: More,
    },
    MoveAction {
        product: "ecs",
        page: "instances",
        action: "Restart",
        in_2024: More,
        in_2026: AllActions,
    },
    // stop-instance-old.md (2023-11-23) ends the Stop dialog with OK; stop-instance.md (2026-04-28)
    // with Confirm.
    Rename {
        product: "ecs",
        page: "instances",
        what: "confirmation button",
        in_2024: "OK",
        in_2026: "Confirm",
    },
    NewRequiredField {
        product: "ecs",
        page: "instances",
        form: "buy-instance",
        field: "Logon Password",
    },
    ReorderSteps {
        product: "ecs",
        page: "instances",
        form: "buy-instance",
        in_2024: &["Basic Configurations", "System Configurations", "Networking", "Preview"],
        in_2026: &["Basic Configurations", "Networking", "System Configurations", "Preview"],
    },
    Rename {
        product: "ecs",
        page: "instances",
        what: "buy page button",
        in_2024: "Create Order",
        in_2026: "Confirm Order",
    },
    RemovedBatchButton {
        product: "ecs",
        page: "instances",
        label: "Stop",
        action: "StopInstance",
        id_param: "InstanceId",
    },
    Rename {
        product: "ecs",
        page: "security-groups",
        what: "row action",
        in_2024: "Configure Rules",
        in_2026: "Manage Rules",
    },
    // Server Load Balancer
    ReorderSteps {
        product: "slb",
        page: "instances",
        form: "listener-wizard",
        in_2024: &["Protocol & Listener", "SSL Certificates", "Health Check", "Backend Servers", "Confirm"],
        in_2026: &["Protocol & Listener", "SSL Certificates", "Backend Servers", "Health Check", "Confirm"],
    },
    MoveAction {
        product: "slb",
        page: "instances",
        action: "Stop",
        in_2024: More,
        in_2026: AllActions,
    },
    Rename {
        product: "slb",
        page: "instances",
        what: "create button",
        in_2024: "Create Instance",
        in_2026: "Create CLB",
    },
    // ApsaraDB RDS
    Rename {
        product: "rds",
        page: "instances",
        what: "row action",
        in_2024: "Release",
        in_2026: "Release Instance",
    },
    Rename {
        product: "rds",
        page: "instances",
        what: "confirmation button",
        in_2024: "OK",
        in_2026: "Confirm",
    },
    MoveAction {
        product: "rds",
        page: "instances",
        action: "Restart",
        in_2024: Inline,
        in_2026: More,
    },
    // Tair
    Rename {
        product: "tair",
        page: "product",
        what: "product name",
        in_2024: "ApsaraDB for Redis",
        in_2026: "Tair (Redis OSS-compatible)",
    },
    Rename {
        product: "tair",
        page: "instances",
        what: "buy page title",
        in_2024: "ApsaraDB for Redis (Pay-As-You-Go)",
        in_2026: "Tair (Redis OSS-compatible) (Pay-As-You-Go)",
    },
    // Resource Access Management
    Rename {
        product: "ram",
        page: "users",
        what: "panel title",
        in_2024: "Add Permissions",
        in_2026: "Grant Permission",
    },
    // Key Management Service
    RegroupMenu {
        product: "kms",
        item: "Keys",
        in_2024: "",
        in_2026: "Resource",
    },
    MoveAction {
        product: "kms",
        page: "keys",
        action: "Schedule Key Deletion",
        in_2024: Inline,
        in_2026: More,
    },
    Rename {
        product: "kms",
        page: "keys",
        what: "field label",
        in_2024: "Key Type",
        in_2026: "Key Specification",
    },
    // ActionTrail
    RegroupMenu {
        product: "actiontrail",
        item: "Event Query",
        in_2024: "",
        in_2026: "Events",
    },
    Rename {
        product: "actiontrail",
        page: "trails",
        what: "panel button",
        in_2024: "Submit",
        in_2026: "Create",
    },
    // CloudMonitor
    Rename {
        product: "cms",
        page: "nav",
        what: "menu group",
        in_2024: "Alarms",
        in_2026: "Alert Service",
    },
    Rename {
        product: "cms",
        page: "nav",
        what: "menu item",
        in_2024: "Alarm Rules",
        in_2026: "Alert Rules",
    },
    Rename {
        product: "cms",
        page: "alert-rules",
        what: "page title",
        in_2024: "Alarm Rules",
        in_2026: "Alert Rules",
    },
    Rename {
        product: "cms",
        page: "alert-rules",
        what: "create button",
        in_2024: "Create Alarm Rule",
        in_2026: "Create Alert Rule",
    },
    NewRequiredField {
        product: "cms",
        page: "alert-rules",
        form: "create-alert-rule",
        field: "Alert Contact Group",
    },
    // Alibaba Cloud DNS
    Rename {
        product: "dns",
        page: "nav",
        what: "menu item",
        in_2024: "Authoritative DNS Resolution",
        in_2026: "Public Authoritative Resolution",
    },
    Rename {
        product: "dns",
        page: "domains",
        what: "page title",
        in_2024: "Authoritative DNS Resolution",
        in_2026: "Public Authoritative Resolution",
    },
    MoveAction {
        product: "dns",
        page: "domains",
        action: "Delete",
        in_2024: Inline,
        in_2026: More,
    },
    // Object Storage Service: the 2024 Create Bucket panel ended with OK.
    Rename {
        product: "oss",
        page: "buckets",
        what: "panel button",
        in_2024: "OK",
        in_2026: "Create",
    },
    MoveAction {
        product: "oss",
        page: "objects",
        action: "Delete",
        in_2024: Inline,
        in_2026: More,
    },
    // Simple Log Service
    // 2026 puts Modify in the Logstore's icon menu beside Delete (delete-logstore.md); 2024 showed it
    // in the row.
    MoveAction {
        product: "sls",
        page: "logstores",
        action: "Modify",
        in_2024: Inline,
        in_2026: More,
    },
];

impl Change {
    pub fn product(&self) -> &'static str {
        match *self {
            Rename { product, .. }
            | MoveAction { product, .. }
            | NewRequiredField { product, .. }
            | RemovedBatchButton { product, .. }
            | ReorderSteps { product, .. }
            | RegroupMenu { product, .. } => product,
        }
    }

    /// The page the change shows on (`nav` for menu changes).
    pub fn page(&self) -> &'static str {
        match *self {
            Rename { page, .. }
            | MoveAction { page, .. }
            | NewRequiredField { page, .. }
            | RemovedBatchButton { page, .. }
            | ReorderSteps { page, .. } => page,
            RegroupMenu { .. } => "nav",
        }
    }

    /// The change as a user of one release sees it in the other: `forward` is 2024 → 2026.
    pub fn difference(&self, forward: bool) -> Difference {
        let (kind, control, in_2024, in_2026): (DifferenceKind, String, String, String) = match *self {
            Rename {
                what, in_2024, in_2026, ..
            } => (
                DifferenceKind::RenamedLabel,
                what.to_owned(),
                in_2024.to_owned(),
                in_2026.to_owned(),
            ),
            MoveAction {
                action,
                in_2024,
                in_2026,
                ..
            } => (
                DifferenceKind::MovedControl,
                action.to_owned(),
                in_2024.describe().to_owned(),
                in_2026.describe().to_owned(),
            ),
            NewRequiredField { field, form, .. } => (
                if forward {
                    DifferenceKind::NewRequiredField
                } else {
                    DifferenceKind::RemovedField
                },
                format!("{form} field"),
                String::new(),
                format!("{field} (required)"),
            ),
            RemovedBatchButton { label, .. } => (
                if forward {
                    DifferenceKind::RemovedBatchButton
                } else {
                    DifferenceKind::AddedBatchButton
                },
                "batch button".to_owned(),
                label.to_owned(),
                String::new(),
            ),
            ReorderSteps {
                form, in_2024, in_2026, ..
            } => (
                DifferenceKind::ReorderedSteps,
                form.to_owned(),
                in_2024.join(" > "),
                in_2026.join(" > "),
            ),
            RegroupMenu {
                item, in_2024, in_2026, ..
            } => (
                DifferenceKind::RegroupedMenu,
                item.to_owned(),
                menu_path(in_2024, item),
                menu_path(in_2026, item),
            ),
        };
        let (before, after) = if forward {
            (in_2024, in_2026)
        } else {
            (in_2026, in_2024)
        };
        Difference {
            product: self.product().to_owned(),
            page: self.page().to_owned(),
            kind,
            control,
            before,
            after,
        }
    }
}

fn menu_path(group: &str, item: &str) -> String {
    if group.is_empty() {
        item.to_owned()
    } else {
        format!("{group} > {item}")
    }
}
