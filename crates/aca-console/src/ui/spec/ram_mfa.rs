//! A RAM user's Virtual MFA Device tab and its Enable the Virtual MFA Device dialog, per
//! enable-mfa.md (the archived page of today's flow) and the RAM API reference.

use super::*;

/// The user's MFA device (`GetUserMFAInfo`, none bound: an empty list) and the dialog that binds
/// one: as it opens, the console makes a virtual MFA device named after the user and shows its QR
/// code on the Scan the code. tab, and the username and key for an app's manual entry on the
/// Retrieve manually enter information. tab; the two consecutive codes typed then bind it
/// (`BindMFADevice`).
pub(super) fn user_mfa_device() -> PageSpec {
    let mut device = page(
        "user-mfa-device",
        "Virtual MFA Device",
        "GetUserMFAInfo",
        "MFADevice",
        "SerialNumber",
        "SerialNumber",
    )
    .under("users", "UserName");
    device.total_path = None;
    device.empty_codes = vec![s("EntityNotExist.User.MFADevice")];
    device.columns = vec![
        col("Serial Number", "SerialNumber", ColumnKind::Mono),
        col("Type", "Type", ColumnKind::Text),
    ];
    device.creates = vec![
        form(
            "enable-virtual-mfa",
            "Enable the Virtual MFA Device",
            "Enable the Virtual MFA Device",
            Container::Dialog,
            "BindMFADevice",
            vec![step(
                "",
                vec![
                    field("Verification Code 1", "AuthenticationCode1", FieldKind::Text).required(),
                    field("Verification Code 2", "AuthenticationCode2", FieldKind::Text).required(),
                ],
            )],
        )
        .opened_by(OpeningCall {
            action: s("CreateVirtualMFADevice"),
            params: pairs(&[("VirtualMFADeviceName", "{UserName}")]),
            // The username is the account name the QR code gives an authenticator app.
            shows: vec![
                ShownTab::new("Scan the code.", &[("QR code", "VirtualMFADevice.QRCodePNG", Shown::QrCode)]),
                ShownTab::new(
                    "Retrieve manually enter information.",
                    &[
                        ("Username", "{UserName}@{account}", Shown::Composed),
                        ("Key", "VirtualMFADevice.Base32StringSeed", Shown::Text),
                    ],
                ),
            ],
            carry: pairs(&[("SerialNumber", "VirtualMFADevice.SerialNumber")]),
        })
        .submit("Enable")
        .success("The virtual MFA device is enabled."),
    ];
    device
}
