//! UI profiles: the console as one release shows it. A profile is chosen per account.

use serde::{Deserialize, Serialize};

use crate::error::ConsoleError;

/// The known console releases.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
pub enum ProfileId {
    /// The console as the earlier versions of the help pages describe it.
    #[serde(rename = "2024")]
    Y2024,
    /// Today's console, as its current documentation describes it.
    #[serde(rename = "2026")]
    Y2026,
}

impl ProfileId {
    pub const ALL: [ProfileId; 2] = [ProfileId::Y2024, ProfileId::Y2026];

    pub fn as_str(self) -> &'static str {
        match self {
            ProfileId::Y2024 => "2024",
            ProfileId::Y2026 => "2026",
        }
    }
}

impl std::str::FromStr for ProfileId {
    type Err = ConsoleError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "2024" => Ok(ProfileId::Y2024),
            "2026" => Ok(ProfileId::Y2026),
            other => Err(ConsoleError::UnknownProfile(other.to_owned())),
        }
    }
}

impl std::fmt::Display for ProfileId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
