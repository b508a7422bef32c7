//! The console a step logs on to: the product the console shows (its title, its navigation pane)
//! should be the one the step names; a product name that shares words with it but is not it is the
//! product renamed ("ApsaraDB for Redis" → "Tair (Redis OSS-compatible)").

use aca_core::{GuiAction, Observation, PlaceKind};

use super::alternative::Alternative;
use super::{Effect, Move, ScriptedPolicy};
use crate::label::normalise;
use crate::policy::{Context, Finding, FindingKind, Grounding};

/// Words that say nothing about which product is meant.
const GENERIC: &[&str] = &["a", "an", "the", "of", "for", "and", "console", "alibaba", "cloud"];

fn words(name: &str) -> Vec<String> {
    normalise(name)
        .split(' ')
        .filter(|w| !w.is_empty() && !GENERIC.contains(w))
        .map(str::to_owned)
        .collect()
}

/// The product the console shows: the title's part before "Alibaba Cloud Console"
/// (`Instances - ApsaraDB for Redis - Alibaba Cloud Console`), else the navigation pane's name.
pub(super) fn shown_product(obs: &Observation) -> Option<String> {
    let parts: Vec<&str> = obs.title.split(" - ").map(str::trim).collect();
    if parts.len() >= 3 {
        return Some(parts[parts.len() - 2].to_owned()).filter(|p| !p.is_empty());
    }
    obs.elements
        .iter()
        .flat_map(|e| e.places.iter())
        .find(|p| p.kind == PlaceKind::Navigation && !p.name.trim().is_empty())
        .map(|p| p.name.clone())
}

/// Whether the product the console shows is the documented one renamed: the names share a word,
/// but neither holds all the other's words. An acronym (`ECS` for Elastic Compute Service) shares
/// no word and says nothing.
/// The documented name may end with the page the console opens on ("Access RDS Instances": the RDS
/// console's Instances page).
pub(super) fn product_renamed(documented: &str, shown: &str, page: &str) -> bool {
    let (mut a, b) = (words(documented), words(shown));
    let page = words(page);
    if !page.is_empty() && a.len() > page.len() && a.ends_with(&page) {
        a.truncate(a.len() - page.len());
    }
    if a.is_empty() || b.is_empty() {
        return false;
    }
    let shared = a.iter().filter(|w| b.contains(w)).count();
    shared > 0 && shared < a.len() && shared < b.len()
}

impl ScriptedPolicy {
    pub(super) fn ground_in_console(&mut self, ctx: &Context<'_>, name: &str) -> Move {
        let obs = ctx.observation;
        let page = obs.title.split(" - ").next().unwrap_or_default();
        let Some(shown) = shown_product(obs).filter(|shown| product_renamed(name, shown, page)) else {
            return Move::Done(Some("the runtime opens the console".into()));
        };
        let evidence = vec![format!("Title: {}", aca_core::observation::quote(&obs.title))];
        let alternative = Alternative {
            key: "renamed product".into(),
            action: GuiAction::Wait { ms: Some(100) },
            goal: format!("go on in the \"{shown}\" console, the product the page calls \"{name}\""),
            grounding: Some(Grounding {
                as_written: false,
                finding: Some(Finding {
                    kind: FindingKind::Renamed,
                    documented: name.to_owned(),
                    observed: shown.clone(),
                    evidence,
                }),
            }),
            effect: Effect::Complete,
            via: None,
        };
        self.fallback(ctx, &format!("the {name} console"), name, vec![alternative])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_product_sharing_some_words_is_renamed_and_an_acronym_is_not() {
        assert!(product_renamed("Tair (Redis OSS-compatible)", "ApsaraDB for Redis", ""));
        assert!(product_renamed("ApsaraDB for Redis", "Tair (Redis OSS-compatible)", ""));
        assert!(!product_renamed("ECS", "Elastic Compute Service", ""));
        assert!(!product_renamed("Simple Log Service", "Simple Log Service", ""));
        assert!(!product_renamed("Alibaba Cloud DNS", "Alibaba Cloud DNS", ""));
        assert!(!product_renamed("ApsaraDB RDS", "ApsaraDB RDS", ""));
        assert!(!product_renamed("CloudMonitor", "CloudMonitor", ""));
        assert!(!product_renamed("CLB", "Server Load Balancer", ""));
        assert!(!product_renamed("CLB", "Classic Load Balancer (CLB)", ""));
        assert!(!product_renamed("RDS Instances", "ApsaraDB RDS", "Instances"));
        assert!(product_renamed("RDS Instances", "ApsaraDB RDS", "Accounts"));
        assert!(!product_renamed(
            "Classic Load Balancer (CLB)",
            "Classic Load Balancer (CLB)",
            ""
        ));
        assert!(product_renamed(
            "Server Load Balancer",
            "Classic Load Balancer (CLB)",
            ""
        ));
    }
}
