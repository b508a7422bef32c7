//! The console a verification runs in: the bundled emulator (started in-process, one fresh account
//! per page, under the page's UI profile), a console given by URL with fixed credentials, the
//! accounts of a pool, one leased per page and returned (cleaned, or quarantined) after it, or the
//! real accounts of a file, one held per run ([`super::account_ring`]).

use std::sync::Arc;

use aca_console::profile::ProfileId;
use aca_console::{Console, ConsoleConfig, Credentials, Serving};
use aca_core::ProductConsole;
use aca_provision::pool::{AccountPool, Lease, return_account};
use anyhow::Context;

use super::account_ring::{AccountRing, Held};

/// What the bundled emulator's audit log may take beyond its configured delivery delay (a run's
/// last call is answered before its event is looked up, so this is slack for a loaded machine).
const DELIVERY_MARGIN_MS: u64 = 3_000;

/// Who the run logs on as, and where.
#[derive(Debug, Clone)]
pub struct RunAccount {
    pub account_id: String,
    pub login: String,
    pub password: String,
    pub access_key_id: String,
    pub access_key_secret: String,
    /// The UI profile the account sees, when the console is an emulator.
    pub profile: Option<ProfileId>,
    /// The web console's origin: where the run logs on.
    pub console_url: String,
    /// Where each product's OpenAPI (ActionTrail's included) is, per region.
    pub endpoints: aca_openapi::Endpoints,
    /// The console is an emulator: events are delivered at once, and resources are provisioned
    /// through its OpenAPI rather than with Terraform.
    pub emulator: bool,
    /// The pool lease the account is held under, given back after the run.
    pub lease: Option<Lease>,
    /// The browser profile a person logged on to this account's console in, when it is not the
    /// run options' one.
    pub browser_profile: Option<std::path::PathBuf>,
    /// The run's hold on an account of a file; dropping the last copy frees the account.
    #[allow(dead_code, reason = "held, never read: dropping it is what it is for")]
    pub held: Option<Arc<Held>>,
}

/// Credentials for a console given by URL.
#[derive(Debug, Clone)]
pub struct RemoteLogin {
    pub account_id: Option<String>,
    /// Every API at one address; `None`: the real cloud's endpoints per product and region.
    pub endpoint_override: Option<aca_openapi::Endpoints>,
    pub login: String,
    pub password: String,
    pub access_key_id: String,
    pub access_key_secret: String,
}

pub enum ConsoleTarget {
    Bundled {
        console: Arc<Console>,
        /// Serves until the target is dropped.
        serving: Serving,
    },
    Remote {
        url: String,
        login: RemoteLogin,
    },
    /// Real accounts of a file, each run alone in one, through its browser profile.
    Accounts(AccountRing),
    /// Emulator accounts of a pool; their console logons are read through the emulator's admin API.
    Pooled {
        pool: AccountPool,
        /// The pool file, for messages.
        label: String,
        admin_token: String,
    },
}

impl ConsoleTarget {
    /// Starts the bundled emulator on a free local port, keeping nothing on disk.
    pub async fn bundled() -> anyhow::Result<Self> {
        let config = ConsoleConfig {
            transition_delay_ms: 300,
            lookup_qps: 20.0,
            ..ConsoleConfig::default()
        };
        let console = Arc::new(Console::in_memory(config));
        let serving = Serving::local(console.clone())
            .await
            .context("cannot open a local port for the bundled console")?;
        Ok(Self::Bundled { console, serving })
    }

    /// The emulator accounts of the pool file `path`, each leased for one run at a time and read
    /// through the emulator's admin API with `admin_token`.
    pub fn pooled(
        path: &std::path::Path,
        lease_timeout: std::time::Duration,
        admin_token: String,
    ) -> anyhow::Result<Self> {
        Ok(Self::Pooled {
            pool: aca_provision::pool::AccountPool::open(path, lease_timeout)
                .with_context(|| format!("cannot open the account pool {}", path.display()))?,
            label: format!("the account pool {}", path.display()),
            admin_token,
        })
    }

    /// How many runs may go at once without sharing an account: `None` when each run gets an
    /// account of its own whatever the number.
    pub fn parallel_limit(&self) -> Option<usize> {
        match self {
            Self::Remote { .. } => Some(1),
            Self::Accounts(ring) => Some(ring.len()),
            Self::Bundled { .. } | Self::Pooled { .. } => None,
        }
    }

    /// How long the reward service waits for the audit log's delivery when nothing says otherwise:
    /// the bundled emulator's delivery delay is its own configuration, so a little more than it is
    /// enough; other consoles keep the reward service's default (minutes, for the real cloud).
    pub fn delivery_deadline(&self) -> Option<std::time::Duration> {
        match self {
            Self::Bundled { console, .. } => Some(std::time::Duration::from_millis(
                console.config.delivery_delay_ms.max(0) as u64 + DELIVERY_MARGIN_MS,
            )),
            Self::Remote { .. } | Self::Pooled { .. } | Self::Accounts(_) => None,
        }
    }

    /// The console's origin, or for a pool, the pool it leases from.
    pub fn url(&self) -> &str {
        match self {
            Self::Bundled { serving, .. } => &serving.url,
            Self::Remote { url, .. } => url,
            Self::Pooled { label, .. } => label,
            Self::Accounts(ring) => &ring.label,
        }
    }

    /// The account a page runs as: a fresh one under `profile` on the bundled emulator (so runs
    /// never see each other's resources or events), the given one for a console given by URL, a
    /// leased one (under its own profile) from a pool.
    pub async fn account_for(&self, name: &str, profile: ProfileId) -> anyhow::Result<RunAccount> {
        match self {
            Self::Bundled { console, serving } => {
                let c = console
                    .create_account(name, Some(profile))
                    .context("cannot create an account in the bundled console")?;
                Ok(RunAccount {
                    account_id: c.account_id,
                    login: c.login,
                    password: c.password,
                    access_key_id: c.access_key_id,
                    access_key_secret: c.access_key_secret,
                    profile: Some(profile),
                    console_url: serving.url.clone(),
                    endpoints: aca_openapi::Endpoints::pointed_at(&serving.url)
                        .context("the bundled console's address is not a URL")?,
                    emulator: true,
                    lease: None,
                    browser_profile: None,
                    held: None,
                })
            }
            Self::Remote { url, login } => Ok(RunAccount {
                account_id: login.account_id.clone().unwrap_or_default(),
                login: login.login.clone(),
                password: login.password.clone(),
                access_key_id: login.access_key_id.clone(),
                access_key_secret: login.access_key_secret.clone(),
                profile: None,
                console_url: url.clone(),
                endpoints: login
                    .endpoint_override
                    .clone()
                    .unwrap_or_else(aca_openapi::Endpoints::real_cloud),
                emulator: false,
                lease: None,
                browser_profile: None,
                held: None,
            }),
            Self::Accounts(ring) => {
                let (access, profile, held) = ring.take()?;
                Ok(RunAccount {
                    account_id: access.account_id,
                    login: access.login,
                    password: String::new(),
                    access_key_id: access.key.access_key_id,
                    access_key_secret: access.key.access_key_secret,
                    profile: None,
                    console_url: access.console_url,
                    endpoints: access.endpoints,
                    emulator: false,
                    lease: None,
                    browser_profile: Some(profile),
                    held: Some(Arc::new(held)),
                })
            }
            Self::Pooled {
                pool,
                label,
                admin_token,
            } => {
                let lease = pool
                    .lease(name)
                    .with_context(|| format!("no account of the pool {label} can be leased"))?;
                match logon(&lease, admin_token).await {
                    Ok(c) => Ok(RunAccount {
                        account_id: lease.account.id.clone(),
                        login: c.login,
                        password: c.password,
                        access_key_id: lease.account.key.access_key_id.clone(),
                        access_key_secret: lease.account.key.access_key_secret.clone(),
                        profile: Some(c.profile),
                        console_url: lease.account.endpoint.trim_end_matches('/').to_owned(),
                        endpoints: aca_openapi::Endpoints::pointed_at(&lease.account.endpoint)
                            .context("the pool account's endpoint is not a URL")?,
                        emulator: true,
                        lease: Some(lease),
                        browser_profile: None,
                        held: None,
                    }),
                    Err(e) => {
                        let _ = pool.release(&lease);
                        Err(e)
                    }
                }
            }
        }
    }

    /// Gives a pool account back after its run: what the run left is cleaned up, and an account
    /// that cannot be cleaned (or has no room left for a run) is quarantined. The note for the
    /// report when it was.
    pub async fn give_back(&self, account: &RunAccount, region: &str) -> Option<String> {
        let (Self::Pooled { pool, .. }, Some(lease)) = (self, &account.lease) else {
            return None;
        };
        match return_account(pool, lease, None, region).await {
            Ok(returned) if returned.released => None,
            Ok(returned) => Some(format!(
                "the pool account {} was quarantined: {}",
                lease.account.id,
                returned.reason.unwrap_or_default()
            )),
            Err(e) => Some(format!(
                "the pool account {} could not be returned: {e}",
                lease.account.id
            )),
        }
    }
}

/// The console logon of a leased emulator account, from the emulator's admin API.
async fn logon(lease: &Lease, admin_token: &str) -> anyhow::Result<Credentials> {
    let url = format!(
        "{}/admin/accounts/{}/credentials",
        lease.account.endpoint.trim_end_matches('/'),
        lease.account.id
    );
    let response = reqwest::Client::new()
        .get(&url)
        .bearer_auth(admin_token)
        .send()
        .await
        .with_context(|| format!("cannot read the console logon of {} at {url}", lease.account.id))?;
    if !response.status().is_success() {
        let status = response.status();
        let body = response.text().await.unwrap_or_default();
        anyhow::bail!(
            "the emulator refused the console logon of {} ({url}): HTTP {status} {body}; pool accounts \
             are verified on emulators, whose admin token --admin-token gives",
            lease.account.id
        );
    }
    response.json().await.with_context(|| {
        format!(
            "the console logon of {} is not what an emulator answers",
            lease.account.id
        )
    })
}

/// The product a page documents: its task's product, else the console its steps open or its title
/// names.
pub fn product_of(page: &super::PageInput) -> Result<&'static ProductConsole, String> {
    match &page.task {
        Some(task) => ProductConsole::by_code(&task.product).ok_or_else(|| {
            format!(
                "the task sidecar names product \"{}\", which this verifier does not know",
                task.product
            )
        }),
        None => ProductConsole::of_procedure(&page.procedure).ok_or_else(|| {
            format!(
                "the page names no console this verifier knows (title \"{}\"); add a task sidecar naming the product",
                page.procedure.title
            )
        }),
    }
}

/// Why an emulator under `profile` cannot show `product`'s console, if it cannot.
pub fn emulator_lacks(product: &ProductConsole, profile: ProfileId) -> Option<String> {
    let (console, page) = product.emulated_as();
    let name = product.names[0];
    match aca_console::ui::spec::product(profile, console) {
        None => Some(format!("the bundled console has no {name} console")),
        Some(spec) => match page {
            Some(page) if spec.page(page).is_none() => Some(format!(
                "the bundled console's {} console has no {name} page",
                spec.name
            )),
            _ => None,
        },
    }
}
