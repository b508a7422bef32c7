//! `/metrics`: request counts by route and status, tokens in and out (and how many of those in were
//! images'), sequences generating now, and request latency, in the Prometheus text format.

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct RouteLabels {
    pub route: String,
    pub status: u16,
}

pub struct Metrics {
    registry: Registry,
    pub requests: Family<RouteLabels, Counter>,
    pub prompt_tokens: Counter,
    /// Of the prompt tokens, those images filled.
    pub image_tokens: Counter,
    pub completion_tokens: Counter,
    pub running: Gauge,
    pub latency: Histogram,
}

impl Metrics {
    pub fn new() -> Self {
        let mut registry = Registry::with_prefix("aca_serve");
        let requests = Family::<RouteLabels, Counter>::default();
        let prompt_tokens = Counter::default();
        let image_tokens = Counter::default();
        let completion_tokens = Counter::default();
        let running = Gauge::default();
        let latency = Histogram::new(exponential_buckets(0.01, 2.0, 14));
        registry.register("requests", "HTTP requests by route and status", requests.clone());
        registry.register("prompt_tokens", "Prompt tokens processed", prompt_tokens.clone());
        registry.register("image_tokens", "Prompt tokens filled by images", image_tokens.clone());
        registry.register("completion_tokens", "Tokens generated", completion_tokens.clone());
        registry.register("running_requests", "Requests generating now", running.clone());
        registry.register("request_seconds", "Time from request to last token", latency.clone());
        Metrics {
            registry,
            requests,
            prompt_tokens,
            image_tokens,
            completion_tokens,
            running,
            latency,
        }
    }

    /// The tokens of a finished request: its prompt's (`image_tokens` of them from images) and its reply's.
    pub fn tokens(&self, prompt: u64, image_tokens: Option<u64>, completion: u64) {
        self.prompt_tokens.inc_by(prompt);
        self.image_tokens.inc_by(image_tokens.unwrap_or(0));
        self.completion_tokens.inc_by(completion);
    }

    pub fn count(&self, route: &str, status: u16) {
        self.requests
            .get_or_create(&RouteLabels {
                route: route.to_owned(),
                status,
            })
            .inc();
    }

    pub fn render(&self) -> Result<String, std::fmt::Error> {
        let mut text = String::new();
        prometheus_client::encoding::text::encode(&mut text, &self.registry)?;
        Ok(text)
    }
}

impl Default for Metrics {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_show_up_in_the_text_format() {
        let metrics = Metrics::new();
        metrics.count("/v1/chat/completions", 200);
        metrics.count("/v1/chat/completions", 200);
        metrics.completion_tokens.inc_by(7);
        let text = metrics.render().unwrap();
        assert!(
            text.contains(r#"aca_serve_requests_total{route="/v1/chat/completions",status="200"} 2"#),
            "{text}"
        );
        assert!(text.contains("aca_serve_completion_tokens_total 7"), "{text}");
    }
}
