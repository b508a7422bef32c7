//! What a trainer writes beside its checkpoints and checks on resume: its state as a JSON file, and
//! whether a resumed run's settings are the saved run's, naming each one that differs.

use std::path::Path;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::error::TrainError;

/// Writes `value` as pretty JSON at `path`.
pub(crate) fn write_json<T: Serialize>(path: &Path, value: &T) -> Result<(), TrainError> {
    let text = serde_json::to_string_pretty(value).map_err(|error| TrainError::State {
        path: path.to_owned(),
        problem: error.to_string(),
    })?;
    std::fs::write(path, text).map_err(|source| TrainError::Io {
        path: path.to_owned(),
        source,
    })
}

/// Reads the JSON at `path`.
pub(crate) fn read_json<T: DeserializeOwned>(path: &Path) -> Result<T, TrainError> {
    let text = std::fs::read_to_string(path).map_err(|source| TrainError::Io {
        path: path.to_owned(),
        source,
    })?;
    serde_json::from_str(&text).map_err(|error| TrainError::State {
        path: path.to_owned(),
        problem: error.to_string(),
    })
}

/// `Ok` when `comparable` (the new settings, with those that may differ copied from `saved`) equals
/// `saved`; otherwise an error naming every setting that differs and both of its values.
pub(crate) fn same_run<T: Serialize + PartialEq>(comparable: &T, saved: &T) -> Result<(), TrainError> {
    if comparable == saved {
        return Ok(());
    }
    let differing: Vec<String> = match (serde_json::to_value(comparable), serde_json::to_value(saved)) {
        (Ok(serde_json::Value::Object(now)), Ok(serde_json::Value::Object(then))) => now
            .iter()
            .filter(|(key, value)| then.get(*key) != Some(*value))
            .map(|(key, value)| {
                format!(
                    "{key} {value} (the checkpoint's run: {})",
                    then.get(key).unwrap_or(&serde_json::Value::Null)
                )
            })
            .collect(),
        _ => Vec::new(),
    };
    Err(TrainError::Config(format!(
        "the configuration differs from the checkpoint's in settings that shape the run: {}",
        differing.join(", ")
    )))
}
