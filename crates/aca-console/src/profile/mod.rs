//! UI profiles: the console as one release shows it. A profile is chosen per account.

use serde::{Deserialize, Serialize};

use crate::error::ConsoleError;

pub mod changes;

pub use changes::{CHANGES_2024, Change};

/// Where a row action of a list page is offered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Placement {
    /// A link in the list's Actions column.
    Inline,
    /// An item of the row's More (`⋯`) hover menu.
    More,
    /// Only in the "All Actions" pane of the resource's details page.
    AllActions,
    /// A button in the details page's first section (its Basic Information card, or what the page
    /// calls it: KMS's Key Details), also in the All Actions pane.
    Section,
}

impl Placement {
    /// How a help page names the place.
    pub fn describe(self) -> &'static str {
        match self {
            Placement::Inline => "Actions column",
            Placement::More => "More menu in the Actions column",
            Placement::AllActions => "All Actions pane on the details page",
            Placement::Section => "first section of the details page",
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Placement::Inline => "inline",
            Placement::More => "more",
            Placement::AllActions => "all-actions",
            Placement::Section => "section",
        }
    }
}

/// The kind of a difference between two releases, as a drift report names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DifferenceKind {
    RenamedLabel,
    MovedControl,
    NewRequiredField,
    RemovedField,
    RemovedBatchButton,
    AddedBatchButton,
    ReorderedSteps,
    RegroupedMenu,
}

/// One thing a user of release `from` finds different in release `to`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Difference {
    /// The console's product code (`vpc`, `ecs`, …).
    pub product: String,
    /// The page id within the product (`vpcs`, `instances`); `nav` for the left-side navigation pane.
    pub page: String,
    pub kind: DifferenceKind,
    /// The control concerned (a button, a field, a menu item, a wizard).
    pub control: String,
    /// What `from` shows; empty when it shows nothing.
    pub before: String,
    /// What `to` shows; empty when it shows nothing.
    pub after: String,
}

/// Every difference between two releases, in a stable order. Empty when `from == to`.
pub fn drift(from: ProfileId, to: ProfileId) -> Vec<Difference> {
    if from == to {
        return Vec::new();
    }
    // The 2024 release is defined as changes applied to 2026: each change knows both sides.
    let forward = from == ProfileId::Y2024;
    CHANGES_2024.iter().map(|change| change.difference(forward)).collect()
}

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

    /// The release a page written for this one drifts against.
    pub fn other(self) -> ProfileId {
        match self {
            ProfileId::Y2024 => ProfileId::Y2026,
            ProfileId::Y2026 => ProfileId::Y2024,
        }
    }

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
