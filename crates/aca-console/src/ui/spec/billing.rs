//! The Expenses and Costs console's Renewal page (the account's subscription instances on the
//! Manual, Auto and Nonrenewal tabs, with Enable Auto Renewal, Edit Auto Renewal, Nonrenewal and
//! Enable Manual Renewal), and the top bar's Billing menu that opens it from every console.

use super::*;
use crate::profile::Placement::Inline;

/// A menu of the top bar: its label and its items, each a page of a console (label, console
/// code, page id).
pub struct TopMenu {
    pub label: &'static str,
    pub items: &'static [(&'static str, &'static str, &'static str)],
}

/// The top bar's menus, shown in every console. Billing > Renewals (DMS's renew page, 2026-02-28;
/// "In the upper-right corner of the page, click Billing", Realtime Compute's auto-renewal page)
/// opens the Renewal page.
pub const TOP_MENUS: &[TopMenu] = &[TopMenu {
    label: "Billing",
    items: &[("Renewals", "usercenter2", "renewal")],
}];

/// The auto-renewal periods SetRenewal takes in months.
const PERIODS: &[(&str, &str)] = &[
    ("1", "1 Month"),
    ("2", "2 Months"),
    ("3", "3 Months"),
    ("6", "6 Months"),
    ("12", "12 Months"),
];

/// A row form that sets the row's instance to auto renewal for the period chosen in the field `period`.
fn auto_renewal(id: &str, label: &str, period: &str, submit: &str) -> RowAction {
    row_form(
        label,
        Inline,
        form(
            id,
            label,
            label,
            Container::Dialog,
            "SetRenewal",
            vec![step(
                "",
                vec![
                    field(period, "RenewalPeriod", select(PERIODS))
                        .required()
                        .default("1")
                        .help("The system renews the instance for this duration each time it expires."),
                ],
            )],
        )
        .for_row("InstanceIDs")
        .fixed(&[("RenewalStatus", "AutoRenewal"), ("RenewalPeriodUnit", "M")])
        .compose("ProductCode", "{row.ProductCode}")
        .submit(submit)
        .success("The renewal settings are saved."),
    )
}

/// A confirmed call that sets the row's instance to `status`.
fn set_status(label: &str, status: &str, message: &str) -> RowAction {
    call(label, Inline, "SetRenewal", "InstanceIDs", confirm(label, message))
        .with_fixed(&[("RenewalStatus", status)])
        .with_row(&[("ProductCode", "ProductCode")])
}

pub fn expenses() -> ProductSpec {
    // Tair's renewal page (2026-03-28): "Go to the Renewal page. Enter the instance ID in the
    // Instance ID field to find the instance. In the Actions column, click Edit Auto Renewal to
    // change the cycle, or Enable Manual Renewal to disable auto-renewal." The tabs and dialogs:
    // DMS's renew page (2026-02-28) and MaxCompute's renewal management (2024-08-07).
    let mut renewal = page(
        "renewal",
        "Renewal",
        "QueryAvailableInstances",
        "Data.InstanceList",
        "InstanceID",
        "InstanceID",
    );
    renewal.regional = false;
    renewal.total_path = Some(s("Data.TotalCount"));
    renewal.page_param = s("PageNum");
    renewal.page_size = 20;
    renewal.id_param = s("InstanceIDs");
    renewal.list_tabs = vec![
        list_tab_of("Manual", &[("RenewStatus", "ManualRenewal")]),
        list_tab_of("Auto", &[("RenewStatus", "AutoRenewal")]),
        list_tab_of("Nonrenewal", &[("RenewStatus", "NotRenewal")]),
    ];
    // "On the Renewal page, set the Instances parameter to dms" (DMS's renew page, 2026-02-28): a
    // drop-down list of the products' codes, narrowing the list to one product's instances.
    renewal.filter = Some(ListFilter {
        field: field("Instances", "filter", select(&[("redisa", "redisa"), ("rds", "rds")])),
        params: pairs(&[("ProductCode", "{v}")]),
    });
    renewal.search = search(&[("Instance ID", "InstanceIDs")]);
    renewal.columns = vec![col("Instance ID", "InstanceID", ColumnKind::Text)];
    let auto = DisableWhen::Is(vec![s("AutoRenewal")]);
    let not_auto = DisableWhen::IsNot(vec![s("AutoRenewal")]);
    renewal.row_actions = vec![
        auto_renewal("enable-auto-renewal", "Enable Auto Renewal", "Unified Auto Renewal Cycle", "Auto Renew")
            .disabled_when("RenewStatus", auto, "Auto-renewal is already enabled for the instance."),
        auto_renewal("edit-auto-renewal", "Edit Auto Renewal", "Auto-renewal Duration", "OK").disabled_when(
            "RenewStatus",
            not_auto.clone(),
            "Auto-renewal is not enabled for the instance.",
        ),
        set_status(
            "Enable Manual Renewal",
            "ManualRenewal",
            "The instance will no longer be renewed automatically. Renew it manually before it expires.",
        )
        .disabled_when("RenewStatus", not_auto, "Auto-renewal is not enabled for the instance."),
        set_status(
            "Nonrenewal",
            "NotRenewal",
            "The instance will not be renewed and is released after it expires.",
        )
        .disabled_when(
            "RenewStatus",
            DisableWhen::Is(vec![s("NotRenewal")]),
            "The instance is already set not to be renewed.",
        ),
    ];
    ProductSpec {
        gate: None,
        code: s("usercenter2"),
        api: s("bssopenapi"),
        name: s("Expenses and Costs"),
        nav: nav(&[("", &[("Renewal", "renewal")])]),
        pages: vec![renewal],
    }
}
