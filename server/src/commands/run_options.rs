//! The options of a verification run that `aca verify` and `aca server` share: the console and its
//! account, the policy and its model, the judges, the browser.

use std::path::PathBuf;
use std::time::Duration;

use aca_agent::{LlmConfig, Pricing, ScreenshotSize};
use aca_chat::{ChatClient, ChatConfig, Price};
use aca_console::profile::ProfileId;
use aca_runner::RunnerConfig;
use anyhow::{Context, bail};
use clap::{Args, ValueEnum};

use crate::verify::account_ring::AccountRing;
use crate::verify::drive::Capture;
use crate::verify::target::{ConsoleTarget, RemoteLogin};
use crate::verify::{PolicyChoice, Settings};

#[derive(Debug, Args)]
pub struct RunOptions {
    /// A console to run in instead of the bundled emulator (its origin, e.g. http://127.0.0.1:8080).
    #[arg(long, value_name = "URL")]
    console: Option<String>,
    /// A browser profile already logged on to --console (log on in it once, as a person would):
    /// the run uses that session and types no password.
    #[arg(long, value_name = "DIR", requires = "console", conflicts_with_all = ["login", "password"])]
    user_data_dir: Option<PathBuf>,
    /// Console logon name for --console, for a console whose log-on form the run fills itself (the
    /// emulator's); a real account uses --user-data-dir.
    #[arg(long, env = "ACA_LOGIN", requires = "console")]
    login: Option<String>,
    /// Console password for --login.
    #[arg(long, env = "ACA_PASSWORD", hide_env_values = true, requires = "login")]
    password: Option<String>,
    /// The account's AccessKey pair as JSON (`{"accessKeyId": …, "accessKeySecret": …}`), for
    /// reading its audit log and provisioning; instead of the two variables below.
    #[arg(long, value_name = "FILE", requires = "console", conflicts_with_all = ["access_key_id", "access_key_secret"])]
    credentials: Option<PathBuf>,
    /// AccessKey ID for --console.
    #[arg(long, env = "ALIBABA_CLOUD_ACCESS_KEY_ID", requires = "console")]
    access_key_id: Option<String>,
    /// AccessKey secret for --console.
    #[arg(
        long,
        env = "ALIBABA_CLOUD_ACCESS_KEY_SECRET",
        hide_env_values = true,
        requires = "console"
    )]
    access_key_secret: Option<String>,
    /// The account id of --console (events of other accounts are ignored).
    #[arg(long, requires = "console")]
    account_id: Option<String>,
    /// Send every OpenAPI call of --console (ActionTrail's included) to this address, e.g. an
    /// emulator started separately; without it each product's real endpoint for the region is used
    /// (ecs-cn-hangzhou.aliyuncs.com, actiontrail.cn-hangzhou.aliyuncs.com, …).
    #[arg(long, value_name = "URL", requires = "console")]
    endpoint_override: Option<String>,
    /// Run in the real accounts of this file instead, each page alone in one account, several
    /// pages at once in as many accounts (the `aca server --accounts` format; each account names
    /// the browser_profile a person logged on to its console in once).
    #[arg(long, value_name = "FILE", conflicts_with = "console")]
    run_accounts: Option<PathBuf>,
    /// UI profile of the bundled console (default: the one each page was written for, else 2026).
    #[arg(long, value_parser = parse_profile)]
    profile: Option<ProfileId>,
    /// Who chooses the actions: the scripted policy (no model) or a model.
    #[arg(long, value_enum, default_value_t = PolicyArg::Scripted)]
    policy: PolicyArg,
    /// OpenAI-compatible API base for --policy llm, e.g. http://127.0.0.1:8000/v1.
    #[arg(long, env = "ACA_MODEL_URL")]
    model_url: Option<String>,
    /// Model name for --policy llm.
    #[arg(long, env = "ACA_MODEL", default_value = "qwen3")]
    model: String,
    /// API key for the model endpoint.
    #[arg(long, env = "ACA_MODEL_API_KEY", hide_env_values = true)]
    api_key: Option<String>,
    /// Model price in USD per million input tokens (for the report's cost).
    #[arg(long, default_value_t = 0.0)]
    price_input: f64,
    /// Model price in USD per million output tokens.
    #[arg(long, default_value_t = 0.0)]
    price_output: f64,
    /// Seconds to wait for one model reply.
    #[arg(long, default_value_t = 120)]
    model_timeout: u64,
    /// Whether --policy llm shows the model the page's marked screenshot beside its element tree:
    /// `auto` when the endpoint's model list says the model takes images (`aca serve` with a
    /// Qwen3-VL checkpoint does), `always`, or `never`.
    #[arg(long, value_enum, default_value_t = ScreenshotsToModel::Auto, value_name = "WHEN")]
    screenshots_to_model: ScreenshotsToModel,
    /// The largest screenshot the model is shown, WIDTHxHEIGHT; the viewport is scaled down to fit.
    #[arg(long, default_value = "1280x720", value_name = "SIZE")]
    model_screenshot_size: ScreenshotSize,
    /// Most actions one page may take.
    #[arg(long, default_value_t = 40)]
    max_turns: u32,
    /// Seconds to wait for the audit events (default: the bundled console's delivery delay plus 3, 12 minutes elsewhere).
    #[arg(long)]
    rule_deadline: Option<u64>,
    /// Two LLM judges (a TOML file: each `[[judge]]` with url, model, key_file, prices) that decide
    /// pages no audit event can: both yes → pass, both no → fail, disagreement → invalid. Without
    /// them such pages end `unverified`.
    #[arg(long, value_name = "FILE", env = "ACA_JUDGES")]
    pub judges: Option<PathBuf>,
    /// Do not save a screenshot after every action.
    #[arg(long)]
    no_screenshots: bool,
    /// The Chromium binary.
    #[arg(long, env = "CHROMIUM", default_value = "/usr/bin/chromium")]
    chromium: PathBuf,
    /// The built aca-dom package (default: ACA_DOM_PKG, then the build folder).
    #[arg(long, value_name = "DIR")]
    page_side: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PolicyArg {
    Scripted,
    Llm,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ScreenshotsToModel {
    Auto,
    Always,
    Never,
}

fn parse_profile(text: &str) -> Result<ProfileId, String> {
    text.parse().map_err(|e| format!("{e}"))
}

impl RunOptions {
    /// The console the runs go to: --console with its account, the accounts of --run-accounts,
    /// else the bundled emulator.
    pub async fn target(&self) -> anyhow::Result<ConsoleTarget> {
        if let Some(file) = &self.run_accounts {
            return Ok(ConsoleTarget::Accounts(AccountRing::load(file)?));
        }
        let Some(url) = &self.console else {
            return ConsoleTarget::bundled().await;
        };
        let key = match &self.credentials {
            Some(path) => aca_openapi::AccessKeyPair::from_file(path)?,
            None => aca_openapi::AccessKeyPair::new(
                self.access_key_id.clone().context(
                    "--console needs the account's AccessKey: --credentials FILE, or ALIBABA_CLOUD_ACCESS_KEY_ID and ALIBABA_CLOUD_ACCESS_KEY_SECRET",
                )?,
                self.access_key_secret
                    .clone()
                    .context("--console needs ALIBABA_CLOUD_ACCESS_KEY_SECRET with ALIBABA_CLOUD_ACCESS_KEY_ID")?,
            ),
        };
        if self.user_data_dir.is_none() && self.login.is_none() {
            bail!(
                "--console needs a way into the console: --user-data-dir DIR (a browser profile logged on to it once), \
                 or --login and --password for a console whose log-on form the run may fill (the emulator's)"
            );
        }
        Ok(ConsoleTarget::Remote {
            url: url.trim_end_matches('/').to_owned(),
            login: RemoteLogin {
                account_id: self.account_id.clone(),
                endpoint_override: self
                    .endpoint_override
                    .as_deref()
                    .map(aca_openapi::Endpoints::pointed_at)
                    .transpose()
                    .context("--endpoint-override")?,
                login: self.login.clone().unwrap_or_default(),
                password: self.password.clone().unwrap_or_default(),
                access_key_id: key.access_key_id,
                access_key_secret: key.access_key_secret,
            },
        })
    }

    /// Whether the model is shown screenshots, as --screenshots-to-model says; `auto` asks the
    /// endpoint which inputs the model takes and says what it decided.
    async fn shows_screenshots(&self, client: &ChatClient) -> bool {
        let model = &self.model;
        match self.screenshots_to_model {
            ScreenshotsToModel::Always => true,
            ScreenshotsToModel::Never => false,
            ScreenshotsToModel::Auto => match client.input_modalities().await {
                Ok(Some(inputs)) if inputs.iter().any(|i| i == "image") => {
                    eprintln!("{model} takes images: the model is shown each page's marked screenshot");
                    true
                }
                Ok(Some(_)) => false,
                Ok(None) => {
                    eprintln!(
                        "the endpoint does not say whether {model} takes images: it is asked in words only \
                         (--screenshots-to-model always sends screenshots)"
                    );
                    false
                }
                Err(e) => {
                    eprintln!("the endpoint's model list could not be read ({e}): {model} is asked in words only");
                    false
                }
            },
        }
    }

    /// The settings of every run these options start; reports go under `out`.
    pub async fn settings(&self, out: PathBuf) -> anyhow::Result<Settings> {
        let price = Price {
            input_per_mtok: self.price_input,
            output_per_mtok: self.price_output,
        };
        let (policy, model) = match self.policy {
            PolicyArg::Scripted => (PolicyChoice::Scripted, None),
            PolicyArg::Llm => {
                let url = self.model_url.clone().context(
                    "--policy llm needs --model-url (an OpenAI-compatible API base such as http://127.0.0.1:8000/v1)",
                )?;
                let mut config = ChatConfig::new(url, self.model.clone());
                config.api_key = self.api_key.clone();
                config.timeout = Duration::from_secs(self.model_timeout);
                config.price = Some(price);
                let client = ChatClient::new(config)?;
                let llm = LlmConfig {
                    model: self.model.clone(),
                    pricing: Pricing {
                        input_per_million: self.price_input,
                        output_per_million: self.price_output,
                    },
                    screenshots: self
                        .shows_screenshots(&client)
                        .await
                        .then_some(self.model_screenshot_size),
                    ..LlmConfig::default()
                };
                (PolicyChoice::Llm(llm), Some(client))
            }
        };
        let mut runner = RunnerConfig {
            chromium: self.chromium.clone(),
            user_data_dir: self.user_data_dir.clone(),
            ..RunnerConfig::default()
        };
        if let Some(dir) = &self.page_side {
            runner.page_side = dir.clone();
        }
        Ok(Settings {
            policy,
            model,
            profile: self.profile,
            out,
            capture: if self.no_screenshots {
                Capture::None
            } else {
                Capture::EveryAction
            },
            max_turns: self.max_turns,
            rule_deadline: self.rule_deadline.map(Duration::from_secs),
            runner,
            runtime_provisioning: true,
            judges: match &self.judges {
                Some(path) => Some(std::sync::Arc::new(
                    aca_service::judges::load(path).map_err(|e| anyhow::anyhow!(e))?,
                )),
                None => None,
            },
            recordings: None,
        })
    }
}
