//! Virtual MFA devices and their binding to RAM users: the device's setup key is made here and the
//! two consecutive codes a binding needs are checked against it as TOTP (RFC 6238).

use base64::Engine;

use super::*;

/// The key's bytes: 20, as RFC 4226 recommends for SHA-1 (32 Base32 characters).
const KEY_BYTES: usize = 20;
/// Steps a device's clock may be off by either way.
const CODE_DRIFT_STEPS: u64 = 1;
/// The type `GetUserMFAInfo` gives a virtual MFA device.
const VIRTUAL_MFA: &str = "VMFA";

fn device_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '.' | '-')
}

fn serial_number(ctx: &OpCtx<'_>, name: &str) -> String {
    format!("acs:ram::{}:mfa/{name}", ctx.account().id)
}

fn find_device(ctx: &OpCtx<'_>, serial: &str) -> Result<Resource, ApiError> {
    ctx.get(serial)
        .filter(|r| r.kind == MFA_DEVICE)
        .ok_or_else(|| not_exist("VirtualMFADevice", "The virtual MFA device does not exist."))
}

/// The device bound to a user, if any.
pub(super) fn device_of(ctx: &OpCtx<'_>, user: &str) -> Option<Resource> {
    ctx.list_all(MFA_DEVICE).into_iter().find(|d| d.attr_str("UserName") == user)
}

fn device_json(device: &Resource) -> Value {
    let mut body = json!({ "SerialNumber": device.id });
    if !device.attr_str("UserName").is_empty() {
        body["User"] = json!({ "UserName": device.attr_str("UserName") });
        body["ActivateDate"] = json!(device.attr_str("ActivateDate"));
    }
    body
}

pub(super) fn create_virtual_mfa_device(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let name = p.required("VirtualMFADeviceName")?;
    check_name("VirtualMFADeviceName", name, 64, device_name_char)?;
    let serial = serial_number(ctx, name);
    if ctx.get(&serial).is_some() {
        return Err(already_exists(
            "VirtualMFADevice",
            "The virtual MFA device does already EXIST.",
        ));
    }
    let mut key = [0u8; KEY_BYTES];
    rand::rng().fill(&mut key[..]);
    let seed = aca_otp::encode_key(&key);
    let account = ctx.account().id.clone();
    // What the QR code encodes, as authenticator apps read it.
    let uri = format!("otpauth://totp/{name}@{account}?secret={seed}");
    let device = Resource::new(MFA_DEVICE, serial.clone(), GLOBAL, name, "Unbound", ctx.now_ms).with("Seed", seed.clone());
    ctx.put(device);
    Ok(json!({
        "VirtualMFADevice": {
            "SerialNumber": serial,
            "Base32StringSeed": seed,
            "QRCodePNG": base64::engine::general_purpose::STANDARD.encode(qr_code_png(&uri)?),
        }
    }))
}

/// A PNG image of the QR code of `text`, as an authenticator app's camera reads it.
fn qr_code_png(text: &str) -> Result<Vec<u8>, ApiError> {
    let failed = |what: String| ApiError::internal(format!("The QR code cannot be drawn: {what}"));
    let code = qrcode::QrCode::new(text.as_bytes()).map_err(|e| failed(e.to_string()))?;
    let image = code.render::<image::Luma<u8>>().min_dimensions(200, 200).build();
    let mut png = std::io::Cursor::new(Vec::new());
    image
        .write_to(&mut png, image::ImageFormat::Png)
        .map_err(|e| failed(e.to_string()))?;
    Ok(png.into_inner())
}

pub(super) fn list_virtual_mfa_devices(ctx: &mut OpCtx<'_>, _p: &Params) -> Result<Value, ApiError> {
    let devices: Vec<Value> = ctx.list_all(MFA_DEVICE).iter().map(device_json).collect();
    Ok(json!({ "VirtualMFADevices": { "VirtualMFADevice": devices } }))
}

pub(super) fn delete_virtual_mfa_device(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let device = find_device(ctx, p.required("SerialNumber")?)?;
    if !device.attr_str("UserName").is_empty() {
        return Err(delete_conflict(
            "VirtualMFADevice.User",
            "The virtual MFA device CAN NOT be bound to any user while deleting it.",
        ));
    }
    ctx.delete(&device.id);
    Ok(json!({}))
}

pub(super) fn bind_mfa_device(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let serial = p.required("SerialNumber")?;
    let user = p.required("UserName")?;
    let first = p.required("AuthenticationCode1")?;
    let second = p.required("AuthenticationCode2")?;
    find_user(ctx, user)?;
    let mut device = find_device(ctx, serial)?;
    if !device.attr_str("UserName").is_empty() {
        return Err(already_exists(
            "VirtualMFADevice.User",
            "The virtual MFA device is already bound to a user.",
        ));
    }
    if device_of(ctx, user).is_some() {
        return Err(already_exists("User.MFADevice", "The user already has an MFA device."));
    }
    let key = aca_otp::decode_key(device.attr_str("Seed")).map_err(|_| {
        ApiError::internal("The request processing has failed due to some unknown error.")
    })?;
    let now_s = u64::try_from(ctx.now_ms / 1000).unwrap_or_default();
    if !aca_otp::consecutive(&key, first, second, now_s, CODE_DRIFT_STEPS) {
        return Err(ram_error(
            StatusCode::BAD_REQUEST,
            "InvalidParameter.AuthenticationCode",
            "The MFA authentication codes are incorrect or not consecutive.",
        ));
    }
    device.status = "Bound".into();
    device.set("UserName", user);
    device.set("ActivateDate", iso8601(ctx.now_ms));
    ctx.reference(USER_TYPE, user);
    ctx.put(device);
    Ok(json!({}))
}

pub(super) fn unbind_mfa_device(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let user = p.required("UserName")?;
    find_user(ctx, user)?;
    let mut device = device_of(ctx, user)
        .ok_or_else(|| not_exist("User.MFADevice", "The user does not have any MFA device."))?;
    let body = json!({ "MFADevice": { "SerialNumber": device.id } });
    unbound(ctx, &mut device);
    ctx.reference(USER_TYPE, user);
    Ok(body)
}

/// Frees a device of its user.
pub(super) fn unbound(ctx: &mut OpCtx<'_>, device: &mut Resource) {
    device.status = "Unbound".into();
    device.attrs.remove("UserName");
    device.attrs.remove("ActivateDate");
    ctx.put(device.clone());
}

pub(super) fn get_user_mfa_info(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let user = p.required("UserName")?;
    find_user(ctx, user)?;
    let device = device_of(ctx, user)
        .ok_or_else(|| not_exist("User.MFADevice", "The user does not have any MFA device."))?;
    ctx.reference(USER_TYPE, user);
    Ok(json!({ "MFADevice": { "SerialNumber": device.id, "Type": VIRTUAL_MFA } }))
}
