//! What the runtime watches on a page from outside it: requests in flight, main-frame navigations,
//! a crashed renderer, and cross-origin frames that appear (to inject the page side into).

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Instant;

use chromiumoxide::Page;
use chromiumoxide::cdp::browser_protocol::inspector::EventTargetCrashed;
use chromiumoxide::cdp::browser_protocol::network::{
    EventLoadingFailed, EventLoadingFinished, EventRequestWillBeSent, ResourceType,
};
use chromiumoxide::cdp::browser_protocol::page::{
    EventFrameNavigated, EventFrameRequestedNavigation, EventFrameStartedLoading, EventFrameStoppedLoading, FrameId,
};
use chromiumoxide::cdp::browser_protocol::target::{self, EventAttachedToTarget, EventDetachedFromTarget, TargetId};
use futures::{Stream, StreamExt as _};
use parking_lot::Mutex;
use tokio::sync::mpsc;

pub(crate) const TAB_CRASHED: &str = "the tab crashed (its renderer process is gone); open the page again";
pub(crate) const BROWSER_GONE: &str =
    "Chromium is gone (its process exited or its connection closed): the browser crashed or was killed";

/// The shared state the event tasks update.
#[derive(Debug)]
pub(crate) struct Watch {
    state: Mutex<State>,
    /// Woken when the tab crashes (or the whole browser goes), so that a pending call gives up at
    /// once.
    crash: tokio::sync::Notify,
}

#[derive(Debug)]
struct State {
    main_frame: FrameId,
    in_flight: HashSet<String>,
    /// Requests whose end was seen before their start: each event kind has its own task, so under
    /// load a `loadingFinished` can be handled before the `requestWillBeSent` it follows.
    ended_unseen: HashSet<String>,
    last_network: Instant,
    /// Main-frame navigations requested or started; an action compares it before and after.
    navigations: u64,
    main_loading: bool,
    /// Why the tab can no longer be used, once it cannot.
    crashed: Option<&'static str>,
    /// The address the top frame failed to load, while it shows the browser's error page.
    unreachable: Option<String>,
    /// Cross-origin frames attached but not yet injected.
    frames_pending: usize,
}

impl State {
    fn new(main_frame: FrameId) -> Self {
        Self {
            main_frame,
            in_flight: HashSet::new(),
            ended_unseen: HashSet::new(),
            last_network: Instant::now(),
            navigations: 0,
            main_loading: false,
            crashed: None,
            unreachable: None,
            frames_pending: 0,
        }
    }

    fn request_started(&mut self, id: &str) {
        if !self.ended_unseen.remove(id) {
            self.in_flight.insert(id.to_owned());
        }
    }

    fn request_ended(&mut self, id: &str) {
        if !self.in_flight.remove(id) {
            // Bounded: ids of requests this watch never saw start (a frame's own document) add up.
            if self.ended_unseen.len() >= 4096 {
                self.ended_unseen.clear();
            }
            self.ended_unseen.insert(id.to_owned());
        }
        self.last_network = Instant::now();
    }
}

/// A cross-origin frame target that appeared or went away.
#[derive(Debug)]
pub(crate) enum FrameTarget {
    Attached { target: TargetId, url: String },
    Detached { target: TargetId },
}

impl Watch {
    /// Starts the event tasks on `page`; cross-origin frame targets are sent to the returned receiver.
    pub(crate) async fn start(
        page: &Page,
        main_frame: FrameId,
    ) -> Result<(Arc<Self>, mpsc::UnboundedReceiver<FrameTarget>), chromiumoxide::error::CdpError> {
        let watch = Arc::new(Self {
            state: Mutex::new(State::new(main_frame)),
            crash: tokio::sync::Notify::new(),
        });
        let is_main = |w: &Watch, frame: &FrameId| w.state.lock().main_frame == *frame;
        spawn_each(
            &watch,
            page.event_listener::<EventRequestWillBeSent>().await?,
            |w, e| {
                let mut s = w.state.lock();
                // A frame's own document may load in another process (and finish in its session).
                let frame_document = e.r#type == Some(ResourceType::Document)
                    && e.frame_id.as_ref().is_some_and(|frame| *frame != s.main_frame);
                if !frame_document {
                    s.request_started(e.request_id.inner());
                }
                s.last_network = Instant::now();
            },
        );
        spawn_each(&watch, page.event_listener::<EventLoadingFinished>().await?, |w, e| {
            w.state.lock().request_ended(e.request_id.inner());
        });
        spawn_each(&watch, page.event_listener::<EventLoadingFailed>().await?, |w, e| {
            w.state.lock().request_ended(e.request_id.inner());
        });
        spawn_each(
            &watch,
            page.event_listener::<EventFrameRequestedNavigation>().await?,
            move |w, e| {
                if is_main(w, &e.frame_id) {
                    w.state.lock().navigations += 1;
                }
            },
        );
        spawn_each(
            &watch,
            page.event_listener::<EventFrameStartedLoading>().await?,
            move |w, e| {
                if is_main(w, &e.frame_id) {
                    let mut s = w.state.lock();
                    s.navigations += 1;
                    s.main_loading = true;
                }
            },
        );
        spawn_each(
            &watch,
            page.event_listener::<EventFrameStoppedLoading>().await?,
            move |w, e| {
                if is_main(w, &e.frame_id) {
                    w.state.lock().main_loading = false;
                }
            },
        );
        spawn_each(&watch, page.event_listener::<EventFrameNavigated>().await?, |w, e| {
            if e.frame.parent_id.is_none() {
                let mut s = w.state.lock();
                // Requests of the document that was left will never finish.
                s.in_flight.clear();
                s.main_frame = e.frame.id.clone();
                s.unreachable = e.frame.unreachable_url.clone();
            }
        });
        spawn_each(&watch, page.event_listener::<EventTargetCrashed>().await?, |w, _| {
            w.mark_crashed(TAB_CRASHED)
        });
        let (frames_tx, frames_rx) = mpsc::unbounded_channel();
        let attached_tx = frames_tx.clone();
        // Detach events name the session only: remember which frame target each session is.
        let sessions: Arc<Mutex<HashMap<String, TargetId>>> = Arc::default();
        let attached_sessions = sessions.clone();
        spawn_each(
            &watch,
            page.event_listener::<EventAttachedToTarget>().await?,
            move |w, e| {
                // The runner's own session to a frame announces itself too: only the first counts.
                let mut known = attached_sessions.lock();
                if e.target_info.r#type == "iframe" && !known.values().any(|t| *t == e.target_info.target_id) {
                    w.state.lock().frames_pending += 1;
                    known.insert(e.session_id.inner().clone(), e.target_info.target_id.clone());
                    let _ = attached_tx.send(FrameTarget::Attached {
                        target: e.target_info.target_id.clone(),
                        url: e.target_info.url.clone(),
                    });
                }
            },
        );
        spawn_each(
            &watch,
            page.event_listener::<EventDetachedFromTarget>().await?,
            move |_, e| {
                if let Some(target) = sessions.lock().remove(e.session_id.inner()) {
                    let _ = frames_tx.send(FrameTarget::Detached { target });
                }
            },
        );
        Ok((watch, frames_rx))
    }

    pub(crate) fn main_frame(&self) -> FrameId {
        self.state.lock().main_frame.clone()
    }

    pub(crate) fn navigations(&self) -> u64 {
        self.state.lock().navigations
    }

    /// The address the top frame could not load, while the browser's error page stands in for it.
    pub(crate) fn unreachable(&self) -> Option<String> {
        self.state.lock().unreachable.clone()
    }

    pub(crate) fn crashed(&self) -> bool {
        self.state.lock().crashed.is_some()
    }

    /// Why the tab can no longer be used (its renderer crashed, or the browser is gone).
    pub(crate) fn crash_reason(&self) -> &'static str {
        self.state.lock().crashed.unwrap_or(TAB_CRASHED)
    }

    fn mark_crashed(&self, why: &'static str) {
        self.state.lock().crashed.get_or_insert(why);
        self.crash.notify_waiters();
    }

    /// Learns that the whole browser is gone (its process exited, or its connection closed), so
    /// that every call on the tab fails at once instead of waiting out its timeout.
    pub(crate) fn follow_browser_exit(self: &Arc<Self>, mut gone: tokio::sync::watch::Receiver<bool>) {
        let watch = Arc::downgrade(self);
        tokio::spawn(async move {
            if gone.wait_for(|gone| *gone).await.is_ok()
                && let Some(watch) = watch.upgrade()
            {
                watch.mark_crashed(BROWSER_GONE);
            }
        });
    }

    /// Also learns of the crash from the browser's target events (they come even when the tab's
    /// own session is gone with its renderer).
    pub(crate) fn follow_browser_crashes(
        self: &Arc<Self>,
        crashes: impl Stream<Item = Arc<target::EventTargetCrashed>> + Unpin + Send + 'static,
        tab: TargetId,
    ) {
        spawn_each(self, crashes, move |w, e| {
            if e.target_id == tab {
                w.mark_crashed(TAB_CRASHED);
            }
        });
    }

    /// Resolves once the tab has crashed.
    pub(crate) async fn crashed_signal(&self) {
        loop {
            let notified = self.crash.notified();
            if self.crashed() {
                return;
            }
            notified.await;
        }
    }

    /// No request in flight for `quiet_ms`, the main frame is not loading and every cross-origin
    /// frame that appeared has its page side.
    pub(crate) fn network_quiet(&self, quiet_ms: u128) -> bool {
        let s = self.state.lock();
        s.in_flight.is_empty()
            && !s.main_loading
            && s.frames_pending == 0
            && s.last_network.elapsed().as_millis() >= quiet_ms
    }

    /// A cross-origin frame announced by an attach event is injected (or given up on).
    pub(crate) fn frame_done(&self) {
        let mut s = self.state.lock();
        s.frames_pending = s.frames_pending.saturating_sub(1);
    }

    pub(crate) fn requests_in_flight(&self) -> usize {
        self.state.lock().in_flight.len()
    }
}

fn spawn_each<E, S>(watch: &Arc<Watch>, mut events: S, on_event: impl Fn(&Watch, &E) + Send + 'static)
where
    S: Stream<Item = Arc<E>> + Unpin + Send + 'static,
    E: Send + Sync + 'static,
{
    let watch = Arc::downgrade(watch);
    tokio::spawn(async move {
        while let Some(event) = events.next().await {
            let Some(watch) = watch.upgrade() else { break };
            on_event(&watch, &event);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_whose_end_is_handled_before_its_start_is_not_left_in_flight() {
        let mut s = State::new(FrameId::new("main"));
        s.request_ended("r1");
        s.request_started("r1");
        assert!(s.in_flight.is_empty());
        s.request_started("r2");
        assert_eq!(s.in_flight.len(), 1);
        s.request_ended("r2");
        assert!(s.in_flight.is_empty() && s.ended_unseen.is_empty());
    }
}
