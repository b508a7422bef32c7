//! The options page (leptos): the companion server's URL and token and the optional chat model of the
//! LLM policy, saved through the service worker, and a connection check that saves them and calls the
//! server with them. Sites the extension was not granted at install (the server's, the model's, the
//! assigned consoles') are asked for here, from the person's click.

use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::prelude::*;

use crate::chrome;
use crate::messages::{Reply, Request};
use crate::origins;
use crate::rpc::ask;
use crate::settings::Settings;

/// Mounts the options page into `options.html`.
#[wasm_bindgen]
pub fn start_options() {
    leptos::mount::mount_to_body(Options);
}

#[component]
fn Options() -> impl IntoView {
    let server_url = RwSignal::new(String::new());
    let token = RwSignal::new(String::new());
    let model_url = RwSignal::new(String::new());
    let model = RwSignal::new(String::new());
    let model_key = RwSignal::new(String::new());
    let model_screenshots = RwSignal::new(false);
    let form = move || Settings {
        server_url: server_url.get(),
        token: token.get(),
        model_url: model_url.get(),
        model: model.get(),
        model_key: model_key.get(),
        model_screenshots: model_screenshots.get(),
    };
    let show = move |settings: Settings| {
        server_url.set(settings.server_url);
        token.set(settings.token);
        model_url.set(settings.model_url);
        model.set(settings.model);
        model_key.set(settings.model_key);
        model_screenshots.set(settings.model_screenshots);
    };
    let status = RwSignal::new(None::<Result<String, String>>);
    // The form appears once the saved settings are in it, so nothing typed earlier is overwritten.
    let loaded = RwSignal::new(false);
    spawn_local(async move {
        match ask(&Request::LoadSettings).await {
            Ok(Reply::Settings { settings }) => show(settings),
            Ok(_) => {}
            Err(e) => status.set(Some(Err(e))),
        }
        loaded.set(true);
    });
    // Sites outside the ones granted at install (a self-hosted server, a model elsewhere) are asked
    // for in the click itself: the browser asks the person only during a gesture.
    let ask_for_sites = move |settings: &Settings| {
        let urls = [settings.server_url.clone(), settings.model_url.clone()];
        let patterns = origins::to_ask_for(urls.iter().map(String::as_str).filter(|u| !u.trim().is_empty()));
        let asked = (!patterns.is_empty()).then(|| chrome::request_origins(&patterns));
        async move {
            match asked {
                None => Ok(()),
                Some(asked) => match asked.await {
                    Ok(true) => Ok(()),
                    Ok(false) => Err(format!(
                        "the extension may not reach {} until you allow it: save again and allow the access",
                        patterns.join(", ")
                    )),
                    Err(e) => Err(e.to_string()),
                },
            }
        }
    };
    // Capturing the console tab needs the permission to capture any tab (`<all_urls>`): it is asked
    // for when the box is ticked, and the box stays clear when the person refuses.
    let screenshots_toggled = move |ev: leptos::ev::Event| {
        let wanted = event_target_checked(&ev);
        if !wanted {
            model_screenshots.set(false);
            return;
        }
        let asked = chrome::request_origins(&[origins::CAPTURE_TABS.to_owned()]);
        spawn_local(async move {
            match asked.await {
                Ok(true) => model_screenshots.set(true),
                Ok(false) => {
                    model_screenshots.set(false);
                    status.set(Some(Err(
                        "screenshots stay off: the extension may capture the console tab only once you allow it".into(),
                    )));
                }
                Err(e) => {
                    model_screenshots.set(false);
                    status.set(Some(Err(e.to_string())));
                }
            }
        });
    };
    let consoles_to_allow = RwSignal::new(Vec::<String>::new());
    let save = move |_| {
        let settings = form();
        let allowed = ask_for_sites(&settings);
        spawn_local(async move {
            if let Err(e) = allowed.await {
                status.set(Some(Err(e)));
                return;
            }
            match ask(&Request::SaveSettings { settings }).await {
                Ok(Reply::Settings { settings }) => {
                    status.set(Some(Ok(format!("Saved: {}", settings.server_url))));
                    show(settings);
                }
                Ok(_) => {}
                Err(e) => status.set(Some(Err(e))),
            }
        });
    };
    // The check is made with what the form shows, so it is saved first.
    let check = move |_| {
        status.set(None);
        let settings = form();
        let allowed = ask_for_sites(&settings);
        spawn_local(async move {
            if let Err(e) = allowed.await {
                status.set(Some(Err(e)));
                return;
            }
            if let Err(e) = ask(&Request::SaveSettings { settings }).await {
                status.set(Some(Err(e)));
                return;
            }
            match ask(&Request::CheckServer).await {
                Ok(Reply::Server {
                    summary,
                    consoles_to_allow: to_allow,
                }) => {
                    status.set(Some(Ok(summary)));
                    consoles_to_allow.set(to_allow);
                }
                Ok(_) => {}
                Err(e) => status.set(Some(Err(e))),
            }
        });
    };
    let allow_consoles = move |_| {
        let patterns = consoles_to_allow.get_untracked();
        let asked = chrome::request_origins(&patterns);
        spawn_local(async move {
            match asked.await {
                Ok(true) => consoles_to_allow.set(Vec::new()),
                Ok(false) => status.set(Some(Err(format!(
                    "the extension may not work in {} until you allow it",
                    patterns.join(", ")
                )))),
                Err(e) => status.set(Some(Err(e.to_string()))),
            }
        });
    };
    view! {
        <main>
            <h1>"AliyunConsoleAgent options"</h1>
            <Show when=move || loaded.get() fallback=|| view! { <p class="muted">"Loading the settings…"</p> }>
            <label>
                "aca server URL "
                <input
                    id="server-url"
                    placeholder="http://127.0.0.1:8080"
                    prop:value=move || server_url.get()
                    on:input=move |ev| server_url.set(event_target_value(&ev))
                />
            </label>
            <label>
                "Token "
                <input
                    id="token"
                    type="password"
                    prop:value=move || token.get()
                    on:input=move |ev| token.set(event_target_value(&ev))
                />
            </label>
            <h2>"Model (optional)"</h2>
            <p class="muted">
                "Leave the URL empty to run the scripted policy; set an OpenAI-compatible API base to let a model choose every action."
            </p>
            <label>
                "Model API base "
                <input
                    id="model-url"
                    placeholder="http://127.0.0.1:8000/v1"
                    prop:value=move || model_url.get()
                    on:input=move |ev| model_url.set(event_target_value(&ev))
                />
            </label>
            <label>
                "Model name "
                <input
                    id="model-name"
                    placeholder="qwen3"
                    prop:value=move || model.get()
                    on:input=move |ev| model.set(event_target_value(&ev))
                />
            </label>
            <label>
                "API key "
                <input
                    id="model-key"
                    type="password"
                    prop:value=move || model_key.get()
                    on:input=move |ev| model_key.set(event_target_value(&ev))
                />
            </label>
            <label>
                <input
                    id="model-screenshots"
                    type="checkbox"
                    prop:checked=move || model_screenshots.get()
                    on:change=screenshots_toggled
                />
                " Show the model a screenshot of the console tab with each step (for a model that takes images; the browser asks to let the extension capture tabs, and each defect in the report then shows the page it was seen on)"
            </label>
            <button id="save" on:click=save>"Save"</button>
            <button id="check" on:click=check>"Check connection"</button>
            </Show>
            <Show when=move || !consoles_to_allow.get().is_empty()>
                <p id="consoles-to-allow">
                    "Your accounts' consoles are at "
                    {move || consoles_to_allow.get().join(", ")}
                    ", which the extension may not use yet. "
                    <button id="allow-consoles" on:click=allow_consoles>"Allow the extension in these consoles"</button>
                </p>
            </Show>
            {move || match status.get() {
                Some(Ok(text)) => view! { <p id="status" class="ok">{text}</p> }.into_any(),
                Some(Err(text)) => view! { <p id="status" class="error">{text}</p> }.into_any(),
                None => ().into_any(),
            }}
        </main>
    }
}
