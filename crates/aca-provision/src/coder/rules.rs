//! The deterministic generator: what a procedure acts on, read from its title (and, at run time, the
//! agent's request), turned into the resources that must exist first and the state they must be in.

use std::collections::BTreeSet;

use aca_core::{BillingMethod, Procedure};

use super::catalog::{NOUNS, TEMPLATES, Target, counted_body, template};

/// Resources that must exist, with the value their `status` argument must have.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Need {
    /// The template key (`instance`).
    pub key: &'static str,
    /// `status` to create it in (`Stopped`, `Disabled`, `Enable`), when the procedure needs one.
    pub status: Option<&'static str>,
    /// How many: two when the procedure acts on several at once ("Delete vSwitches").
    pub count: usize,
    /// The billing method a request asks for ("Automatic renewal" needs a subscription instance),
    /// for templates that choose one.
    pub billing: Option<BillingMethod>,
}

/// How many resources a procedure acting on several at once gets: enough to select more than one.
pub const SEVERAL: usize = 2;

/// The emulator's product code of a page: the console of the product it documents.
pub fn product_of(procedure: &Procedure) -> Option<&'static str> {
    aca_core::ProductConsole::of_procedure(procedure).map(|p| p.emulated_as().0)
}

/// Verbs whose object the procedure makes: the object need not exist, only what it goes into.
const CREATING: &[&str] = &["create", "add", "upload", "new", "buy", "purchase"];

/// Parents a procedure creating the resource makes itself: a new trail's wizard creates the bucket
/// it delivers to.
const MADE_ALONGSIDE: &[(&str, &str)] = &[("trail", "bucket")];

/// Whether `phrase` occurs in `text` at word boundaries (a plural `s`/`es` allowed); the byte
/// offsets of each occurrence.
fn occurrences(text: &str, phrase: &str) -> Vec<(usize, usize)> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(at) = text[from..].find(phrase) {
        let start = from + at;
        let mut end = start + phrase.len();
        let before_ok = text[..start].chars().next_back().is_none_or(|c| !c.is_alphanumeric());
        let rest = &text[end..];
        if rest.starts_with("es") && rest[2..].chars().next().is_none_or(|c| !c.is_alphanumeric()) {
            end += 2;
        } else if rest.starts_with('s') && rest[1..].chars().next().is_none_or(|c| !c.is_alphanumeric()) {
            end += 1;
        }
        let after_ok = text[end..].chars().next().is_none_or(|c| !c.is_alphanumeric());
        if before_ok && after_ok {
            found.push((start, end));
        }
        from = start + phrase.len();
    }
    found
}

/// What a text mentions, in text order: the targets of its nouns (longer phrases first, no overlap).
pub fn mentions(text: &str, product: Option<&str>) -> Vec<Target> {
    mentions_counted(text, product).into_iter().map(|(t, _)| t).collect()
}

/// [`mentions`], each with whether its noun stands in the plural (`vSwitches`).
fn mentions_counted(text: &str, product: Option<&str>) -> Vec<(Target, bool)> {
    let text = text.to_lowercase();
    let mut claimed: Vec<(usize, usize, Target, bool)> = Vec::new();
    for noun in NOUNS.iter().filter(|n| n.product.is_none() || n.product == product) {
        for (start, end) in occurrences(&text, noun.phrase) {
            if claimed.iter().all(|(s, e, _, _)| end <= *s || start >= *e) {
                let plural = end > start + noun.phrase.len() && !noun.phrase.ends_with('s');
                claimed.push((start, end, noun.target, plural));
            }
        }
    }
    claimed.sort_by_key(|(start, _, _, _)| *start);
    claimed.into_iter().map(|(_, _, t, plural)| (t, plural)).collect()
}

fn has_word(text: &str, word: &str) -> bool {
    !occurrences(text, word).is_empty()
}

/// The state a resource must be in for the procedure's verb: a stopped instance to start, a
/// disabled key to enable, a trail that logs to stop logging.
fn status_for(key: &str, task: &str) -> Option<&'static str> {
    match key {
        // "Before you can delete an AccessKey pair, you must first disable it."
        "ram_access_key" if has_word(task, "delete") || has_word(task, "enable") => Some("Inactive"),
        "instance" if has_word(task, "start") => Some("Stopped"),
        "instance" => Some("Running"),
        "kms_key" if has_word(task, "enable") => Some("Disabled"),
        "trail" if has_word(task, "enable") => Some("Disable"),
        "trail" => Some("Enable"),
        "rds" => Some("Running"),
        _ => None,
    }
}

/// The keys of `key` and everything it depends on, parents first.
fn with_parents(key: &'static str, out: &mut Vec<&'static str>) {
    if let Some(t) = template(key) {
        for parent in t.parents {
            with_parents(parent, out);
        }
        if !out.contains(&key) {
            out.push(key);
        }
    }
}

/// What must exist before the procedure named `task` (a page title's task part) runs in `product`.
pub fn needs_of_task(task: &str, product: Option<&str>) -> Vec<Need> {
    let lower = task.to_lowercase();
    let first_word = lower.split_whitespace().next().unwrap_or_default();
    // "Add a RAM user to a user group": both exist, the procedure relates them.
    let relating = first_word == "add" && lower.contains(" to ");
    let creating = CREATING.contains(&first_word) && !relating;
    let targets = mentions_counted(&lower, product);
    let mut made = BTreeSet::new();
    let mut wanted: Vec<&'static str> = Vec::new();
    // "Delete vSwitches": the procedure acts on several of them at once.
    let several: BTreeSet<&'static str> = targets
        .iter()
        .filter_map(|(target, plural)| match target {
            Target::Resource(key) if *plural && !creating && counted_body(key).is_some() => Some(*key),
            _ => None,
        })
        .collect();
    for (target, _) in &targets {
        match *target {
            Target::Resource(key) if creating => {
                made.insert(key);
                if let Some(t) = template(key) {
                    let made_alongside = MADE_ALONGSIDE.iter().filter(|(k, _)| *k == key).map(|(_, p)| *p);
                    let made_alongside: Vec<&str> = made_alongside.collect();
                    for parent in t.parents.iter().filter(|p| !made_alongside.contains(p)) {
                        with_parents(parent, &mut wanted);
                    }
                }
            }
            Target::Resource(key) | Target::PartOf(key) => with_parents(key, &mut wanted),
        }
    }
    // Attaching a disk needs the instance it goes to.
    if has_word(&lower, "attach") && wanted.contains(&"disk") {
        with_parents("instance", &mut wanted);
    }
    // "Remove a RAM user from a RAM user group": the user is a member to remove.
    if first_word == "remove" && wanted.contains(&"ram_user") && wanted.contains(&"ram_group") {
        with_parents("ram_group_member", &mut wanted);
    }
    // An ALB listener forwards to a server group it is created with.
    if product == Some("alb") && wanted.contains(&"alb") && has_word(&lower, "listener") {
        with_parents("alb_server_group", &mut wanted);
    }
    ordered(wanted.into_iter().filter(|k| !made.contains(k)), &lower, &several)
}

/// What the agent's request asks for at run time, on top of what the task needs: every resource the
/// request names must exist.
pub fn needs_of_request(task: &str, request: &str, product: Option<&str>) -> Vec<Need> {
    let mut wanted: Vec<&'static str> = needs_of_task(task, product).iter().map(|n| n.key).collect();
    // The agent's request for a drop-down list that offers nothing ("… in the drop-down list
    // "Server Certificate", which lists none: …") asks for what the list names: that "none" is
    // the list's, not an absence the procedure wants.
    let sentences = request.split(['.', ';', ':', '\n']).map(|s| s.replace(EMPTY_LIST, ""));
    for sentence in sentences.filter(|s| !negates(s)) {
        for target in mentions(&sentence, product) {
            let (Target::Resource(key) | Target::PartOf(key)) = target;
            with_parents(key, &mut wanted);
        }
    }
    let several: BTreeSet<&'static str> = needs_of_task(task, product)
        .iter()
        .filter(|n| n.count > 1)
        .map(|n| n.key)
        .collect();
    let mut needs = ordered(wanted.into_iter(), &task.to_lowercase(), &several);
    if let Some(billing) = BillingMethod::requested_in(request) {
        for need in needs.iter_mut().filter(|n| template(n.key).is_some_and(|t| billed(t.body))) {
            need.billing = Some(billing);
        }
    }
    needs
}

/// Whether a template's body chooses a billing method.
pub fn billed(body: &str) -> bool {
    body.lines().any(|line| BILLING_ARGUMENTS.contains(&line.split('=').next().unwrap_or_default().trim()))
}

/// The alicloud provider's arguments that take a billing method (`PrePaid`, `PostPaid`).
pub const BILLING_ARGUMENTS: &[&str] = &["payment_type", "instance_charge_type"];

/// How the agent says that a drop-down list of resources offers none.
const EMPTY_LIST: &str = "which lists none";

/// Words of sentences that say what must not exist or what blocks the procedure ("All vSwitches of
/// the VPC are deleted", "The Delete button of a VPC that contains vSwitches is unavailable").
const ABSENCE: &[&str] = &[
    "deleted",
    "removed",
    "released",
    "no",
    "not",
    "cannot",
    "without",
    "none",
    "unavailable",
];

fn negates(sentence: &str) -> bool {
    let lower = sentence.to_lowercase();
    ABSENCE.iter().any(|w| has_word(&lower, w))
}

fn ordered(keys: impl Iterator<Item = &'static str>, task: &str, several: &BTreeSet<&'static str>) -> Vec<Need> {
    let keys: BTreeSet<&str> = keys.collect();
    TEMPLATES
        .iter()
        .filter(|t| keys.contains(t.key))
        .map(|t| Need {
            key: t.key,
            status: status_for(t.key, task),
            count: if several.contains(t.key) { SEVERAL } else { 1 },
            billing: None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_drop_down_list_that_lists_none_asks_for_what_it_names() {
        let request = "Step 1 › 4 chooses an existing resource in the drop-down list \"Server Certificate\", \
                       which lists none: In the Protocol & Listener wizard, configure the following parameters.";
        let needs: Vec<&str> = needs_of_request("Add an HTTPS listener", request, Some("slb"))
            .iter()
            .map(|n| n.key)
            .collect();
        assert_eq!(needs, ["vpc", "vswitch", "clb_certificate", "clb"]);
        // create-certificate.md: Alibaba Cloud Certificates are those of Certificate Management Service.
        let cas = "Step 2 chooses an existing resource in the drop-down list \"Certificate\", which lists none: \
                   Click Add Certificate, select Alibaba Cloud Certificates, then choose your certificate.";
        let needs: Vec<&str> = needs_of_request("Create a certificate", cas, Some("slb")).iter().map(|n| n.key).collect();
        assert_eq!(needs, ["cas_certificate"]);
        // create-certificate-old.md asks from its Create step, whose text names no kind of certificate.
        let asked_at_create = "Step 5 chooses an existing resource in the drop-down list \"Certificate\", which lists \
                               none: Click Create. You can then view the created certificate on the Certificates page.";
        let needs: Vec<&str> = needs_of_request("Create a certificate", asked_at_create, Some("slb"))
            .iter()
            .map(|n| n.key)
            .collect();
        assert_eq!(needs, ["cas_certificate"]);
    }

    fn keys(task: &str, product: &str) -> Vec<&'static str> {
        needs_of_task(task, Some(product)).iter().map(|n| n.key).collect()
    }

    #[test]
    fn a_procedure_on_several_at_once_gets_several() {
        let count = |task: &str| {
            needs_of_task(task, Some("vpc"))
                .iter()
                .find(|n| n.key == "vswitch")
                .map(|n| n.count)
        };
        assert_eq!(count("Delete vSwitches"), Some(SEVERAL));
        assert_eq!(count("Delete a vSwitch"), Some(1));
        let vpc = needs_of_task("Delete vSwitches", Some("vpc"));
        assert_eq!(
            vpc.iter().find(|n| n.key == "vpc").map(|n| n.count),
            Some(1),
            "parents stay one"
        );
    }
    #[test]
    fn a_created_resource_needs_only_what_it_goes_into() {
        assert_eq!(keys("Create a vSwitch", "vpc"), ["vpc"]);
        assert_eq!(keys("Create a VPC and a vSwitch", "vpc"), Vec::<&str>::new());
        assert_eq!(
            keys("Create an instance on the Custom Launch tab", "ecs"),
            ["vpc", "vswitch", "security_group"]
        );
        assert_eq!(keys("Add a security group rule", "ecs"), ["vpc", "security_group"]);
        assert_eq!(keys("Create a directory", "oss"), ["bucket"]);
        assert_eq!(keys("Add a domain name", "dns"), Vec::<&str>::new());
    }

    #[test]
    fn an_acted_on_resource_must_exist_in_the_state_the_verb_needs() {
        let needs = needs_of_task("Start an instance", Some("ecs"));
        assert_eq!(
            needs.last().map(|n| (n.key, n.status)),
            Some(("instance", Some("Stopped")))
        );
        let needs = needs_of_task("Restart an instance", Some("ecs"));
        assert_eq!(needs.last().map(|n| n.status), Some(Some("Running")));
        let needs = needs_of_task("Enable a key", Some("kms"));
        assert_eq!(needs.last().map(|n| n.status), Some(Some("Disabled")));
        assert_eq!(keys("Add a RAM user to a user group", "ram"), ["ram_user", "ram_group"]);
        assert_eq!(
            keys("Remove a RAM user from a RAM user group", "ram"),
            ["ram_user", "ram_group", "ram_group_member"]
        );
        assert_eq!(keys("Delete a RAM role", "ram"), ["ram_role"]);
        assert_eq!(
            keys("Revoke permissions from a RAM role", "ram"),
            ["ram_role", "ram_role_policy"]
        );
        assert_eq!(
            keys("Revoke permissions from a RAM user", "ram"),
            ["ram_user", "ram_user_policy"]
        );
        assert!(keys("Create a RAM role for a trusted Alibaba Cloud account", "ram").is_empty());
        assert_eq!(keys("Disable an AccessKey pair", "ram"), ["ram_user", "ram_access_key"]);
        assert_eq!(
            keys("Manage the grants of a policy", "ram"),
            ["ram_user", "ram_policy", "ram_policy_grant"]
        );
        assert_eq!(
            keys("Manage policy-based authorization", "ram"),
            ["ram_user", "ram_policy", "ram_policy_grant"]
        );
        assert!(keys("Create a custom policy", "ram").is_empty());
        let needs = needs_of_task("Delete an AccessKey pair", Some("ram"));
        assert_eq!(needs.last().map(|n| n.status), Some(Some("Inactive")));
        assert_eq!(
            keys("Attach a data disk", "ecs"),
            ["vpc", "vswitch", "security_group", "instance", "disk"]
        );
        assert_eq!(keys("Release an instance", "rds"), ["vpc", "vswitch", "rds"]);
    }

    #[test]
    fn an_empty_instance_id_list_asks_for_a_kms_instance_with_a_key() {
        let request = "Step Step 1 › 2 chooses an existing resource in the drop-down list \"Instance ID\", which lists none: Click the Generic Secrets tab, select the required instance ID from the Instance ID drop-down list, and then click Create Secret.";
        let keys: Vec<&str> = needs_of_request("Create a generic secret", request, Some("kms"))
            .iter()
            .map(|n| n.key)
            .collect();
        assert_eq!(keys, ["vpc", "vswitch", "kms_instance", "kms_instance_key"]);
    }

    #[test]
    fn a_request_adds_what_it_names_but_not_what_must_be_absent() {
        let keys = |request: &str| -> Vec<&str> {
            needs_of_request("Delete a VPC", request, Some("vpc"))
                .iter()
                .map(|n| n.key)
                .collect()
        };
        assert_eq!(
            keys(
                "Step 4 acts on an existing resource: find the VPC. Prerequisites: All vSwitches of the VPC are deleted. The Delete button of a VPC that contains vSwitches is unavailable."
            ),
            ["vpc"]
        );
        assert_eq!(keys("I need a VPC with a vSwitch in it."), ["vpc", "vswitch"]);
    }

    #[test]
    fn a_request_for_a_billing_method_marks_the_resources_that_choose_one() {
        let request = format!(
            "Step 2 turns on \"Automatic renewal\", which the console disables for the resource the run has \
             (\"Pay-as-you-go instances do not require renewal.\"): In the Instance Status section, turn on \
             Automatic renewal.; {}",
            BillingMethod::Subscription.request_clause()
        );
        let needs = needs_of_request("Instance renewal", &request, Some("tair"));
        let billed: Vec<(&str, Option<BillingMethod>)> = needs.iter().map(|n| (n.key, n.billing)).collect();
        assert_eq!(
            billed,
            [
                ("vpc", None),
                ("vswitch", None),
                ("tair", Some(BillingMethod::Subscription))
            ]
        );
    }

    #[test]
    fn words_match_whole_words_and_plurals() {
        assert_eq!(occurrences("delete vswitches", "vswitch"), vec![(7, 16)]);
        assert!(occurrences("a profile", "file").is_empty());
        assert_eq!(
            mentions("Stop multiple instances", Some("ecs")),
            [Target::Resource("instance")]
        );
    }

    #[test]
    fn alb_pages_get_the_instance_and_the_server_group_they_act_on() {
        // A listener is created on an instance and forwards to a server group.
        assert_eq!(
            keys("Add an HTTP listener", "alb"),
            ["vpc", "vswitch", "vswitch_b", "alb", "alb_server_group"]
        );
        assert_eq!(
            keys("Create and manage ALB instances", "alb"),
            ["vpc", "vswitch", "vswitch_b"]
        );
        assert_eq!(keys("Create and manage a server group", "alb"), ["vpc"]);
        let asked = needs_of_request(
            "Create and manage a server group",
            "Select the VPC of your ALB instance",
            Some("alb"),
        );
        assert!(asked.iter().any(|n| n.key == "alb"), "{asked:?}");
        // A CLB page keeps CLB's load balancer.
        assert_eq!(keys("Add an HTTP listener", "slb"), ["vpc", "vswitch", "clb"]);
    }
}
