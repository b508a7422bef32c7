//! Matching a success rule against audit events: which event met which matcher, and for the
//! matchers no event met, the nearest events and what kept each of them from matching.
//!
//! Every matcher needs an event of its own (two `CreateVSwitch` matchers need two vSwitches). Values
//! may name run-time bindings as `${name}`; they are substituted before matching, and an unbound name
//! is a [`RuleError`], never a silent non-match.

use std::collections::BTreeMap;
use std::fmt;

use aca_core::{EventMatcher, EventType, ParameterTest, SuccessRule, TrailEvent};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Run-time values a rule may name as `${name}`: a provisioned resource's id, the run's unique suffix.
pub type Bindings = BTreeMap<String, String>;

/// How many near-miss candidates are kept for each unmatched matcher.
const CANDIDATES_PER_MATCHER: usize = 3;

/// A rule that cannot be matched as written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RuleError {
    #[error("the success rule has no event matchers")]
    Empty,
    #[error("matcher {matcher} ({event_name}), parameter {parameter}: ${{{name}}} is not bound (bound: {bound})")]
    Unbound {
        matcher: usize,
        event_name: String,
        parameter: String,
        name: String,
        /// The names that are bound, comma-separated (`none` when there are none).
        bound: String,
    },
    #[error("matcher {matcher} ({event_name}), parameter {parameter}: {value:?} has an unterminated \"${{\"")]
    Malformed {
        matcher: usize,
        event_name: String,
        parameter: String,
        value: String,
    },
}

/// The result of matching a rule against a set of events.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RuleMatch {
    /// Every matcher met, each by an event of its own.
    pub matched: bool,
    pub matches: Vec<MatcherHit>,
    /// One entry per matcher no event met.
    pub near_misses: Vec<NearMiss>,
}

/// A matcher and the event that met it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatcherHit {
    /// The matcher's index in the rule.
    pub matcher: usize,
    pub event_name: String,
    pub service_name: String,
    /// `ApiCall` or `ConsoleOperation`.
    pub event_type: String,
    pub event_id: String,
    pub event_time: String,
}

impl MatcherHit {
    /// The event as a report lists it.
    pub fn summary(&self) -> aca_core::EventSummary {
        aca_core::EventSummary {
            event_id: self.event_id.clone(),
            event_name: self.event_name.clone(),
            service_name: self.service_name.clone(),
            event_type: self.event_type.clone(),
            event_time: self.event_time.clone(),
        }
    }
}

/// A matcher no event met, with the events that came closest.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NearMiss {
    pub matcher: usize,
    pub event_name: String,
    /// One sentence for the writer: `CreateVpc found but VpcName was "a" not "b"`, or
    /// `no CreateVpc event among 12 events seen`.
    pub summary: String,
    /// The closest events, closest first (at most three).
    pub candidates: Vec<Candidate>,
}

/// An event that nearly met a matcher.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Candidate {
    pub event_id: String,
    pub event_name: String,
    pub event_time: String,
    /// Everything that kept it from matching.
    pub mismatches: Vec<Mismatch>,
}

impl Candidate {
    /// `CreateVpc found but VpcName was "a" not "b"`.
    pub fn explanation(&self) -> String {
        let reasons: Vec<String> = self.mismatches.iter().map(ToString::to_string).collect();
        format!("{} found but {}", self.event_name, reasons.join(", and "))
    }
}

/// One reason an event does not meet a matcher.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Mismatch {
    EventName {
        wanted: String,
        found: String,
    },
    ServiceName {
        wanted: String,
        found: String,
    },
    EventType {
        wanted: EventType,
        found: EventType,
    },
    /// The call failed, and a successful one was wanted.
    Failed {
        error_code: String,
    },
    /// The call succeeded, and a failed one was wanted.
    Succeeded,
    /// The event does not reference the resource type; `found` lists the types it does reference.
    ResourceType {
        wanted: String,
        found: Vec<String>,
    },
    /// A request parameter fails its test; `found` is `None` when the parameter is absent.
    Parameter {
        name: String,
        test: ParameterTest,
        found: Option<Value>,
    },
    /// The event meets the matcher but already meets another one, and each needs its own event.
    Taken {
        by_matcher: usize,
    },
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Mismatch::EventName { wanted, found } => write!(f, "it is {found}, not {wanted}"),
            Mismatch::ServiceName { wanted, found } => write!(f, "its service was {found:?} not {wanted:?}"),
            Mismatch::EventType { wanted, found } => {
                write!(f, "it was a {} event, not {}", found.as_str(), wanted.as_str())
            }
            Mismatch::Failed { error_code } => write!(f, "it failed with {error_code}"),
            Mismatch::Succeeded => write!(f, "it succeeded where a failed call was wanted"),
            Mismatch::ResourceType { wanted, found } if found.is_empty() => {
                write!(f, "it references no {wanted} (no resources at all)")
            }
            Mismatch::ResourceType { wanted, found } => {
                write!(f, "it references no {wanted} (only {})", found.join(", "))
            }
            Mismatch::Parameter { name, test, found } => describe_parameter(f, name, test, found.as_ref()),
            Mismatch::Taken { by_matcher } => write!(f, "it is the event already matched by matcher {by_matcher}"),
        }
    }
}

fn describe_parameter(
    f: &mut fmt::Formatter<'_>,
    name: &str,
    test: &ParameterTest,
    found: Option<&Value>,
) -> fmt::Result {
    match (test, found) {
        (ParameterTest::Exists(false), Some(v)) => write!(f, "{name} was present ({}) but should be absent", shown(v)),
        (ParameterTest::Exists(_), _) => write!(f, "{name} was absent"),
        (ParameterTest::Equals(want), None) => write!(f, "{name} was absent, not {}", shown(want)),
        (ParameterTest::Equals(want), Some(v)) => write!(f, "{name} was {} not {}", shown(v), shown(want)),
        (ParameterTest::Contains(part), None) => write!(f, "{name} was absent (wanted one containing {part:?})"),
        (ParameterTest::Contains(part), Some(v)) => {
            write!(f, "{name} was {}, which does not contain {part:?}", shown(v))
        }
        (ParameterTest::StartsWith(start), None) => write!(f, "{name} was absent (wanted one starting with {start:?})"),
        (ParameterTest::StartsWith(start), Some(v)) => {
            write!(f, "{name} was {}, which does not start with {start:?}", shown(v))
        }
    }
}

/// A value as the writer should read it: strings quoted, everything else as JSON.
fn shown(v: &Value) -> String {
    match v {
        Value::String(s) => format!("{s:?}"),
        other => other.to_string(),
    }
}

/// The rule with every `${name}` replaced by its binding.
pub fn resolve(rule: &SuccessRule, bindings: &Bindings) -> Result<SuccessRule, RuleError> {
    if rule.events.is_empty() {
        return Err(RuleError::Empty);
    }
    let mut resolved = rule.clone();
    for (index, matcher) in resolved.events.iter_mut().enumerate() {
        let event_name = matcher.event_name.clone();
        for condition in &mut matcher.parameters {
            let at = |e: SubstitutionError| e.into_rule_error(index, &event_name, &condition.name, bindings);
            let test = match &condition.test {
                ParameterTest::Equals(v) => ParameterTest::Equals(substitute_value(v, bindings).map_err(at)?),
                ParameterTest::Contains(s) => ParameterTest::Contains(substitute(s, bindings).map_err(at)?),
                ParameterTest::StartsWith(s) => ParameterTest::StartsWith(substitute(s, bindings).map_err(at)?),
                ParameterTest::Exists(b) => ParameterTest::Exists(*b),
            };
            condition.test = test;
        }
    }
    Ok(resolved)
}

enum SubstitutionError {
    Unbound(String),
    Malformed(String),
}

impl SubstitutionError {
    fn into_rule_error(self, matcher: usize, event_name: &str, parameter: &str, bindings: &Bindings) -> RuleError {
        match self {
            SubstitutionError::Unbound(name) => RuleError::Unbound {
                matcher,
                event_name: event_name.to_owned(),
                parameter: parameter.to_owned(),
                name,
                bound: if bindings.is_empty() {
                    "none".to_owned()
                } else {
                    bindings.keys().cloned().collect::<Vec<_>>().join(", ")
                },
            },
            SubstitutionError::Malformed(value) => RuleError::Malformed {
                matcher,
                event_name: event_name.to_owned(),
                parameter: parameter.to_owned(),
                value,
            },
        }
    }
}

fn substitute(text: &str, bindings: &Bindings) -> Result<String, SubstitutionError> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let end = after
            .find('}')
            .ok_or_else(|| SubstitutionError::Malformed(text.to_owned()))?;
        let name = &after[..end];
        let value = bindings
            .get(name)
            .ok_or_else(|| SubstitutionError::Unbound(name.to_owned()))?;
        out.push_str(value);
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

fn substitute_value(value: &Value, bindings: &Bindings) -> Result<Value, SubstitutionError> {
    Ok(match value {
        Value::String(s) => Value::String(substitute(s, bindings)?),
        Value::Array(items) => Value::Array(
            items
                .iter()
                .map(|v| substitute_value(v, bindings))
                .collect::<Result<_, _>>()?,
        ),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| Ok((k.clone(), substitute_value(v, bindings)?)))
                .collect::<Result<_, _>>()?,
        ),
        other => other.clone(),
    })
}

/// Matches `rule` (after substituting `bindings`) against `events`.
pub fn match_rule(rule: &SuccessRule, events: &[TrailEvent], bindings: &Bindings) -> Result<RuleMatch, RuleError> {
    Ok(match_resolved(&resolve(rule, bindings)?, events))
}

/// Matches a rule whose bindings are already substituted (see [`resolve`]).
pub fn match_resolved(rule: &SuccessRule, events: &[TrailEvent]) -> RuleMatch {
    let mismatches: Vec<Vec<Vec<Mismatch>>> = rule
        .events
        .iter()
        .map(|matcher| events.iter().map(|event| check(matcher, event)).collect())
        .collect();
    let fits = |m: usize, e: usize| mismatches[m][e].is_empty();
    let assignment = assign(rule.events.len(), events.len(), fits);

    let mut matches = Vec::new();
    let mut near_misses = Vec::new();
    for (index, matcher) in rule.events.iter().enumerate() {
        match assignment.of_matcher[index] {
            Some(e) => matches.push(MatcherHit {
                matcher: index,
                event_name: events[e].event_name.clone(),
                service_name: events[e].service_name.clone(),
                event_type: format!("{:?}", events[e].event_type),
                event_id: events[e].event_id.clone(),
                event_time: events[e].event_time.clone(),
            }),
            None => near_misses.push(near_miss(index, matcher, events, &mismatches[index], &assignment)),
        }
    }
    RuleMatch {
        matched: near_misses.is_empty(),
        matches,
        near_misses,
    }
}

/// Everything that keeps `event` from meeting `matcher`; empty when it meets it.
pub fn check(matcher: &EventMatcher, event: &TrailEvent) -> Vec<Mismatch> {
    let mut out = Vec::new();
    if !matcher.names(&event.event_name) {
        out.push(Mismatch::EventName {
            wanted: matcher.event_names().collect::<Vec<_>>().join(" or "),
            found: event.event_name.clone(),
        });
    }
    if let Some(service) = &matcher.service_name
        && !event.service_name.eq_ignore_ascii_case(service)
    {
        out.push(Mismatch::ServiceName {
            wanted: service.clone(),
            found: event.service_name.clone(),
        });
    }
    if let Some(kind) = matcher.event_type
        && event.event_type != kind
    {
        out.push(Mismatch::EventType {
            wanted: kind,
            found: event.event_type,
        });
    }
    match (&event.error_code, matcher.succeeded) {
        (Some(code), true) => out.push(Mismatch::Failed {
            error_code: code.clone(),
        }),
        (None, false) => out.push(Mismatch::Succeeded),
        _ => {}
    }
    if let Some(resource_type) = &matcher.resource_type
        && !event.referenced_resources.contains_key(resource_type)
    {
        out.push(Mismatch::ResourceType {
            wanted: resource_type.clone(),
            found: event.referenced_resources.keys().cloned().collect(),
        });
    }
    for condition in &matcher.parameters {
        let found = parameter(event, &condition.name);
        if !passes(&condition.test, found) {
            out.push(Mismatch::Parameter {
                name: condition.name.clone(),
                test: condition.test.clone(),
                found: found.cloned(),
            });
        }
    }
    out
}

/// A request parameter by name; an exact name first, then one differing only in case (the real
/// service writes some products' parameters in camelCase).
fn parameter<'a>(event: &'a TrailEvent, name: &str) -> Option<&'a Value> {
    event.request_parameters.get(name).or_else(|| {
        event
            .request_parameters
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v)
    })
}

fn passes(test: &ParameterTest, found: Option<&Value>) -> bool {
    match (test, found) {
        (ParameterTest::Exists(wanted), found) => *wanted == found.is_some(),
        (_, None) => false,
        (ParameterTest::Equals(want), Some(v)) => values_equal(want, v),
        (ParameterTest::Contains(part), Some(v)) => text_of(v).contains(part.as_str()),
        (ParameterTest::StartsWith(start), Some(v)) => text_of(v).starts_with(start.as_str()),
    }
}

/// Equal as JSON, or as text when one side is a string (`"20"` equals `20`), or as JSON when a
/// string holds the JSON of the other side (a list the service wrote as text).
fn values_equal(want: &Value, found: &Value) -> bool {
    if want == found {
        return true;
    }
    match (want, found) {
        (Value::Number(a), Value::Number(b)) => a.as_f64().is_some() && a.as_f64() == b.as_f64(),
        (Value::String(s), other @ (Value::Number(_) | Value::Bool(_)))
        | (other @ (Value::Number(_) | Value::Bool(_)), Value::String(s)) => {
            let text = other.to_string();
            text == *s
        }
        (Value::String(s), other @ (Value::Array(_) | Value::Object(_)))
        | (other @ (Value::Array(_) | Value::Object(_)), Value::String(s)) => {
            serde_json::from_str::<Value>(s).is_ok_and(|parsed| parsed == *other)
        }
        _ => false,
    }
}

fn text_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Which event each matcher got, each event used at most once.
struct Assignment {
    of_matcher: Vec<Option<usize>>,
    of_event: Vec<Option<usize>>,
}

/// A maximum bipartite matching (augmenting paths): the rule holds when every matcher gets an event.
/// Rules have a handful of matchers, so the simple algorithm is plenty.
fn assign(matchers: usize, events: usize, fits: impl Fn(usize, usize) -> bool) -> Assignment {
    let mut assignment = Assignment {
        of_matcher: vec![None; matchers],
        of_event: vec![None; events],
    };
    for m in 0..matchers {
        let mut visited = vec![false; events];
        augment(m, &fits, &mut visited, &mut assignment);
    }
    assignment
}

fn augment(m: usize, fits: &impl Fn(usize, usize) -> bool, visited: &mut [bool], a: &mut Assignment) -> bool {
    for e in 0..visited.len() {
        if visited[e] || !fits(m, e) {
            continue;
        }
        visited[e] = true;
        let free = match a.of_event[e] {
            None => true,
            Some(other) => augment(other, fits, visited, a),
        };
        if free {
            a.of_event[e] = Some(m);
            a.of_matcher[m] = Some(e);
            return true;
        }
    }
    false
}

fn near_miss(
    index: usize,
    matcher: &EventMatcher,
    events: &[TrailEvent],
    mismatches: &[Vec<Mismatch>],
    assignment: &Assignment,
) -> NearMiss {
    let mut ranked: Vec<(usize, Vec<Mismatch>)> = mismatches
        .iter()
        .enumerate()
        .map(|(e, found)| {
            let mut found = found.clone();
            if found.is_empty()
                && let Some(by_matcher) = assignment.of_event[e]
            {
                found.push(Mismatch::Taken { by_matcher });
            }
            (e, found)
        })
        .filter(|(_, found)| !found.is_empty())
        .collect();
    let same_name = |found: &[Mismatch]| !found.iter().any(|m| matches!(m, Mismatch::EventName { .. }));
    let same_service = |e: usize| {
        matcher
            .service_name
            .as_ref()
            .is_some_and(|s| events[e].service_name.eq_ignore_ascii_case(s))
    };
    let named: Vec<(usize, Vec<Mismatch>)> = ranked.iter().filter(|(_, f)| same_name(f)).cloned().collect();
    let summary;
    if named.is_empty() {
        ranked.retain(|(e, _)| same_service(*e));
        let nearest = if ranked.is_empty() {
            String::new()
        } else {
            let names: Vec<&str> = ranked
                .iter()
                .take(CANDIDATES_PER_MATCHER)
                .map(|(e, _)| events[*e].event_name.as_str())
                .collect();
            format!("; the same service logged {}", names.join(", "))
        };
        summary = format!(
            "no {} event among {} event{} seen{nearest}",
            matcher.event_names().collect::<Vec<_>>().join(" or "),
            events.len(),
            if events.len() == 1 { "" } else { "s" }
        );
    } else {
        ranked = named;
        ranked.sort_by_key(|(_, found)| found.len());
        summary = String::new();
    }
    let candidates: Vec<Candidate> = ranked
        .into_iter()
        .take(CANDIDATES_PER_MATCHER)
        .map(|(e, mismatches)| Candidate {
            event_id: events[e].event_id.clone(),
            event_name: events[e].event_name.clone(),
            event_time: events[e].event_time.clone(),
            mismatches,
        })
        .collect();
    let summary = match candidates.first() {
        Some(best) if summary.is_empty() => {
            let more = candidates.len() - 1;
            if more == 0 {
                best.explanation()
            } else {
                format!(
                    "{} ({more} other {} event{} nearly matched too)",
                    best.explanation(),
                    best.event_name,
                    if more == 1 { "" } else { "s" }
                )
            }
        }
        _ => summary,
    };
    NearMiss {
        matcher: index,
        event_name: matcher.event_name.clone(),
        summary,
        candidates,
    }
}

#[cfg(test)]
mod tests {
    use aca_core::{EventRw, IdentityType, ParameterCondition, UserIdentity};
    use serde_json::json;

    use super::*;

    fn event(id: &str, name: &str, service: &str, params: Value) -> TrailEvent {
        TrailEvent {
            event_id: id.into(),
            event_version: 1,
            event_name: name.into(),
            event_type: EventType::ApiCall,
            event_rw: EventRw::Write,
            event_source: format!("{}.aliyuncs.com", service.to_lowercase()),
            service_name: service.into(),
            acs_region: "cn-hangzhou".into(),
            event_time: "2026-11-30T14:01:05Z".into(),
            request_id: format!("req-{id}"),
            api_version: String::new(),
            request_parameters: serde_json::from_value(params).unwrap(),
            response_elements: Value::Null,
            error_code: None,
            error_message: None,
            user_identity: UserIdentity {
                kind: IdentityType::Root,
                account_id: "1".into(),
                access_key_id: "LTAI".into(),
                principal_id: "1".into(),
                user_name: "root".into(),
            },
            user_agent: "test".into(),
            source_ip_address: "127.0.0.1".into(),
            referenced_resources: BTreeMap::new(),
            recipient_account_id: "1".into(),
        }
    }

    fn matcher(name: &str, service: &str, parameters: Vec<ParameterCondition>) -> EventMatcher {
        EventMatcher {
            event_name: name.into(),
            or_event_names: vec![],
            service_name: Some(service.into()),
            event_type: None,
            succeeded: true,
            resource_type: None,
            parameters,
        }
    }

    fn equals(name: &str, value: Value) -> ParameterCondition {
        ParameterCondition {
            name: name.into(),
            test: ParameterTest::Equals(value),
        }
    }

    fn rule(events: Vec<EventMatcher>) -> SuccessRule {
        SuccessRule {
            events,
            inferred: false,
        }
    }

    #[test]
    fn a_matching_event_is_reported_by_id() {
        let events = [event("e1", "CreateVpc", "Vpc", json!({"VpcName": "web-vpc"}))];
        let r = rule(vec![matcher(
            "CreateVpc",
            "Vpc",
            vec![equals("VpcName", json!("web-vpc"))],
        )]);
        let result = match_rule(&r, &events, &Bindings::new()).unwrap();
        assert!(result.matched);
        assert_eq!(result.matches[0].event_id, "e1");
    }

    #[test]
    fn a_wrong_parameter_is_explained_in_the_writers_words() {
        let events = [
            event("e1", "CreateVpc", "Vpc", json!({"VpcName": "a"})),
            event("e2", "DescribeVpcs", "Vpc", json!({})),
        ];
        let r = rule(vec![matcher("CreateVpc", "Vpc", vec![equals("VpcName", json!("b"))])]);
        let result = match_rule(&r, &events, &Bindings::new()).unwrap();
        assert!(!result.matched);
        assert_eq!(
            result.near_misses[0].summary,
            r#"CreateVpc found but VpcName was "a" not "b""#
        );
        assert_eq!(
            result.near_misses[0].candidates.len(),
            1,
            "only CreateVpc events are candidates"
        );
    }

    #[test]
    fn a_missing_event_names_what_the_service_did_log() {
        let events = [event("e1", "DescribeVpcs", "Vpc", json!({}))];
        let r = rule(vec![matcher("CreateVpc", "Vpc", vec![])]);
        let miss = &match_rule(&r, &events, &Bindings::new()).unwrap().near_misses[0];
        assert_eq!(
            miss.summary,
            "no CreateVpc event among 1 event seen; the same service logged DescribeVpcs"
        );
    }

    #[test]
    fn a_matcher_with_other_names_is_met_by_any_one_of_them() {
        let mut attach = matcher("AttachPolicyToUser", "Ram", vec![]);
        attach.or_event_names = vec!["AttachPolicyToGroup".into(), "DetachPolicyFromUser".into()];
        let r = rule(vec![attach]);
        let detached = [event("e1", "DetachPolicyFromUser", "Ram", json!({}))];
        let m = match_resolved(&r, &detached);
        assert!(m.matched);
        assert_eq!(m.matches[0].event_name, "DetachPolicyFromUser");
        let listed = [event("e2", "ListPolicies", "Ram", json!({}))];
        let m = match_resolved(&r, &listed);
        assert!(!m.matched);
        assert!(
            m.near_misses[0]
                .summary
                .starts_with("no AttachPolicyToUser or AttachPolicyToGroup or DetachPolicyFromUser event among 1 event seen"),
            "{}",
            m.near_misses[0].summary
        );
        assert_eq!(crate::events::single_event_name(&r), None, "a lookup narrowed to one name would miss the others");
    }

    #[test]
    fn bindings_are_substituted_and_an_unbound_name_is_an_error() {
        let events = [event("e1", "CreateVpc", "Vpc", json!({"VpcName": "vpc-x1"}))];
        let r = rule(vec![matcher(
            "CreateVpc",
            "Vpc",
            vec![equals("VpcName", json!("vpc-${suffix}"))],
        )]);
        let bound: Bindings = [("suffix".to_owned(), "x1".to_owned())].into();
        assert!(match_rule(&r, &events, &bound).unwrap().matched);
        let error = match_rule(&r, &events, &Bindings::new()).unwrap_err();
        assert!(
            matches!(&error, RuleError::Unbound { name, .. } if name == "suffix"),
            "{error}"
        );
        let broken = rule(vec![matcher(
            "CreateVpc",
            "Vpc",
            vec![equals("VpcName", json!("vpc-${suffix"))],
        )]);
        assert!(matches!(
            match_rule(&broken, &events, &bound),
            Err(RuleError::Malformed { .. })
        ));
    }

    #[test]
    fn each_matcher_needs_its_own_event() {
        let one = [event("e1", "CreateVSwitch", "Vpc", json!({"CidrBlock": "10.0.1.0/24"}))];
        let any_vswitch = matcher("CreateVSwitch", "Vpc", vec![]);
        let r = rule(vec![any_vswitch.clone(), any_vswitch]);
        let result = match_rule(&r, &one, &Bindings::new()).unwrap();
        assert!(!result.matched);
        assert_eq!(
            result.near_misses[0].candidates[0].mismatches,
            [Mismatch::Taken { by_matcher: 0 }]
        );
        // The assignment is global: a specific matcher is not starved by a general one that came first.
        let two = [
            event("e1", "CreateVSwitch", "Vpc", json!({"CidrBlock": "10.0.1.0/24"})),
            event("e2", "CreateVSwitch", "Vpc", json!({"CidrBlock": "10.0.2.0/24"})),
        ];
        let r = rule(vec![
            matcher("CreateVSwitch", "Vpc", vec![]),
            matcher("CreateVSwitch", "Vpc", vec![equals("CidrBlock", json!("10.0.1.0/24"))]),
        ]);
        let result = match_rule(&r, &two, &Bindings::new()).unwrap();
        assert!(result.matched);
        assert_eq!(result.matches[1].event_id, "e1");
        assert_eq!(result.matches[0].event_id, "e2");
    }

    #[test]
    fn parameter_tests_compare_as_json_or_as_text() {
        let e = event(
            "e1",
            "CreateDisk",
            "Ecs",
            json!({"Size": "20", "DiskName": "data-01", "Tags": "[\"a\"]"}),
        );
        let pass = |test: ParameterTest, name: &str| {
            let r = rule(vec![matcher(
                "CreateDisk",
                "Ecs",
                vec![ParameterCondition {
                    name: name.into(),
                    test,
                }],
            )]);
            match_rule(&r, std::slice::from_ref(&e), &Bindings::new())
                .unwrap()
                .matched
        };
        assert!(pass(ParameterTest::Equals(json!(20)), "Size"));
        assert!(!pass(ParameterTest::Equals(json!(21)), "Size"));
        assert!(pass(ParameterTest::Equals(json!(["a"])), "Tags"));
        assert!(pass(ParameterTest::Contains("ta-0".into()), "DiskName"));
        assert!(pass(ParameterTest::StartsWith("data-".into()), "DiskName"));
        assert!(!pass(ParameterTest::StartsWith("log-".into()), "DiskName"));
        assert!(pass(ParameterTest::Exists(true), "DiskName"));
        assert!(pass(ParameterTest::Exists(false), "Description"));
        assert!(!pass(ParameterTest::Exists(true), "Description"));
        assert!(
            pass(ParameterTest::Equals(json!("data-01")), "diskname"),
            "names differing in case still match"
        );
    }

    #[test]
    fn failures_types_and_resources_are_checked() {
        let mut failed = event("e1", "CreateVpc", "Vpc", json!({}));
        failed.error_code = Some("InvalidVpcName.Malformed".into());
        let mut m = matcher("CreateVpc", "Vpc", vec![]);
        m.resource_type = Some("ACS::VPC::VPC".into());
        m.event_type = Some(EventType::ConsoleOperation);
        let miss = &match_rule(&rule(vec![m]), &[failed], &Bindings::new())
            .unwrap()
            .near_misses[0];
        let reasons = &miss.candidates[0].mismatches;
        assert_eq!(reasons.len(), 3, "{reasons:?}");
        assert!(
            miss.summary.contains("it failed with InvalidVpcName.Malformed"),
            "{}",
            miss.summary
        );
        assert!(miss.summary.contains("references no ACS::VPC::VPC"), "{}", miss.summary);
    }

    #[test]
    fn an_empty_rule_is_an_error() {
        assert_eq!(match_rule(&rule(vec![]), &[], &Bindings::new()), Err(RuleError::Empty));
    }
}
