//! A console's first-use gate ([`spec::Gate`]): the activation page shown until the service is
//! activated, then the prompt to authorize the service's roles, and RAM's Cloud Resource Access
//! Authorization page that creates them (`CreateRole` and `AttachPolicyToRole` for each role, as
//! the signed-in account's console calls).
//!
//! The authorization page reads RAM's real request format: `?request=` a JSON object whose
//! `payloads` name the roles (`roleName`) and whose `referrer` is where the console goes back to.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{Extensions, HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Redirect, Response};
use maud::html;
use serde::Deserialize;
use serde_json::{Value, json};

use super::render::{self, View};
use super::spec::{Activation, ProductSpec, RolesPrompt};
use super::{Session, console_call, not_found, page_html, resolve, session, source_ip, to_login, view};
use crate::Console;
use crate::params::Params;
use crate::products::ram::service_roles::{self, ServiceRole};

/// The page to show instead of `spec`'s pages while its gate holds, if it holds.
pub(super) fn page_instead(console: &Console, s: &Session, spec: &ProductSpec) -> Option<Response> {
    let gate = spec.gate.as_ref()?;
    let shared = console.store.account(&s.account_id)?;
    let state = shared.lock();
    let v = view(s, spec);
    if let Some(activation) = gate.activation.as_ref().filter(|a| !(a.activated)(&state)) {
        return Some(page_html(StatusCode::OK, activation_page(&v, activation, None)));
    }
    let prompt = gate.roles.as_ref()?;
    let missing = service_roles::roles_of(&prompt.service).any(|r| !service_roles::has_role(&state, r.name));
    missing.then(|| page_html(StatusCode::OK, roles_prompt(&v, prompt)))
}

fn activation_page(v: &View<'_>, activation: &Activation, error: Option<&str>) -> maud::Markup {
    let main = html! {
        div class="activation" {
            h1 { (activation.heading) }
            form method="post" action=(format!("/console/{}/activate", v.product.code)) {
                label class="checkbox" {
                    input type="checkbox" name="terms" required;
                    " " (activation.terms)
                }
                @if let Some(error) = error { p class="form-error" role="alert" { (error) } }
                button type="submit" class="btn btn-primary" { (activation.button) }
            }
        }
    };
    render::shell(v, "", false, &activation.heading, main)
}

fn roles_prompt(v: &View<'_>, prompt: &RolesPrompt) -> maud::Markup {
    let href = authorize_href(&prompt.service, &format!("/console/{}", v.product.code));
    let main = html! {
        div class="result result-warning" role="alert" {
            p { (prompt.message) }
            a class="btn btn-primary" href=(href) { (prompt.button) }
        }
    };
    render::shell(v, "", false, &v.product.name, main)
}

/// The Cloud Resource Access Authorization page's address for the roles `service` assumes.
fn authorize_href(service: &str, referrer: &str) -> String {
    let payloads: Vec<Value> = service_roles::roles_of(service)
        .map(|r| json!({ "roleName": r.name }))
        .collect();
    let request = json!({ "referrer": referrer, "payloads": payloads }).to_string();
    let encoded = percent_encoding::utf8_percent_encode(&request, percent_encoding::NON_ALPHANUMERIC);
    format!("/console/ram/authorize?request={encoded}")
}

/// Places the activation order of the product's console, then opens the console.
pub(super) async fn activate(
    State(console): State<Arc<Console>>,
    headers: HeaderMap,
    uri: Uri,
    extensions: Extensions,
    Path(code): Path<String>,
    body: Bytes,
) -> Response {
    let Some(s) = session(&console, &headers, None) else {
        return to_login(&uri);
    };
    let Some((spec, Some(api))) = resolve(&s, &code) else {
        return not_found(&format!("No console is named {code}."));
    };
    let Some(activation) = spec.gate.as_ref().and_then(|g| g.activation.as_ref()) else {
        return not_found(&format!("{} has no activation page.", spec.name));
    };
    let v = view(&s, spec);
    if form_field(&body, "terms").is_none() {
        let error = format!("Read and select {}.", activation.terms);
        return page_html(StatusCode::BAD_REQUEST, activation_page(&v, activation, Some(&error)));
    }
    let params = Params::new(activation.fixed.iter().cloned().collect());
    match console_call(&console, api, &activation.action, &params, &s, &source_ip(&extensions), false) {
        Ok(_) => Redirect::to(&format!("/console/{code}?region={}", s.region)).into_response(),
        Err(e) => page_html(e.status, activation_page(&v, activation, Some(&e.message))),
    }
}

#[derive(Debug, Deserialize)]
pub(super) struct AuthorizeQuery {
    request: Option<String>,
}

/// What an authorization request asks for: the roles, and where to go back to.
struct Request {
    roles: Vec<&'static ServiceRole>,
    referrer: String,
}

fn parse_request(raw: Option<&str>) -> Result<Request, String> {
    let raw = raw.ok_or("The authorization request is missing.")?;
    let value: Value = serde_json::from_str(raw).map_err(|e| format!("The authorization request is not JSON: {e}"))?;
    let payloads = value["payloads"].as_array().ok_or("The authorization request names no roles.")?;
    let roles = payloads
        .iter()
        .map(|p| {
            let name = p["roleName"].as_str().unwrap_or("");
            service_roles::service_role(name).ok_or_else(|| format!("No service role is named {name:?}."))
        })
        .collect::<Result<Vec<_>, _>>()?;
    if roles.is_empty() {
        return Err("The authorization request names no roles.".to_owned());
    }
    // Only a page of this console is a place to go back to.
    let referrer = value["referrer"]
        .as_str()
        .filter(|r| r.starts_with("/console/") && !r.starts_with("//"))
        .unwrap_or("/console/ram")
        .to_owned();
    Ok(Request { roles, referrer })
}

fn ram_view<'a>(s: &'a Session) -> Option<(View<'a>, &'static crate::catalog::Product)> {
    let (spec, api) = resolve(s, "ram")?;
    Some((view(s, spec), api?))
}

/// The Cloud Resource Access Authorization page.
pub(super) async fn authorize_page(
    State(console): State<Arc<Console>>,
    headers: HeaderMap,
    uri: Uri,
    Query(q): Query<AuthorizeQuery>,
) -> Response {
    let Some(s) = session(&console, &headers, None) else {
        return to_login(&uri);
    };
    let Some((v, _)) = ram_view(&s) else {
        return not_found("No console is named ram.");
    };
    let request = match parse_request(q.request.as_deref()) {
        Ok(r) => r,
        Err(message) => return not_found(&message),
    };
    let raw = q.request.unwrap_or_default();
    let main = html! {
        h1 { "Cloud Resource Access Authorization" }
        table class="table" {
            thead { tr { th { "Role" } th { "Description" } th { "Policy" } } }
            tbody {
                @for role in &request.roles {
                    tr { td { (role.name) } td { (role.description) } td { (role.policy) } }
                }
            }
        }
        form method="post" action="/console/ram/authorize" {
            input type="hidden" name="request" value=(raw);
            button type="submit" class="btn btn-primary" { "Confirm Authorization Policy" }
            a class="btn" href=(request.referrer) { "Cancel" }
        }
    };
    page_html(
        StatusCode::OK,
        render::shell(&v, "", false, "Cloud Resource Access Authorization", main),
    )
}

/// Creates the requested roles the account lacks, each with its policy, then goes back.
pub(super) async fn authorize(
    State(console): State<Arc<Console>>,
    headers: HeaderMap,
    uri: Uri,
    extensions: Extensions,
    body: Bytes,
) -> Response {
    let Some(s) = session(&console, &headers, None) else {
        return to_login(&uri);
    };
    let Some((_, api)) = ram_view(&s) else {
        return not_found("No console is named ram.");
    };
    let raw = form_field(&body, "request");
    let request = match parse_request(raw.as_deref()) {
        Ok(r) => r,
        Err(message) => return not_found(&message),
    };
    let ip = source_ip(&extensions);
    for role in &request.roles {
        let exists = console
            .store
            .account(&s.account_id)
            .is_some_and(|a| service_roles::has_role(&a.lock(), role.name));
        if exists {
            continue;
        }
        let create = Params::new(
            [
                ("RoleName", role.name.to_owned()),
                ("AssumeRolePolicyDocument", service_roles::trust_policy(role.service)),
                ("Description", role.description.to_owned()),
            ]
            .into_iter()
            .map(|(k, v)| (k.to_owned(), v))
            .collect(),
        );
        let attach = Params::new(
            [("PolicyType", "System"), ("PolicyName", role.policy), ("RoleName", role.name)]
                .into_iter()
                .map(|(k, v)| (k.to_owned(), v.to_owned()))
                .collect(),
        );
        for (action, params) in [("CreateRole", &create), ("AttachPolicyToRole", &attach)] {
            if let Err(e) = console_call(&console, api, action, params, &s, &ip, false) {
                return (e.status, format!("{action} {}: {}", role.name, e.message)).into_response();
            }
        }
    }
    Redirect::to(&request.referrer).into_response()
}

/// A field of a posted form.
fn form_field(body: &Bytes, name: &str) -> Option<String> {
    form_urlencoded::parse(body).find(|(k, _)| k == name).map(|(_, v)| v.into_owned())
}

#[cfg(test)]
mod tests;
