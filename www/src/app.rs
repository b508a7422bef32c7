//! The dashboard's views (leptos): the overview (figures, pass rates by product and by tree,
//! defects by kind, flaky pages, runs per day), the runs with their re-run action, the defect list
//! with its filters and mark-as-known action, and a page's history. Views read from the location's
//! hash, so each has an address.

use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::prelude::*;

use crate::api;
use crate::model::{Defect, DefectFilter, DefectState, Group, Overview, Route, Run, pass_rate, percent_encode};

fn current_route() -> Route {
    let hash = web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default();
    Route::from_hash(&hash)
}

#[component]
pub fn Dashboard() -> impl IntoView {
    let route = RwSignal::new(current_route());
    let follow = Closure::<dyn FnMut()>::new(move || route.set(current_route()));
    if let Some(window) = web_sys::window() {
        let _ = window.add_event_listener_with_callback("hashchange", follow.as_ref().unchecked_ref());
    }
    follow.forget();
    let link = move |href: &'static str, label: &'static str, is: fn(&Route) -> bool| {
        view! { <a href=href class=move || if is(&route.get()) { "current" } else { "" }>{label}</a> }
    };
    view! {
        <header>
            <strong>"Documentation verification"</strong>
            {link("#/", "Overview", |r| *r == Route::Overview)}
            {link("#/runs", "Runs", |r| *r == Route::Runs)}
            {link("#/defects", "Defects", |r| *r == Route::Defects)}
            <SignIn />
        </header>
        <main>
            {move || match route.get() {
                Route::Overview => view! { <OverviewView /> }.into_any(),
                Route::Runs => view! { <RunsView /> }.into_any(),
                Route::Defects => view! { <DefectsView /> }.into_any(),
                Route::History { page } => view! { <HistoryView page /> }.into_any(),
                Route::Run { id } => view! { <RunView id /> }.into_any(),
            }}
        </main>
    }
}

/// Who is signed in, with a form to sign in (a user's token, sent once and never kept by the page)
/// or out.
#[component]
fn SignIn() -> impl IntoView {
    let user = RwSignal::new(None::<String>);
    let token = RwSignal::new(String::new());
    let message = RwSignal::new(String::new());
    spawn_local(async move { user.set(api::signed_in().await) });
    let sign_in = move |ev: web_sys::SubmitEvent| {
        ev.prevent_default();
        let given = token.get_untracked();
        token.set(String::new());
        spawn_local(async move {
            match api::sign_in(given.trim()).await {
                Ok(name) => {
                    message.set(String::new());
                    user.set(Some(name));
                }
                Err(why) => message.set(format!("Not signed in: {why}")),
            }
        });
    };
    let sign_out = move |_| {
        spawn_local(async move {
            match api::delete("/v1/session").await {
                Ok(_) => user.set(None),
                Err(why) => message.set(format!("Not signed out: {why}")),
            }
        });
    };
    view! {
        <div class="session">
            {move || match user.get() {
                Some(name) => view! {
                    <span id="signed-in">"Signed in as " <strong>{name}</strong></span>
                    " "
                    <button id="sign-out" on:click=sign_out>"Sign out"</button>
                }
                .into_any(),
                None => view! {
                    <form id="sign-in" on:submit=sign_in>
                        <input
                            id="user-token"
                            type="password"
                            autocomplete="off"
                            placeholder="Your user token"
                            prop:value=move || token.get()
                            on:input=move |ev| token.set(event_target_value(&ev))
                        />
                        <button type="submit">"Sign in"</button>
                    </form>
                }
                .into_any(),
            }}
            <span class="message" id="session-message">{move || message.get()}</span>
        </div>
    }
}

/// Fetches `path` once into a signal: `None` while it loads, then the answer or what went wrong.
fn fetched<T: serde::de::DeserializeOwned + Send + Sync + 'static>(
    path: String,
) -> RwSignal<Option<Result<T, String>>> {
    let answer = RwSignal::new(None);
    spawn_local(async move { answer.set(Some(api::get::<T>(&path).await)) });
    answer
}

/// Posts an action and says in `message` how it went.
fn act(path: String, body: serde_json::Value, message: RwSignal<String>, done: &'static str, refused: &'static str) {
    spawn_local(async move {
        message.set(match api::post(&path, &body).await {
            Ok(_) => done.to_owned(),
            Err(why) => format!("{refused}: {why}"),
        });
    });
}

fn loading_or<T: Clone + Send + Sync + 'static, V: IntoView + 'static>(
    answer: RwSignal<Option<Result<T, String>>>,
    show: impl Fn(T) -> V + Send + Sync + 'static,
) -> impl IntoView {
    move || match answer.get() {
        None => view! { <p class="loading">"Loading…"</p> }.into_any(),
        Some(Err(why)) => view! { <p class="error" id="error">{why}</p> }.into_any(),
        Some(Ok(value)) => show(value).into_any(),
    }
}

#[component]
fn OverviewView() -> impl IntoView {
    let overview = fetched::<Overview>("/v1/results/overview?days=30".into());
    view! { <div id="overview">{loading_or(overview, overview_view)}</div> }
}

fn overview_view(overview: Overview) -> impl IntoView {
    // When the figures reach the page: what `aca bench platform` reads as the first paint.
    request_animation_frame(|| {
        if let Some(performance) = web_sys::window().and_then(|w| w.performance()) {
            let _ = performance.mark("aca-figures");
        }
    });
    let totals = &overview.totals;
    let passed = totals
        .by_verdict
        .iter()
        .find(|(v, _)| v == "pass")
        .map_or(0, |(_, n)| *n);
    let figures = view! {
        <section class="figures">
            <div class="figure"><strong id="total-runs">{totals.runs}</strong>"runs"</div>
            <div class="figure"><strong id="total-passed">{passed}</strong>"passed"</div>
            <div class="figure"><strong id="total-tokens">{totals.prompt_tokens + totals.completion_tokens}</strong>"model tokens"</div>
            <div class="figure"><strong id="total-cost">{format!("${:.2}", totals.cost_usd)}</strong>"model cost"</div>
        </section>
    };
    let per_day_max = overview.per_day.iter().map(|d| d.runs).max().unwrap_or(1).max(1);
    let per_day = overview
        .per_day
        .iter()
        .map(|d| {
            let day = js_sys::Date::new(&JsValue::from_f64(d.day_ms as f64))
                .to_iso_string()
                .as_string()
                .unwrap_or_default();
            let width = format!("width: {}px", d.runs * 200 / per_day_max);
            view! {
                <tr>
                    <td>{day.get(..10).unwrap_or_default().to_owned()}</td>
                    <td class=format!("verdict-{}", d.verdict)>{d.verdict.clone()}</td>
                    <td class="number">{d.runs}</td>
                    <td><span class="bar" style=width></span></td>
                </tr>
            }
        })
        .collect_view();
    let kinds = overview
        .defects_by_kind
        .iter()
        .map(|k| {
            view! {
                <tr id=format!("kind-{}", k.kind)>
                    <td><a href="#/defects">{k.kind.clone()}</a></td>
                    <td class="number new">{k.new}</td>
                    <td class="number known">{k.known}</td>
                    <td class="number fixed">{k.fixed}</td>
                </tr>
            }
        })
        .collect_view();
    let flaky = overview
        .flaky
        .iter()
        .map(|f| {
            let href = format!("#/history?page={}", percent_encode(&f.page));
            view! {
                <tr class="flaky">
                    <td><a href=href>{f.page.clone()}</a></td>
                    <td class="number">{f.verdicts}</td>
                    <td class="number">{f.runs}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        {figures}
        <section>
            <h2>"Pass rate by product (each page's latest run)"</h2>
            {groups_table("product", &overview.by_product)}
        </section>
        <section>
            <h2>"Pass rate by documentation tree"</h2>
            {groups_table("tree", &overview.by_tree)}
        </section>
        <section>
            <h2>"Defects by type"</h2>
            <table>
                <thead><tr><th>"type"</th><th class="number">"new"</th><th class="number">"known"</th><th class="number">"fixed"</th></tr></thead>
                <tbody>{kinds}</tbody>
            </table>
        </section>
        <section>
            <h2>"Flaky pages (verdict changed with the page unchanged)"</h2>
            <table>
                <thead><tr><th>"page"</th><th class="number">"verdicts"</th><th class="number">"runs"</th></tr></thead>
                <tbody id="flaky">{flaky}</tbody>
            </table>
        </section>
        <section>
            <h2>"Runs per day (30 days)"</h2>
            <table><tbody id="per-day">{per_day}</tbody></table>
        </section>
    }
}

fn groups_table(what: &'static str, groups: &[Group]) -> impl IntoView + use<> {
    let rows = groups
        .iter()
        .map(|g| {
            view! {
                <tr id=format!("{what}-{}", g.name)>
                    <td>{g.name.clone()}</td>
                    <td class="number pages">{g.pages}</td>
                    <td class="number passed">{g.passed}</td>
                    <td class="number rate">{pass_rate(g.passed, g.pages)}</td>
                    <td class="number doc_defect">{g.doc_defect}</td>
                    <td class="number environment_failure">{g.environment_failure}</td>
                    <td class="number agent_failure">{g.agent_failure}</td>
                    <td class="number unverified">{g.unverified}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <table>
            <thead>
                <tr>
                    <th>{what}</th><th class="number">"pages"</th><th class="number">"passed"</th>
                    <th class="number">"pass rate"</th><th class="number">"doc defect"</th>
                    <th class="number">"environment"</th><th class="number">"agent"</th>
                    <th class="number">"unverified"</th>
                </tr>
            </thead>
            <tbody>{rows}</tbody>
        </table>
    }
}

#[component]
fn RunsView() -> impl IntoView {
    let runs = fetched::<Vec<Run>>("/v1/results/runs?limit=500".into());
    let message = RwSignal::new(String::new());
    view! {
        <section id="runs">
            <h2>"Runs, newest first"</h2>
            <p id="runs-message">{move || message.get()}</p>
            {loading_or(runs, move |runs| runs_table(runs, Some(message)))}
        </section>
    }
}

fn runs_table(runs: Vec<Run>, rerun_message: Option<RwSignal<String>>) -> impl IntoView {
    let rows = runs
        .into_iter()
        .map(|run| {
            let history = format!("#/history?page={}", percent_encode(&run.page));
            let started = js_sys::Date::new(&JsValue::from_f64(run.started_ms as f64))
                .to_iso_string()
                .as_string()
                .unwrap_or_default();
            let rerun = match (run.job_id.clone(), rerun_message) {
                (Some(job), Some(message)) => {
                    let id = format!("rerun-{job}");
                    view! {
                        <button id=id on:click=move |_| {
                            act(format!("/v1/jobs/{job}/rerun"), serde_json::json!({}), message, "Queued again.", "Not queued")
                        }>"re-run"</button>
                    }
                    .into_any()
                }
                _ => ().into_any(),
            };
            view! {
                <tr class="run" data-run=run.id.clone()>
                    <td>{started.get(..19).unwrap_or_default().replace('T', " ")}</td>
                    <td>{run.tree.clone()}</td>
                    <td><a href=history>{run.page.clone()}</a></td>
                    <td class=format!("verdict verdict-{}", run.verdict)>
                        <a href=format!("#/run?id={}", percent_encode(&run.id))>{run.verdict.clone()}</a>
                    </td>
                    <td class="number">{run.defects}</td>
                    <td class="number">{run.attempt}</td>
                    <td class="number">{format!("{:.1} s", run.duration_ms as f64 / 1000.0)}</td>
                    <td>{run.summary.clone()}</td>
                    <td>{rerun}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <table>
            <thead>
                <tr>
                    <th>"started (UTC)"</th><th>"tree"</th><th>"page"</th><th>"verdict"</th>
                    <th class="number">"defects"</th><th class="number">"attempt"</th>
                    <th class="number">"time"</th><th>"summary"</th><th></th>
                </tr>
            </thead>
            <tbody>{rows}</tbody>
        </table>
    }
}

#[component]
fn DefectsView() -> impl IntoView {
    let defects = fetched::<Vec<Defect>>("/v1/results/defects".into());
    let filter = RwSignal::new(DefectFilter::default());
    let message = RwSignal::new(String::new());
    // The choices of a filter: every value the list holds.
    let choices = move |of: fn(&Defect) -> Option<String>| {
        let mut values: Vec<String> = match defects.get() {
            Some(Ok(list)) => list.iter().filter_map(of).collect(),
            _ => Vec::new(),
        };
        values.sort();
        values.dedup();
        values
            .into_iter()
            .map(|v| view! { <option value=v.clone()>{v.clone()}</option> })
            .collect_view()
    };
    let chosen = |ev: leptos::ev::Event| {
        let value = event_target_value(&ev);
        (!value.is_empty()).then_some(value)
    };
    view! {
        <section id="defects">
            <h2>"Defects of each page's latest run"</h2>
            <div class="filters">
                <select id="filter-kind" on:change=move |ev| filter.update(|f| f.kind = chosen(ev))>
                    <option value="">"every type"</option>
                    {move || choices(|d| Some(d.kind.clone()))}
                </select>
                <select id="filter-product" on:change=move |ev| filter.update(|f| f.product = chosen(ev))>
                    <option value="">"every product"</option>
                    {move || choices(|d| d.product.clone())}
                </select>
                <select id="filter-tree" on:change=move |ev| filter.update(|f| f.tree = chosen(ev))>
                    <option value="">"every tree"</option>
                    {move || choices(|d| Some(d.tree.clone()))}
                </select>
                <select id="filter-state" on:change=move |ev| {
                    filter.update(|f| f.state = chosen(ev).and_then(|name| DefectState::from_name(&name)))
                }>
                    <option value="">"new, known and fixed"</option>
                    <option value="new">"new"</option>
                    <option value="known">"known"</option>
                    <option value="fixed">"fixed"</option>
                </select>
                <input id="filter-search" type="search" placeholder="page, step or label"
                    on:input=move |ev| { let value = event_target_value(&ev); filter.update(|f| f.search = value); } />
            </div>
            <p id="defects-message">{move || message.get()}</p>
            {loading_or(defects, move |list: Vec<Defect>| {
                move || {
                    let shown: Vec<Defect> = list.iter().filter(|d| filter.get().keeps(d)).cloned().collect();
                    let count = shown.len();
                    let rows = shown.into_iter().map(|d| defect_row(d, message)).collect_view();
                    view! {
                        <p id="defects-shown">{count}" shown"</p>
                        <table>
                            <thead><tr><th>"page"</th><th>"step"</th><th>"type"</th><th>"the page says"</th><th>"the console shows"</th><th>"state"</th><th></th></tr></thead>
                            <tbody>{rows}</tbody>
                        </table>
                    }
                }
            })}
        </section>
    }
}

fn defect_row(defect: Defect, message: RwSignal<String>) -> impl IntoView {
    let history = format!("#/history?page={}", percent_encode(&defect.page));
    let status = defect.state.as_str();
    let body = serde_json::json!({
        "page": defect.page, "kind": defect.kind, "step": defect.step, "documented": defect.documented,
    });
    let mark = (defect.state == DefectState::New).then(|| {
        view! {
            <button class="mark-known" on:click=move |_| {
                act("/v1/results/defects/known".into(), body.clone(), message, "Marked as known.", "Not marked")
            }>"mark as known"</button>
        }
    });
    view! {
        <tr class=format!("defect {status}")>
            <td><a href=history>{defect.page.clone()}</a></td>
            <td>{defect.step.clone()}</td>
            <td>{defect.kind.clone()}</td>
            <td>{defect.documented.clone()}</td>
            <td>{defect.observed.clone()}</td>
            <td>{status}</td>
            <td>{mark}</td>
        </tr>
    }
}

#[component]
fn HistoryView(page: String) -> impl IntoView {
    let path = format!("/v1/results/history?page={}", percent_encode(&page));
    let history = fetched::<Vec<Run>>(path);
    view! {
        <section id="history">
            <h2>"History of "{page}</h2>
            {loading_or(history, |runs| runs_table(runs, None))}
        </section>
    }
}

#[component]
fn RunView(id: String) -> impl IntoView {
    let report = fetched::<aca_core::Report>(format!("/v1/results/runs/{}", percent_encode(&id)));
    view! {
        <section id="run">
            {loading_or(report, move |report| run_report(&id, report))}
        </section>
    }
}

/// A run's per-step report with its marked screenshots, as the report's HTML shows it.
fn run_report(id: &str, report: aca_core::Report) -> impl IntoView + use<> {
    let verdict = word(&report.verdict);
    let steps = report
        .steps
        .iter()
        .map(|step| {
            let status = word(&step.grade.status);
            view! {
                <tr class=format!("step {status}")>
                    <td>{step.grade.step.clone()}</td>
                    <td>{status.to_uppercase()}</td>
                    <td>{step.text.clone()}</td>
                    <td>{step.grade.note.clone().unwrap_or_default()}</td>
                </tr>
            }
        })
        .collect_view();
    let defects = report
        .defects
        .iter()
        .map(|d| {
            view! {
                <li class="run-defect">
                    {format!("Step {} ({}): the page says \"{}\", the console shows \"{}\"", d.step, word(&d.kind), d.documented, d.observed)}
                </li>
            }
        })
        .collect_view();
    let shots = report
        .screenshots
        .iter()
        .map(|shot| {
            let src = format!("/v1/results/runs/{}/files/{}", percent_encode(id), shot.path);
            let caption = match &shot.step {
                Some(step) => format!("turn {} (step {step})", shot.turn + 1),
                None => format!("turn {}", shot.turn + 1),
            };
            view! { <figure class="shot"><img src=src alt=caption.clone() width="480" /><figcaption>{caption}</figcaption></figure> }
        })
        .collect_view();
    view! {
        <h2>{report.title.clone()}</h2>
        <p class=format!("verdict-{verdict}") id="run-verdict">{verdict.clone()}" — "{report.summary.clone()}</p>
        <p>{report.page.clone()}</p>
        <table>
            <thead><tr><th>"step"</th><th>"status"</th><th>"the page says"</th><th>"note"</th></tr></thead>
            <tbody>{steps}</tbody>
        </table>
        <ul>{defects}</ul>
        <div class="shots">{shots}</div>
    }
}

/// The `snake_case` word serde gives an enum of the report (`doc_defect`, `renamed_label`).
fn word(value: &impl serde::Serialize) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(word)) => word,
        _ => String::new(),
    }
}
