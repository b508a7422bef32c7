//! The model-backed generator: the procedure, the resource types the applier knows (with their
//! arguments) and, on a retry, what went wrong are sent to an OpenAI-compatible model; its reply is
//! read as a META (JSON) and checked before anything is created.

use aca_chat::{ChatClient, ChatRequest, Message};
use aca_core::{KeyAttribute, Procedure, ResourceMeta};
use serde::Deserialize;

use crate::state::ResourceRecord;

/// Why the model gave no usable META.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    #[error(transparent)]
    Chat(#[from] aca_chat::ChatError),
    #[error("the model's reply holds no META (a JSON object with description and terraform): {0}")]
    Unreadable(String),
    /// A reply that holds no META, kept so that the next request can show the model what it wrote.
    #[error("the model's reply holds no META (a JSON object with description and terraform): {why}")]
    Unusable { reply: String, why: String },
}

/// A model and the settings of its requests.
#[derive(Debug, Clone)]
pub struct ModelGenerator {
    pub client: ChatClient,
    pub temperature: f32,
    pub max_tokens: u32,
}

impl ModelGenerator {
    pub fn new(client: ChatClient) -> Self {
        Self {
            client,
            temperature: 0.0,
            max_tokens: 2048,
        }
    }

    /// Asks for a META. `conversation` holds earlier (reply, error) pairs of this generation, so
    /// the model sees what it wrote and why it failed.
    pub async fn draft(
        &self,
        ask: &Ask<'_>,
        conversation: &[(String, String)],
    ) -> Result<(ResourceMeta, String), ModelError> {
        let mut messages = vec![Message::system(system_prompt()), Message::user(user_prompt(ask))];
        for (reply, error) in conversation {
            messages.push(Message::assistant(reply.clone()));
            messages.push(Message::user(format!(
                "That META failed: {error}\nAnswer with a corrected JSON object only."
            )));
        }
        let request = ChatRequest {
            messages,
            temperature: Some(self.temperature),
            max_tokens: Some(self.max_tokens),
            ..Default::default()
        };
        let reply = self.client.complete(&request).await?;
        let meta = parse_reply(&reply.text).map_err(|e| match e {
            ModelError::Unreadable(why) => ModelError::Unusable {
                reply: reply.text.clone(),
                why,
            },
            other => other,
        })?;
        Ok((meta, reply.text))
    }
}

/// What the model is asked to provide for.
#[derive(Debug, Clone, Copy)]
pub struct Ask<'a> {
    pub procedure: &'a Procedure,
    pub product: Option<&'a str>,
    pub region: &'a str,
    /// The agent's request at run time.
    pub request: Option<&'a str>,
    /// Resources that exist already (provisioned before the run).
    pub existing: &'a [ResourceRecord],
}

fn system_prompt() -> String {
    let mut out = String::from(
        "You write Resource META for cloud-console procedures: the resources that must exist before the \
         procedure runs, as a Terraform configuration for the alicloud provider.\n\
         Rules:\n\
         - Declare `variable \"suffix\" { type = string }` and end every name with ${var.suffix}.\n\
         - Create only what the procedure needs to exist first: not what the procedure itself creates.\n\
         - Use only these resource types and arguments (* = required):\n",
    );
    let mut types = crate::emulator::types::resource_types();
    types.sort_by_key(|t| t.name());
    for t in types {
        let args: Vec<String> = t
            .arguments()
            .iter()
            .map(|a| format!("{}{}", a.name, if a.required { "*" } else { "" }))
            .collect();
        out.push_str(&format!("  {}: {}\n", t.name(), args.join(", ")));
    }
    out.push_str(
        "- Use `status` for the state the procedure needs (an instance to start is \"Stopped\").\n\
         Answer with one JSON object and nothing else:\n\
         {\"description\": \"one sentence\", \"key_attributes\": [{\"resource\": \"alicloud_instance.instance\", \
         \"attribute\": \"status\", \"value\": \"Running\"}], \"terraform\": \"…HCL…\"}\n",
    );
    out
}

fn user_prompt(ask: &Ask<'_>) -> String {
    let p = ask.procedure;
    let mut out = format!("Procedure: {}\n", p.title);
    if let Some(product) = ask.product {
        out.push_str(&format!("Product code: {product}\n"));
    }
    out.push_str(&format!("Region: {}\n", ask.region));
    if !p.prerequisites.is_empty() {
        out.push_str("Prerequisites:\n");
        for item in &p.prerequisites {
            out.push_str(&format!("- {item}\n"));
        }
    }
    out.push_str("Steps:\n");
    for step in p.steps.iter().flat_map(|s| s.flatten()) {
        out.push_str(&format!("{}. {}\n", step.number, step.text));
    }
    if !ask.existing.is_empty() {
        out.push_str("Already provisioned (refer to them by id, do not create them again):\n");
        for r in ask.existing {
            out.push_str(&format!("- {} id {}\n", r.address, r.id));
        }
    }
    if let Some(request) = ask.request {
        out.push_str(&format!(
            "The agent running the procedure asks for: {request}\nWrite a configuration for what is missing."
        ));
    } else {
        out.push_str("Write the META of this procedure.");
    }
    out
}

#[derive(Deserialize)]
struct Reply {
    #[serde(default)]
    description: String,
    #[serde(default)]
    key_attributes: Vec<KeyAttribute>,
    terraform: String,
}

/// Reads the JSON object of a reply (bare, or inside a ``` fence, with text around it).
pub fn parse_reply(text: &str) -> Result<ResourceMeta, ModelError> {
    let start = text.find('{');
    let end = text.rfind('}');
    let (Some(start), Some(end)) = (start, end) else {
        return Err(ModelError::Unreadable("no JSON object".into()));
    };
    if end < start {
        return Err(ModelError::Unreadable("no JSON object".into()));
    }
    let reply: Reply = serde_json::from_str(&text[start..=end]).map_err(|e| ModelError::Unreadable(e.to_string()))?;
    if reply.terraform.trim().is_empty() {
        return Err(ModelError::Unreadable("the terraform configuration is empty".into()));
    }
    Ok(ResourceMeta {
        description: reply.description,
        key_attributes: reply.key_attributes,
        terraform: reply.terraform,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_are_read_with_or_without_a_fence_and_junk_is_refused() {
        let fenced = "Here it is:\n```json\n{\"description\": \"A VPC.\", \"terraform\": \"resource \\\"alicloud_vpc\\\" \\\"vpc\\\" {}\"}\n```";
        let meta = parse_reply(fenced).unwrap();
        assert_eq!(meta.description, "A VPC.");
        assert!(meta.terraform.starts_with("resource \"alicloud_vpc\""));
        assert!(matches!(parse_reply("I cannot help"), Err(ModelError::Unreadable(_))));
        assert!(matches!(
            parse_reply("{\"description\": \"x\", \"terraform\": \"  \"}"),
            Err(ModelError::Unreadable(_))
        ));
    }

    #[test]
    fn the_prompt_lists_the_known_types_and_the_procedure() {
        let procedure = Procedure {
            title: "Elastic Compute Service:Start an instance".into(),
            ..Default::default()
        };
        let system = system_prompt();
        assert!(system.contains("alicloud_instance:"), "{system}");
        assert!(system.contains("alicloud_vpc: "), "{system}");
        let user = user_prompt(&Ask {
            procedure: &procedure,
            product: Some("ecs"),
            region: "cn-hangzhou",
            request: Some("a stopped instance"),
            existing: &[],
        });
        assert!(
            user.contains("Start an instance") && user.contains("a stopped instance"),
            "{user}"
        );
    }
}
