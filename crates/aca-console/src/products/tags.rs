//! Resource tags as the RPC APIs take them (`Tag.N.Key`, `Tag.N.Value`) and give them back.

use axum::http::StatusCode;
use serde_json::{Value, json};

use crate::error::ApiError;
use crate::params::Params;

/// `Tag.N.Key` / `Tag.N.Value`, as the `{TagKey, TagValue}` entries responses carry.
pub(crate) fn tags(p: &Params) -> Result<Vec<Value>, ApiError> {
    let list = p.object_list("Tag");
    if list.len() > 20 {
        return Err(ApiError::invalid_parameter("Tag", "at most 20 tags"));
    }
    list.iter()
        .map(|tag| {
            let key = tag.get("Key").map(String::as_str).unwrap_or("");
            if key.is_empty() || key.len() > 128 || key.starts_with("aliyun") || key.starts_with("acs:") {
                return Err(ApiError::new(
                    StatusCode::BAD_REQUEST,
                    "InvalidTagKey.Malformed",
                    "The specified Tag.n.Key is not valid.",
                ));
            }
            Ok(json!({ "TagKey": key, "TagValue": tag.get("Value").map(String::as_str).unwrap_or("") }))
        })
        .collect()
}
