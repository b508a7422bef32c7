//! The run the service worker holds: the console tab, the captured page, the last observation and
//! the step-mode proposal and log. It is saved to `chrome.storage.session` after every change, so a
//! service worker the browser stopped while idle picks the run up again when it wakes.

use std::cell::RefCell;

use crate::chrome::{self, Storage};
use crate::messages::{Event, RunView};

const STORAGE_KEY: &str = "aca_run";

thread_local! {
    static RUN: RefCell<Option<RunView>> = const { RefCell::new(None) };
}

/// The run, loaded from session storage the first time after a (re)start.
pub async fn current() -> RunView {
    if let Some(run) = RUN.with(|run| run.borrow().clone()) {
        return run;
    }
    // A session that cannot be read starts a fresh run; the problem is shown to the person.
    let run = match chrome::load::<RunView>(Storage::Session, STORAGE_KEY).await {
        Ok(saved) => saved.unwrap_or_default(),
        Err(e) => RunView {
            problem: Some(format!("the previous run could not be restored: {e}")),
            ..RunView::default()
        },
    };
    RUN.with(|slot| slot.borrow_mut().get_or_insert(run).clone())
}

/// Changes the run, saves it and tells open extension pages; returns the changed run.
pub async fn update(change: impl FnOnce(&mut RunView)) -> RunView {
    let mut run = current().await;
    change(&mut run);
    RUN.with(|slot| *slot.borrow_mut() = Some(run.clone()));
    if let Err(e) = chrome::store(Storage::Session, STORAGE_KEY, &run).await {
        let problem = format!("the run could not be saved: {e}");
        RUN.with(|slot| {
            if let Some(saved) = slot.borrow_mut().as_mut() {
                saved.problem = Some(problem.clone());
            }
        });
        run.problem = Some(problem);
    }
    chrome::broadcast(&Event::RunChanged {
        run: Box::new(run.clone()),
    })
    .await;
    run
}
