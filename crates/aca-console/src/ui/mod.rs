//! The console's web UI: logon, the per-product consoles rendered from [`spec`], and the front-end
//! endpoints that turn the pages' clicks into API calls (recorded in ActionTrail like any call).
//!
//! Reads go through the product's Describe/List operations and writes through its Create/Delete/…
//! operations, all via [`Console::call`] with the product's console user agent. Buy pages record
//! `ConsoleOperation` events named `Create`, as the real console does.
//!
//! URLs: `/login`; `/console` (products); `/console/<product>/<page>` (a list);
//! `/console/<product>/<page>/<id>` (details); `/console/<product>/<page>/buy/<form>` and
//! `…/create/<form>` (create flows with a page of their own); `/console/<product>/<page>/<id>/<sub>` (a
//! list nested under a resource: a bucket's objects), `…/<sub>/<sub_id>` (the own page of one of its
//! resources: a Logstore's) and `…/<sub>/create/<form>` (its create flows with a page of their own);
//! `/console/<product>/frame/<page>` (a list
//! shown in an iframe); `POST /console/api/<product>/<Action>` and `POST /console/buy/<product>/<Action>`
//! (the pages' calls). Which release a user sees is the account's profile ([`crate::profile`]).

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use aca_core::EventType;
use axum::Router;
use axum::body::Bytes;
use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::{Extensions, HeaderMap, StatusCode, Uri, header};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::Console;
use crate::catalog::Product;
use crate::dispatch::Caller;
use crate::params::Params;
use crate::products::regions::REGIONS;
use crate::profile::ProfileId;

mod gate;
pub mod render;
pub mod session;
pub mod spec;

use render::{ListData, ListQuery, SelectOptions, View, display, lookup};
use spec::{ActionKind, BatchKind, Container, Field, FormSpec, OptionSource, PageSpec, ProductSpec, Tab};

const CONSOLE_JS: &str = include_str!("../../assets/console.js");
const CONSOLE_CSS: &str = include_str!("../../assets/console.css");
const REGION_COOKIE: &str = "aca_console_region";
const GROUP_COOKIE: &str = "aca_console_rg";

/// The console's routes. Requests signed for OSS or Simple Log Service (a bucket may be named
/// `console` or `login`) are handed to the REST protocols instead.
pub fn router(console: Arc<Console>) -> Router<Arc<Console>> {
    Router::new()
        .route("/login", get(login_form).post(login))
        .route("/logout", post(logout))
        .route("/console", get(home))
        .route("/console/assets/{file}", get(asset))
        .route("/console/client-ip", get(client_ip))
        .route("/console/api/{product}/{action}", post(api_call))
        .route("/console/buy/{product}/{action}", post(buy_call))
        .route(
            "/console/ram/authorize",
            get(gate::authorize_page).post(gate::authorize),
        )
        .route("/console/{product}/activate", post(gate::activate))
        .route("/console/{product}", get(product_home))
        .route("/console/{product}/frame/{page}", get(frame))
        .route("/console/{product}/{page}", get(list))
        .route("/console/{product}/{page}/{id}", get(details))
        .route("/console/{product}/{page}/buy/{form}", get(buy_page))
        .route("/console/{product}/{page}/create/{form}", get(create_page))
        .route("/console/{product}/{page}/{id}/{sub}", get(nested))
        .route("/console/{product}/{page}/{id}/{sub}/{sub_id}", get(nested_details))
        .route(
            "/console/{product}/{page}/{id}/{sub}/create/{form}",
            get(nested_create_page),
        )
        .route_layer(axum::middleware::from_fn_with_state(console, signed_rest_requests))
}

/// Passes requests that carry an OSS or Simple Log Service signature to the REST handlers.
async fn signed_rest_requests(
    State(console): State<Arc<Console>>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let authorization = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let signed = ["OSS ", crate::rest::oss::V4_SCHEME, "LOG "]
        .iter()
        .any(|scheme| authorization.starts_with(scheme));
    if !signed {
        return next.run(request).await;
    }
    let peer = request
        .extensions()
        .get::<ConnectInfo<std::net::SocketAddr>>()
        .copied()
        .unwrap_or(ConnectInfo(std::net::SocketAddr::from(([127, 0, 0, 1], 0))));
    let (parts, body) = request.into_parts();
    // The same limit as axum's default for a `Bytes` body.
    let Ok(body) = axum::body::to_bytes(body, 2 * 1024 * 1024).await else {
        return StatusCode::PAYLOAD_TOO_LARGE.into_response();
    };
    crate::rest::fallback(State(console), peer, parts.method, parts.uri, parts.headers, body).await
}

/// The signed-in account, as the pages need it.
struct Session {
    account_id: String,
    account_name: String,
    profile: ProfileId,
    region: String,
    resource_group: String,
}

fn session(console: &Console, headers: &HeaderMap, region: Option<&str>) -> Option<Session> {
    let account_id = console.sessions.account_of(headers, console.clock.now_ms())?;
    let shared = console.store.account(&account_id)?;
    let (account_name, profile) = {
        let state = shared.lock();
        (state.account.login.clone(), state.account.profile)
    };
    let region = region
        .map(str::to_owned)
        .or_else(|| session::cookie(headers, REGION_COOKIE))
        .filter(|r| REGIONS.iter().any(|known| known.id == r))
        .unwrap_or_else(|| console.config.default_region.clone());
    let resource_group = session::cookie(headers, GROUP_COOKIE).unwrap_or_default();
    Some(Session {
        account_id,
        account_name,
        profile,
        region,
        resource_group,
    })
}

fn to_login(uri: &Uri) -> Response {
    let next = uri.path_and_query().map(|p| p.as_str()).unwrap_or("/console");
    let encoded = percent_encoding::utf8_percent_encode(next, percent_encoding::NON_ALPHANUMERIC);
    Redirect::to(&format!("/login?next={encoded}")).into_response()
}

/// The address the console sees the signed-in browser at: what Load Local Public IP Address adds
/// to a whitelist.
async fn client_ip(State(console): State<Arc<Console>>, headers: HeaderMap, extensions: Extensions) -> Response {
    if session(&console, &headers, None).is_none() {
        return StatusCode::UNAUTHORIZED.into_response();
    }
    axum::Json(json!({ "ip": source_ip(&extensions) })).into_response()
}

fn source_ip(extensions: &Extensions) -> String {
    extensions
        .get::<ConnectInfo<std::net::SocketAddr>>()
        .map(|ConnectInfo(addr)| addr.ip().to_string())
        .unwrap_or_else(|| "127.0.0.1".to_owned())
}

fn page_html(status: StatusCode, markup: maud::Markup) -> Response {
    (status, Html(markup.into_string())).into_response()
}

#[derive(Debug, Deserialize, Default)]
struct LoginQuery {
    next: Option<String>,
}

async fn login_form(Query(q): Query<LoginQuery>) -> Response {
    page_html(
        StatusCode::OK,
        render::login_page(None, "", q.next.as_deref().unwrap_or("")),
    )
}

async fn login(State(console): State<Arc<Console>>, Query(q): Query<LoginQuery>, body: Bytes) -> Response {
    let form: HashMap<String, String> = form_urlencoded::parse(&body).into_owned().collect();
    let login = form.get("login").map(|s| s.trim().to_owned()).unwrap_or_default();
    let password = form.get("password").cloned().unwrap_or_default();
    let account = console
        .store
        .account_by_login(&login)
        .map(|shared| shared.lock().account.clone());
    match account {
        Some(account) if account.password == password => {
            let token = console.sessions.start(&account.id, console.clock.now_ms());
            let next = q
                .next
                .filter(|n| n.starts_with('/') && !n.starts_with("//"))
                .unwrap_or_else(|| "/console".to_owned());
            // Kept by the browser across restarts for the session's life, as the real console's
            // log-on cookies are: a saved browser profile stays logged on.
            let cookie = format!(
                "{}={token}; Path=/; Max-Age={}; HttpOnly; SameSite=Lax",
                session::COOKIE_NAME,
                session::SESSION_TTL_MS / 1000
            );
            ([(header::SET_COOKIE, cookie)], Redirect::to(&next)).into_response()
        }
        _ => page_html(
            StatusCode::UNAUTHORIZED,
            render::login_page(
                Some("The logon name or password is incorrect. Check and try again."),
                &login,
                q.next.as_deref().unwrap_or(""),
            ),
        ),
    }
}

async fn logout(State(console): State<Arc<Console>>, headers: HeaderMap) -> Response {
    if let Some(token) = session::cookie(&headers, session::COOKIE_NAME) {
        console.sessions.end(&token);
    }
    let cookie = format!("{}=; Path=/; Max-Age=0", session::COOKIE_NAME);
    ([(header::SET_COOKIE, cookie)], Redirect::to("/login")).into_response()
}

async fn asset(Path(file): Path<String>) -> Response {
    match file.as_str() {
        "console.js" => ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], CONSOLE_JS).into_response(),
        "console.css" => ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], CONSOLE_CSS).into_response(),
        _ => StatusCode::NOT_FOUND.into_response(),
    }
}

#[derive(Debug, Deserialize, Default)]
struct PageQuery {
    region: Option<String>,
    page: Option<i64>,
    key: Option<usize>,
    q: Option<String>,
    marker: Option<String>,
    dir: Option<String>,
    /// For a create page of a list nested under a resource: that resource.
    parent: Option<String>,
    filter: Option<String>,
    /// The list tab shown (its index).
    tab: Option<usize>,
}

async fn home(
    State(console): State<Arc<Console>>,
    headers: HeaderMap,
    uri: Uri,
    Query(q): Query<PageQuery>,
) -> Response {
    let Some(s) = session(&console, &headers, q.region.as_deref()) else {
        return to_login(&uri);
    };
    page_html(
        StatusCode::OK,
        render::home_page(s.profile, &s.account_name, &s.account_id, &s.region),
    )
}

/// A product's console under the session's release, and the API product behind it (if served).
fn resolve(s: &Session, code: &str) -> Option<(&'static ProductSpec, Option<&'static Product>)> {
    let spec = spec::product(s.profile, code)?;
    Some((spec, api_product(&spec.api)))
}

/// The API product behind a console: an RPC product, or OSS / Simple Log Service (REST protocols
/// whose operations run through the same [`Console::call`]).
pub fn api_product(code: &str) -> Option<&'static Product> {
    crate::products::by_code(code).or(match code {
        "oss" => Some(&crate::rest::oss::PRODUCT),
        "sls" => Some(&crate::rest::sls::PRODUCT),
        _ => None,
    })
}

fn view<'a>(s: &'a Session, spec: &'a ProductSpec) -> View<'a> {
    View {
        profile: s.profile,
        product: spec,
        account_name: &s.account_name,
        account_id: &s.account_id,
        region: &s.region,
        resource_group: &s.resource_group,
        parent_id: "",
    }
}

/// A logged-on page of a product whose API is served: (session, console spec, API product), or the
/// response to send instead (the logon page, not found, or "product unavailable").
fn served_product(
    console: &Console,
    headers: &HeaderMap,
    uri: &Uri,
    code: &str,
    region: Option<&str>,
) -> Result<(Session, &'static ProductSpec, &'static Product), Box<Response>> {
    let Some(s) = session(console, headers, region) else {
        return Err(Box::new(to_login(uri)));
    };
    let Some((spec, api)) = resolve(&s, code) else {
        return Err(Box::new(not_found(&format!("No console is named {code}."))));
    };
    if let Some(instead) = gate::page_instead(console, &s, spec) {
        return Err(Box::new(instead));
    }
    match api {
        Some(api) => Ok((s, spec, api)),
        None => {
            let unavailable = render::unavailable_page(&view(&s, spec));
            Err(Box::new(page_html(StatusCode::SERVICE_UNAVAILABLE, unavailable)))
        }
    }
}

fn not_found(what: &str) -> Response {
    let body = maud::html! {
        (maud::DOCTYPE)
        html { head { title { "Page not found - Alibaba Cloud Console" } link rel="stylesheet"
            href="/console/assets/console.css"; }
            body { main class="home" { h1 { "The page does not exist" } p { (what) } a class="btn btn-primary"
                href="/console" { "Back to Console home" } } } }
    };
    page_html(StatusCode::NOT_FOUND, body)
}

async fn product_home(
    State(console): State<Arc<Console>>,
    headers: HeaderMap,
    uri: Uri,
    Path(code): Path<String>,
    Query(q): Query<PageQuery>,
) -> Response {
    let Some(s) = session(&console, &headers, q.region.as_deref()) else {
        return to_login(&uri);
    };
    let Some((spec, _)) = resolve(&s, &code) else {
        return not_found(&format!("No console is named {code}."));
    };
    Redirect::to(&format!("/console/{}/{}?region={}", spec.code, spec.home(), s.region)).into_response()
}

/// Calls a product operation as the console front end of the signed-in account.
fn console_call(
    console: &Console,
    product: &'static Product,
    action: &str,
    params: &Params,
    s: &Session,
    ip: &str,
    buy: bool,
) -> Result<Value, crate::error::ApiError> {
    let caller = Caller {
        account_id: s.account_id.clone(),
        access_key_id: String::new(),
        user_name: None,
        user_agent: product.console_agent.to_owned(),
        source_ip: ip.to_owned(),
        event_type: if buy {
            EventType::ConsoleOperation
        } else {
            EventType::ApiCall
        },
        event_name: buy.then(|| "Create".to_owned()),
    };
    console.call(product, action, params, &caller).result
}

fn list_params(page: &PageSpec, s: &Session, query: &ListQuery) -> Params {
    let mut params = Params::default();
    if page.regional {
        params.insert("RegionId", s.region.clone());
    }
    if page.total_path.is_some() {
        params.insert(page.page_param.clone(), query.page_number.max(1).to_string());
        params.insert("PageSize", page.page_size.to_string());
    }
    if let Some(marker) = &page.marker {
        params.insert(marker.size_param.clone(), page.page_size.to_string());
        if !query.marker.is_empty() {
            params.insert(marker.param.clone(), query.marker.clone());
        }
    }
    for (k, v) in &page.list_params {
        params.insert(k.clone(), v.clone());
    }
    if !s.resource_group.is_empty() && page.regional {
        params.insert("ResourceGroupId", s.resource_group.clone());
    }
    if let Some(tab) = page.list_tabs.get(query.tab).or_else(|| page.list_tabs.first()) {
        for (k, v) in &tab.params {
            params.insert(k.clone(), v.clone());
        }
    }
    if let Some(filter) = page.filter.as_ref().filter(|_| !query.filter.is_empty()) {
        for (k, v) in &filter.params {
            params.insert(k.clone(), v.replace("{v}", &query.filter));
        }
    }
    if let Some(option) = page.search.get(query.search_key).filter(|_| !query.q.is_empty()) {
        for (k, v) in &option.params {
            params.insert(k.clone(), v.replace("{q}", &query.q));
        }
    }
    // A folder's list: the keys under its name (a search looks for names within it), rolled up.
    if let Some(folders) = &page.folders {
        let searched = params.get(&folders.prefix_param).unwrap_or("").to_owned();
        let prefix = if searched.starts_with(&query.dir) {
            searched
        } else {
            format!("{}{searched}", query.dir)
        };
        params.insert(folders.prefix_param.clone(), prefix);
        params.insert(folders.delimiter_param.clone(), folders.delimiter.clone());
    }
    params
}

/// Runs a page's list operation and reads the items out of the response.
fn fetch_list(
    console: &Console,
    product: &'static Product,
    page: &PageSpec,
    params: &Params,
    s: &Session,
    ip: &str,
) -> ListData {
    let page_number = params.get(&page.page_param).and_then(|n| n.parse().ok()).unwrap_or(1);
    let product = page.api.as_deref().and_then(api_product).unwrap_or(product);
    match console_call(console, product, &page.list_action, params, s, ip, false) {
        Ok(body) => ListData {
            items: folder_rows(
                page,
                params,
                &body,
                list_items(console, product, page, params, lookup(&body, &page.items_path), s, ip),
            ),
            next_marker: page
                .marker
                .as_ref()
                .and_then(|m| lookup(&body, &m.next_path))
                .map(|v| display(Some(v)))
                .filter(|m| !m.is_empty()),
            // Some products return the count as a string (CloudMonitor's `"Total": "3"`).
            total: page
                .total_path
                .as_deref()
                .and_then(|p| lookup(&body, p))
                .and_then(|v| v.as_i64().or_else(|| v.as_str()?.parse().ok())),
            page_number,
            error: None,
        },
        Err(e) if page.empty_codes.contains(&e.code) => ListData {
            page_number,
            ..ListData::default()
        },
        Err(e) => ListData {
            error: Some(format!("{}: {}", e.code, e.message)),
            page_number,
            ..ListData::default()
        },
    }
}

/// For a folder's list ([`PageSpec::folders`]): its sub-folders first, then its items, each with
/// `Name`, its key within the folder; the folder's own marker object is not a row of it.
fn folder_rows(page: &PageSpec, params: &Params, body: &Value, items: Vec<Value>) -> Vec<Value> {
    let Some(folders) = &page.folders else {
        return items;
    };
    let dir = params.get(&folders.prefix_param).unwrap_or("");
    // A search's prefix may end inside a name: names are shown within the folder being browsed.
    let dir = &dir[..dir
        .rfind(folders.delimiter.as_str())
        .map_or(0, |at| at + folders.delimiter.len())];
    let sub_folders = lookup(body, &folders.items_path)
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default()
        .into_iter()
        .map(|f| {
            let key = display(lookup(&f, &folders.field));
            json!({ page.id_field.clone(): key, "Directory": true })
        });
    sub_folders
        .chain(items)
        .filter_map(|mut item| {
            let key = display(lookup(&item, &page.id_field));
            if key == dir {
                return None;
            }
            let name = key.strip_prefix(dir).unwrap_or(&key).to_owned();
            item.as_object_mut()?.insert("Name".to_owned(), Value::String(name));
            Some(item)
        })
        .collect()
}

/// The rows of a list response: an array, or one object (a bucket's ACL); with the page's
/// [`PageSpec::item_details`] operation each row is described one by one: a bare id becomes the
/// description, an object gains its fields.
fn list_items(
    console: &Console,
    product: &'static Product,
    page: &PageSpec,
    params: &Params,
    found: Option<&Value>,
    s: &Session,
    ip: &str,
) -> Vec<Value> {
    let items = match found {
        Some(Value::Array(items)) => items.clone(),
        Some(object @ Value::Object(_)) => vec![object.clone()],
        _ => Vec::new(),
    };
    let Some(describe) = &page.item_details else {
        return items;
    };
    items
        .into_iter()
        .map(|item| {
            let id = match &item {
                Value::String(id) => id.clone(),
                other => display(lookup(other, &page.id_field)),
            };
            let mut one = Params::default();
            if let Some(parent) = &page.parent
                && let Some(parent_id) = params.get(&parent.param)
            {
                one.insert(parent.param.clone(), parent_id.to_owned());
            }
            one.insert(page.id_param.clone(), id.clone());
            let described = console_call(console, product, describe, &one, s, ip, false);
            match (item, described) {
                (Value::Object(mut row), Ok(Value::Object(fields))) => {
                    row.extend(fields);
                    Value::Object(row)
                }
                (_, Ok(described)) => described,
                (row @ Value::Object(_), Err(_)) => row,
                (_, Err(_)) => json!({ page.id_field.clone(): id }),
            }
        })
        .collect()
}

/// The options of every resource select on the given forms; a select listing resources nested
/// under another (a Tair instance's accounts) lists those of `parent`, the resource the page is about.
fn select_options<'a>(
    console: &Console,
    s: &Session,
    forms: impl Iterator<Item = &'a FormSpec>,
    parent: Option<&str>,
    ip: &str,
) -> SelectOptions {
    field_options(console, s, forms.flat_map(FormSpec::fields_and_panels), parent, ip)
}

/// The options of the resource selects among `fields`, keyed `product/page`.
fn field_options<'a>(
    console: &Console,
    s: &Session,
    fields: impl Iterator<Item = &'a Field>,
    parent: Option<&str>,
    ip: &str,
) -> SelectOptions {
    let fields: Vec<&Field> = fields.collect();
    let mut out = SelectOptions::new();
    // Each resource select's listed items, by the select's parameter: (id, item).
    let mut listed: HashMap<String, Vec<(String, Value)>> = HashMap::new();
    {
        for field in &fields {
            let Some(OptionSource::Resources { product, page }) = field.kind.options() else {
                continue;
            };
            let key = format!("{product}/{page}");
            if out.contains_key(&key) {
                continue;
            }
            let source =
                spec::product(s.profile, product).and_then(|spec| Some((spec.page(page)?, api_product(&spec.api)?)));
            let items = match source {
                Some((source_page, _)) if source_page.parent.is_some() && parent.is_none() => Vec::new(),
                Some((source_page, api)) => {
                    let mut params = list_params(source_page, s, &ListQuery::default());
                    if let (Some(nested), Some(id)) = (&source_page.parent, parent) {
                        params.insert(nested.param.clone(), id.to_owned());
                    }
                    if source_page.total_path.is_some() {
                        params.insert("PageSize", "50");
                    }
                    let items = fetch_list(console, api, source_page, &params, s, ip).items;
                    let options = items
                        .iter()
                        .map(|item| {
                            let id = display(lookup(item, &source_page.id_field));
                            let name = display(lookup(item, &source_page.name_field));
                            let label = if name.is_empty() || name == id {
                                id.clone()
                            } else {
                                format!("{name} ({id})")
                            };
                            (id, label)
                        })
                        .collect();
                    listed.insert(
                        field.param.clone(),
                        items
                            .into_iter()
                            .map(|item| (display(lookup(&item, &source_page.id_field)), item))
                            .collect(),
                    );
                    options
                }
                None => Vec::new(),
            };
            out.insert(key, items);
        }
    }
    // A select showing what the resource chosen in another holds: (that resource's id, a value) pairs.
    for field in &fields {
        let Some(OptionSource::OfChosen { field: chosen, paths }) = field.kind.options() else {
            continue;
        };
        let pairs = listed
            .get(chosen)
            .into_iter()
            .flatten()
            .flat_map(|(id, item)| {
                paths
                    .iter()
                    .flat_map(|path| match lookup(item, path) {
                        Some(Value::Array(values)) => values.iter().map(|v| display(Some(v))).collect(),
                        value => vec![display(value)],
                    })
                    .filter(|value| !value.is_empty())
                    .map(|value| (id.clone(), value))
                    .collect::<Vec<_>>()
            })
            .collect();
        out.insert(OptionSource::chosen_key(chosen, paths), pairs);
    }
    out
}

fn page_forms(page: &PageSpec) -> impl Iterator<Item = &FormSpec> {
    page.creates
        .iter()
        .chain(page.row_actions.iter().filter_map(|a| match &a.kind {
            ActionKind::Form(form) => Some(form.as_ref()),
            _ => None,
        }))
        .chain(page.batch_actions.iter().filter_map(|b| match &b.kind {
            BatchKind::Form(form) => Some(form.as_ref()),
            BatchKind::Call { .. } => None,
        }))
}

fn list_query(q: &PageQuery) -> ListQuery {
    ListQuery {
        page_number: q.page.unwrap_or(1).max(1),
        search_key: q.key.unwrap_or(0),
        q: q.q.clone().unwrap_or_default().trim().to_owned(),
        marker: q.marker.clone().unwrap_or_default(),
        dir: q.dir.clone().unwrap_or_default(),
        filter: q.filter.clone().unwrap_or_default().trim().to_owned(),
        tab: q.tab.unwrap_or(0),
    }
}

async fn list(
    State(console): State<Arc<Console>>,
    headers: HeaderMap,
    uri: Uri,
    extensions: Extensions,
    Path((code, page_id)): Path<(String, String)>,
    Query(q): Query<PageQuery>,
) -> Response {
    let (s, spec, api) = match served_product(&console, &headers, &uri, &code, q.region.as_deref()) {
        Ok(found) => found,
        Err(response) => return *response,
    };
    let v = view(&s, spec);
    let Some(page) = spec.page(&page_id).filter(|p| p.parent.is_none()) else {
        return not_found(&format!("{} has no page {page_id}.", spec.name));
    };
    let ip = source_ip(&extensions);
    let query = list_query(&q);
    let client_side = page.search.iter().all(|o| o.params.is_empty());
    let data = if page.in_frame {
        ListData::default()
    } else {
        let mut data = fetch_list(&console, api, page, &list_params(page, &s, &query), &s, &ip);
        if client_side && !query.q.is_empty() {
            let needle = query.q.to_lowercase();
            data.items
                .retain(|item| item.to_string().to_lowercase().contains(&needle));
        }
        data
    };
    let fields = page_forms(page)
        .flat_map(FormSpec::fields_and_panels)
        .chain(page.filter.as_ref().map(|f| &f.field));
    let options = field_options(&console, &s, fields, None, &ip);
    page_html(StatusCode::OK, render::list_page(&v, page, &data, &query, &options))
}

async fn frame(
    State(console): State<Arc<Console>>,
    headers: HeaderMap,
    uri: Uri,
    extensions: Extensions,
    Path((code, page_id)): Path<(String, String)>,
    Query(q): Query<PageQuery>,
) -> Response {
    let (s, spec, api) = match served_product(&console, &headers, &uri, &code, q.region.as_deref()) {
        Ok(found) => found,
        Err(response) => return *response,
    };
    let v = view(&s, spec);
    let Some(page) = spec.page(&page_id).filter(|p| p.in_frame) else {
        return not_found("No such view.");
    };
    let query = list_query(&q);
    let data = fetch_list(
        &console,
        api,
        page,
        &list_params(page, &s, &query),
        &s,
        &source_ip(&extensions),
    );
    page_html(StatusCode::OK, render::frame_page(&v, page, &data, &query))
}

async fn details(
    State(console): State<Arc<Console>>,
    headers: HeaderMap,
    uri: Uri,
    extensions: Extensions,
    Path((code, page_id, id)): Path<(String, String, String)>,
    Query(q): Query<PageQuery>,
) -> Response {
    let (s, spec, api) = match served_product(&console, &headers, &uri, &code, q.region.as_deref()) {
        Ok(found) => found,
        Err(response) => return *response,
    };
    let v = view(&s, spec);
    let Some(page) = spec.page(&page_id).filter(|p| !p.tabs.is_empty() && p.parent.is_none()) else {
        return not_found("No such page.");
    };
    details_response(&console, &s, v, api, page, &id, &source_ip(&extensions))
}

/// The own page of a resource of a list nested under another resource (a Logstore of a project).
async fn nested_details(
    State(console): State<Arc<Console>>,
    headers: HeaderMap,
    uri: Uri,
    extensions: Extensions,
    Path((code, parent_page, parent_id, page_id, id)): Path<(String, String, String, String, String)>,
    Query(q): Query<PageQuery>,
) -> Response {
    let (s, spec, api) = match served_product(&console, &headers, &uri, &code, q.region.as_deref()) {
        Ok(found) => found,
        Err(response) => return *response,
    };
    let mut v = view(&s, spec);
    v.parent_id = &parent_id;
    let Some(page) = spec
        .page(&page_id)
        .filter(|p| !p.tabs.is_empty() && p.parent.as_ref().is_some_and(|parent| parent.page == parent_page))
    else {
        return not_found("No such page.");
    };
    let page = page.bound_to(&parent_id);
    details_response(&console, &s, v, api, &page, &id, &source_ip(&extensions))
}

/// A resource's details page: the resource as its list describes it, with the lists its tabs show.
fn details_response(
    console: &Console,
    s: &Session,
    v: View<'_>,
    api: &'static Product,
    page: &PageSpec,
    id: &str,
    ip: &str,
) -> Response {
    let mut params = list_params(page, s, &ListQuery::default());
    params.insert(page.id_param.clone(), id);
    let data = fetch_list(console, api, page, &params, s, ip);
    let Some(item) = data
        .items
        .iter()
        .find(|item| display(lookup(item, &page.id_field)) == id)
    else {
        return not_found(&format!(
            "The resource {id} does not exist in {}, or it has been released.",
            s.region
        ));
    };
    let mut children: Vec<(PageSpec, ListData)> = Vec::new();
    for tab in page.tabs.iter().flat_map(Tab::leaves) {
        let Tab::Children {
            product,
            page: child_id,
            filter_param,
            filter_field,
            ..
        } = tab
        else {
            continue;
        };
        let Some(child_spec) = spec::product(s.profile, product) else {
            continue;
        };
        let (Some(child), Some(child_api)) = (child_spec.page(child_id), api_product(&child_spec.api)) else {
            continue;
        };
        let mut params = list_params(child, s, &ListQuery::default());
        let filter = filter_field.as_deref().map_or_else(|| id.to_owned(), |f| display(lookup(item, f)));
        params.insert(filter_param.clone(), filter);
        let data = fetch_list(console, child_api, child, &params, s, ip);
        // A list nested under this resource acts on it too: its calls carry the resource's id.
        let mut bound = child.bound_to_resource(id, item);
        // Each check is asked once, whichever of the buttons it decides (Enable Console Logon,
        // Modify Logon Settings).
        let mut answered: HashMap<(String, String), bool> = HashMap::new();
        bound.creates.retain(|form| {
            form.shown_if.as_ref().is_none_or(|check| {
                let key = (check.action.clone(), check.param.clone());
                let answers = *answered.entry(key).or_insert_with(|| {
                    let mut params = Params::default();
                    params.insert("RegionId", s.region.clone());
                    params.insert(check.param.clone(), id);
                    console_call(console, child_api, &check.action, &params, s, ip, false).is_ok()
                });
                answers == check.exists
            })
        });
        children.push((bound, data));
    }
    let options = select_options(
        console,
        s,
        page_forms(page).chain(children.iter().flat_map(|(c, _)| page_forms(c))),
        Some(id),
        ip,
    );
    page_html(
        StatusCode::OK,
        render::details_page(&v, page, item, &children, &options),
    )
}

/// A list nested under a resource of another page (`/console/oss/buckets/<bucket>/objects`).
async fn nested(
    State(console): State<Arc<Console>>,
    headers: HeaderMap,
    uri: Uri,
    extensions: Extensions,
    Path((code, parent_page, parent_id, page_id)): Path<(String, String, String, String)>,
    Query(q): Query<PageQuery>,
) -> Response {
    let (s, spec, api) = match served_product(&console, &headers, &uri, &code, q.region.as_deref()) {
        Ok(found) => found,
        Err(response) => return *response,
    };
    let mut v = view(&s, spec);
    v.parent_id = &parent_id;
    let Some(page) = spec
        .page(&page_id)
        .filter(|p| p.parent.as_ref().is_some_and(|parent| parent.page == parent_page))
    else {
        return not_found(&format!("{} has no page {parent_page}/{page_id}.", spec.name));
    };
    let page = page.bound_to(&parent_id);
    let ip = source_ip(&extensions);
    let query = list_query(&q);
    let data = fetch_list(&console, api, &page, &list_params(&page, &s, &query), &s, &ip);
    let page = page.carrying(&data.items).in_folder(&query.dir);
    let options = select_options(&console, &s, page_forms(&page), Some(&parent_id), &ip);
    page_html(StatusCode::OK, render::list_page(&v, &page, &data, &query, &options))
}

type FormPath = Path<(String, String, String)>;

async fn buy_page(
    State(console): State<Arc<Console>>,
    headers: HeaderMap,
    uri: Uri,
    extensions: Extensions,
    Path(path): FormPath,
    Query(q): Query<PageQuery>,
) -> Response {
    form_page(&console, &headers, &uri, &extensions, path, &q, Container::BuyPage)
}

async fn create_page(
    State(console): State<Arc<Console>>,
    headers: HeaderMap,
    uri: Uri,
    extensions: Extensions,
    Path(path): FormPath,
    Query(q): Query<PageQuery>,
) -> Response {
    form_page(&console, &headers, &uri, &extensions, path, &q, Container::Page)
}

/// A create flow with a page of its own of a list nested under a resource (Create Logstore).
async fn nested_create_page(
    State(console): State<Arc<Console>>,
    headers: HeaderMap,
    uri: Uri,
    extensions: Extensions,
    Path((code, _parent_page, parent_id, page_id, form_id)): Path<(String, String, String, String, String)>,
    Query(mut q): Query<PageQuery>,
) -> Response {
    // The same page as `create/…?parent=ID`, under the path of the resource it belongs to.
    q.parent = Some(parent_id);
    form_page(
        &console,
        &headers,
        &uri,
        &extensions,
        (code, page_id, form_id),
        &q,
        Container::Page,
    )
}

/// A create flow with a page of its own (`buy/…` for buy pages, `create/…` for the others).
fn form_page(
    console: &Console,
    headers: &HeaderMap,
    uri: &Uri,
    extensions: &Extensions,
    (code, page_id, form_id): (String, String, String),
    q: &PageQuery,
    container: Container,
) -> Response {
    let (s, spec, _) = match served_product(console, headers, uri, &code, q.region.as_deref()) {
        Ok(found) => found,
        Err(response) => return *response,
    };
    let mut v = view(&s, spec);
    let Some(page) = spec.page(&page_id) else {
        return not_found("No such page.");
    };
    // A page nested under a resource creates under the one it was opened for.
    let parent = q.parent.as_deref().filter(|_| page.parent.is_some());
    if page.parent.is_some() && parent.is_none() {
        return not_found("No such page.");
    }
    let page = page.bound_to(parent.unwrap_or_default());
    v.parent_id = parent.unwrap_or_default();
    let Some(form) = page
        .creates
        .iter()
        .find(|f| f.id == form_id && f.container == container)
    else {
        return not_found("No such page.");
    };
    let options = select_options(console, &s, std::iter::once(form), parent, &source_ip(extensions));
    page_html(StatusCode::OK, render::form_page(&v, &page, form, &options))
}

/// Request parameters from a JSON object (values as strings) or a urlencoded form.
fn body_params(headers: &HeaderMap, body: &Bytes) -> Result<Params, String> {
    let is_json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|ct| ct.starts_with("application/json"));
    let mut map = BTreeMap::new();
    if is_json {
        let value: Value = serde_json::from_slice(body).map_err(|e| format!("the request body is not JSON: {e}"))?;
        let Value::Object(object) = value else {
            return Err("the request body must be a JSON object".to_owned());
        };
        for (k, v) in object {
            let text = match v {
                Value::String(s) => s,
                Value::Null => continue,
                other => other.to_string(),
            };
            map.insert(k, text);
        }
    } else {
        map.extend(form_urlencoded::parse(body).into_owned());
    }
    Ok(Params::new(map))
}

fn front_end_call(
    console: &Console,
    headers: &HeaderMap,
    extensions: &Extensions,
    code: &str,
    action: &str,
    body: &Bytes,
    buy: bool,
) -> Response {
    let error = |status: StatusCode, code: &str, message: &str| {
        (status, axum::Json(json!({ "Code": code, "Message": message }))).into_response()
    };
    let Some(s) = session(console, headers, None) else {
        return error(
            StatusCode::UNAUTHORIZED,
            "NotLoggedIn",
            "Your session has expired. Log on again.",
        );
    };
    let Some((_, api)) = resolve(&s, code) else {
        return error(
            StatusCode::NOT_FOUND,
            "InvalidProduct.NotFound",
            "The product does not exist.",
        );
    };
    let Some(api) = api else {
        return error(
            StatusCode::SERVICE_UNAVAILABLE,
            "ServiceUnavailable",
            "The product is unavailable.",
        );
    };
    let params = match body_params(headers, body) {
        Ok(p) => p,
        Err(message) => return error(StatusCode::BAD_REQUEST, "InvalidParameter", &message),
    };
    // OSS uploads: the page sends the object's content as `Body`, which travels as the request body.
    let (params, content) = if api.code == "oss" {
        let mut map = params.as_map().clone();
        let content = map.remove("Body").unwrap_or_default();
        (Params::new(map), Bytes::from(content))
    } else {
        (params, Bytes::new())
    };
    let (result, _) = crate::rest::with_body(content, || {
        console_call(console, api, action, &params, &s, &source_ip(extensions), buy)
    });
    match result {
        Ok(body) => axum::Json(body).into_response(),
        Err(e) => (e.status, axum::Json(json!({ "Code": e.code, "Message": e.message }))).into_response(),
    }
}

async fn api_call(
    State(console): State<Arc<Console>>,
    headers: HeaderMap,
    extensions: Extensions,
    Path((code, action)): Path<(String, String)>,
    body: Bytes,
) -> Response {
    front_end_call(&console, &headers, &extensions, &code, &action, &body, false)
}

async fn buy_call(
    State(console): State<Arc<Console>>,
    headers: HeaderMap,
    extensions: Extensions,
    Path((code, action)): Path<(String, String)>,
    body: Bytes,
) -> Response {
    front_end_call(&console, &headers, &extensions, &code, &action, &body, true)
}

#[cfg(test)]
mod renewal_tests;
#[cfg(test)]
mod tests;
