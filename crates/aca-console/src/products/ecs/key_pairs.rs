//! SSH key pairs: created by the service or imported from a public key.

use super::*;

pub(super) fn key_pair_named(ctx: &OpCtx<'_>, name: &str) -> Result<Resource, ApiError> {
    ctx.list(KEY_PAIR).into_iter().find(|k| k.name == name).ok_or_else(|| {
        error(
            StatusCode::NOT_FOUND,
            "InvalidKeyPairName.NotFound",
            "The specified parameter \"KeyPairName\" does not exist in our records.",
        )
    })
}

/// Key pair names: 2–128 characters, starting with a letter; letters, digits, `.`, `_`, `-`, `:`.
pub(super) fn new_key_pair_name<'a>(ctx: &OpCtx<'_>, p: &'a Params) -> Result<&'a str, ApiError> {
    let name = p.required("KeyPairName")?;
    if check_name("KeyPairName", name).is_err() {
        return Err(error(
            StatusCode::BAD_REQUEST,
            "InvalidKeyPairName.Malformed",
            "Specified Key Pair name is not valid.",
        ));
    }
    if key_pair_named(ctx, name).is_ok() {
        return Err(ApiError::already_exists(
            "KeyPair.AlreadyExist",
            "The key pair already exist.",
        ));
    }
    Ok(name)
}

/// `aa:bb:…`: 16 colon-separated bytes of a digest of the public key material, the shape of the
/// fingerprints ECS shows.
pub(super) fn fingerprint(public_key: &[u8]) -> String {
    let digest = sha2::Sha256::digest(public_key);
    digest[..16]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<Vec<_>>()
        .join(":")
}

/// An SSH public key line: `ssh-rsa AAAA… [comment]`. Returns the decoded key blob.
pub(super) fn parse_public_key(line: &str) -> Result<Vec<u8>, ApiError> {
    let bad = || {
        error(
            StatusCode::BAD_REQUEST,
            "InvalidPublicKeyBody.Malformed",
            "The PublicKeyBody format is not supported.",
        )
    };
    let mut fields = line.split_whitespace();
    let key_type = fields.next().ok_or_else(bad)?;
    let encoded = fields.next().ok_or_else(bad)?;
    const TYPES: &[&str] = &[
        "ssh-rsa",
        "ssh-ed25519",
        "ecdsa-sha2-nistp256",
        "ecdsa-sha2-nistp384",
        "ecdsa-sha2-nistp521",
    ];
    if !TYPES.contains(&key_type) {
        return Err(bad());
    }
    let blob = base64::engine::general_purpose::STANDARD
        .decode(encoded)
        .map_err(|_| bad())?;
    // The blob starts with the key type as an SSH string: a 4-byte length, then the name.
    let length = blob
        .get(..4)
        .map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]) as usize)
        .ok_or_else(bad)?;
    if blob.get(4..4 + length) != Some(key_type.as_bytes()) {
        return Err(bad());
    }
    Ok(blob)
}

pub(super) fn put_key_pair(
    ctx: &mut OpCtx<'_>,
    p: &Params,
    name: &str,
    finger_print: &str,
) -> Result<String, ApiError> {
    let id = ctx.new_id("kp");
    let key_pair = Resource::new(KEY_PAIR, id.clone(), &ctx.region, name, "Available", ctx.now_ms)
        .with("KeyPairFingerPrint", finger_print)
        .with("ResourceGroupId", p.get("ResourceGroupId").unwrap_or("rg-default"))
        .with("Tags", tags(p)?);
    ctx.reference(KEY_PAIR_REF, name);
    ctx.put(key_pair);
    Ok(id)
}

/// Creates a key pair and hands back its private key, which the console never shows again.
pub(super) fn create_key_pair(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    region(&ctx.region)?;
    let name = new_key_pair_name(ctx, p)?;
    // The emulator runs no machines, so the key material only has to be unique and PEM-shaped.
    let mut material = vec![0u8; 1190];
    rand::rng().fill(&mut material[..]);
    let encoded = base64::engine::general_purpose::STANDARD.encode(&material);
    let lines: Vec<&str> = encoded
        .as_bytes()
        .chunks(64)
        .map(|chunk| std::str::from_utf8(chunk).unwrap_or_default())
        .collect();
    let private_key = format!(
        "-----BEGIN RSA PRIVATE KEY-----\n{}\n-----END RSA PRIVATE KEY-----",
        lines.join("\n")
    );
    let finger_print = fingerprint(&material);
    let id = put_key_pair(ctx, p, name, &finger_print)?;
    Ok(json!({
        "KeyPairId": id,
        "KeyPairName": name,
        "KeyPairFingerPrint": finger_print,
        "PrivateKeyBody": private_key,
    }))
}

pub(super) fn import_key_pair(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    region(&ctx.region)?;
    let name = new_key_pair_name(ctx, p)?;
    let blob = parse_public_key(p.required("PublicKeyBody")?)?;
    let finger_print = fingerprint(&blob);
    put_key_pair(ctx, p, name, &finger_print)?;
    Ok(json!({ "KeyPairName": name, "KeyPairFingerPrint": finger_print }))
}

pub(super) fn describe_key_pairs(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    region(&ctx.region)?;
    let name = p.get("KeyPairName");
    let finger_print = p.get("KeyPairFingerPrint");
    let pairs: Vec<Resource> = ctx
        .list(KEY_PAIR)
        .into_iter()
        .filter(|k| name.is_none_or(|n| glob_match(n, &k.name)))
        .filter(|k| finger_print.is_none_or(|f| k.attr_str("KeyPairFingerPrint") == f))
        .collect();
    let (page, number, size, total) = paginate(pairs, p, 50)?;
    let items: Vec<Value> = page
        .iter()
        .map(|k| {
            json!({
                "KeyPairName": k.name,
                "KeyPairFingerPrint": k.attr_str("KeyPairFingerPrint"),
                "CreationTime": iso8601(k.created_ms),
                "ResourceGroupId": k.attr_str("ResourceGroupId"),
                "Tags": { "Tag": attr_array(k, "Tags") },
            })
        })
        .collect();
    Ok(json!({ "TotalCount": total, "PageNumber": number, "PageSize": size, "KeyPairs": { "KeyPair": items } }))
}

pub(super) fn delete_key_pairs(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    region(&ctx.region)?;
    let names = p.list("KeyPairNames")?;
    if names.is_empty() {
        return Err(ApiError::missing_parameter("KeyPairNames"));
    }
    if names.len() > 100 {
        return Err(ApiError::invalid_parameter(
            "KeyPairNames",
            "at most 100 key pair names",
        ));
    }
    let pairs: Vec<Resource> = names
        .iter()
        .map(|name| key_pair_named(ctx, name))
        .collect::<Result<_, _>>()?;
    for pair in pairs {
        ctx.reference(KEY_PAIR_REF, &pair.name);
        ctx.delete(&pair.id);
    }
    Ok(json!({}))
}
