//! Billing methods as consoles name them and as a resource request asks for one: the agent writes
//! the request's phrase, the ResourceCoder reads it back, both through this one type.

use serde::{Deserialize, Serialize};

/// How a resource is paid for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BillingMethod {
    /// Paid in advance for a period (`PrePaid`): renewed, never released by a delete call.
    Subscription,
    /// Billed by use (`PostPaid`).
    PayAsYouGo,
}

/// How a request for a resource says which billing method it needs, before the method's words.
const NEEDS: &str = "it needs a resource billed by";

impl BillingMethod {
    /// The method a console text names ("Pay-as-you-go instances do not require renewal."), by the
    /// words the help pages and the API use for it; `None` when it names none or both.
    pub fn named_in(text: &str) -> Option<Self> {
        let lower = text.to_lowercase();
        let has = |words: &[&str]| words.iter().any(|w| lower.contains(w));
        let subscription = has(&["subscription", "prepaid", "pre-paid"]);
        let pay_as_you_go = has(&["pay-as-you-go", "pay as you go", "postpaid", "post-paid"]);
        match (subscription, pay_as_you_go) {
            (true, false) => Some(Self::Subscription),
            (false, true) => Some(Self::PayAsYouGo),
            _ => None,
        }
    }

    /// The other method: what a control refused for this one needs.
    pub fn other(self) -> Self {
        match self {
            Self::Subscription => Self::PayAsYouGo,
            Self::PayAsYouGo => Self::Subscription,
        }
    }

    /// The API's value (`ChargeType`, `payment_type`, `instance_charge_type`).
    pub fn charge_type(self) -> &'static str {
        match self {
            Self::Subscription => "PrePaid",
            Self::PayAsYouGo => "PostPaid",
        }
    }

    /// The method in words.
    pub fn words(self) -> &'static str {
        match self {
            Self::Subscription => "subscription",
            Self::PayAsYouGo => "pay-as-you-go",
        }
    }

    /// The clause a resource request ends with to ask for this method.
    pub fn request_clause(self) -> String {
        format!("{NEEDS} {} ({})", self.words(), self.charge_type())
    }

    /// The method a resource request asks for with [`Self::request_clause`].
    pub fn requested_in(request: &str) -> Option<Self> {
        let (_, rest) = request.split_once(NEEDS)?;
        [Self::Subscription, Self::PayAsYouGo]
            .into_iter()
            .find(|m| rest.trim_start().starts_with(m.words()))
    }
}

#[cfg(test)]
mod tests {
    use super::BillingMethod::{self, *};

    #[test]
    fn a_console_hint_names_the_method_a_control_is_refused_for() {
        assert_eq!(
            BillingMethod::named_in("Pay-as-you-go instances do not require renewal."),
            Some(PayAsYouGo)
        );
        assert_eq!(BillingMethod::named_in("Only subscription instances"), Some(Subscription));
        assert_eq!(BillingMethod::named_in("Subscription or pay-as-you-go"), None);
        assert_eq!(BillingMethod::named_in("The instance is not running."), None);
    }

    #[test]
    fn a_request_clause_reads_back_as_the_method_it_asks_for() {
        for method in [Subscription, PayAsYouGo] {
            let request = format!("Step 2 turns on \"X\" (Pay-as-you-go only): {}", method.request_clause());
            assert_eq!(BillingMethod::requested_in(&request), Some(method));
        }
        assert_eq!(BillingMethod::requested_in("Pay-as-you-go instances do not require renewal."), None);
    }
}
