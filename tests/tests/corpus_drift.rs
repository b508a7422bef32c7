//! The example corpus's declared drift against the emulator's two console releases: every drift a
//! page's sidecar declares is real (the documented control is gone from the other release, and what
//! the sidecar says replaces it is there), and every difference between the two releases is declared
//! by at least one page. Which labels the console shows is not checked against these pages: the
//! console follows the real help pages (`tests/real-pages`, traced in `crates/aca-console/FIDELITY.md`).
//!
//! The console is rendered with the emulator's own renderer, each list page with one row (so that
//! its Actions column and More menu show), each details page, and each create flow that has a page of
//! its own; the HTML is then read back the way a user sees it.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::PathBuf;

use aca_console::ProfileId;
use aca_console::profile::{Difference, DifferenceKind, drift};
use aca_console::ui::render::{self, ListData, ListQuery, SelectOptions, View};
use aca_console::ui::spec::{self, PageSpec, ProductSpec};
use aca_core::Step;
use aca_docs::corpus::{CorpusPage, ExpectedDrift, UiPlace, load_corpus};
use scraper::{Html, Selector};
use serde_json::{Map, Value};

fn corpus() -> Vec<CorpusPage> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpus");
    load_corpus(&dir).unwrap_or_else(|e| panic!("the corpus does not load: {e}"))
}

fn profile_of(page: &CorpusPage) -> ProfileId {
    page.task
        .profile
        .parse()
        .unwrap_or_else(|_| panic!("{}: unknown profile {}", page.path.display(), page.task.profile))
}

fn other(profile: ProfileId) -> ProfileId {
    match profile {
        ProfileId::Y2024 => ProfileId::Y2026,
        ProfileId::Y2026 => ProfileId::Y2024,
    }
}

/// What a user can find in one part of the console.
#[derive(Debug, Default, Clone)]
struct Scope {
    /// Every text the pages show, select options included.
    texts: HashSet<String>,
    /// Titles of pages, dialogs, panels and cards.
    titles: HashSet<String>,
    /// Labels of form fields.
    fields: HashSet<String>,
    /// Paths of the navigation panes, `Group > Item` or `Item`.
    nav: HashSet<String>,
    /// Row actions and where they sit (`inline`, `more`, `all-actions`).
    actions: HashSet<(String, String)>,
    batch: HashSet<String>,
    /// The order of each stepped form's steps, `A > B > C`.
    steps: HashSet<String>,
}

impl Scope {
    fn merge(&mut self, other: &Scope) {
        self.texts.extend(other.texts.iter().cloned());
        self.titles.extend(other.titles.iter().cloned());
        self.fields.extend(other.fields.iter().cloned());
        self.nav.extend(other.nav.iter().cloned());
        self.actions.extend(other.actions.iter().cloned());
        self.batch.extend(other.batch.iter().cloned());
        self.steps.extend(other.steps.iter().cloned());
    }

    /// Whether `text` sits at `place`.
    fn has(&self, place: UiPlace, text: &str) -> bool {
        let action = |placement: &str| self.actions.contains(&(text.to_owned(), placement.to_owned()));
        match place {
            UiPlace::Label => self.texts.contains(text),
            UiPlace::Title => self.titles.contains(text),
            UiPlace::Field => self.fields.contains(text),
            UiPlace::Menu => self.nav.contains(text),
            UiPlace::ActionsColumn => action("inline"),
            UiPlace::MoreMenu => action("more"),
            UiPlace::AllActions => action("all-actions"),
            UiPlace::BatchBar => self.batch.contains(text),
            UiPlace::Steps => self.steps.contains(text),
        }
    }

    fn read(&mut self, html: &str) {
        let doc = Html::parse_document(html);
        for node in doc.tree.nodes() {
            if let Some(text) = node.value().as_text() {
                let text = squash(text);
                if !text.is_empty() {
                    self.texts.insert(text);
                }
            }
        }
        let select = |css: &str| Selector::parse(css).unwrap_or_else(|e| panic!("selector {css}: {e}"));
        for el in doc.select(&select("[data-options]")) {
            let options: Vec<(String, String)> =
                serde_json::from_str(el.value().attr("data-options").unwrap_or("[]")).unwrap_or_default();
            self.texts.extend(options.into_iter().map(|(_, label)| label));
        }
        for el in doc.select(&select("h1, .dialog-title, .card-title, .section-title")) {
            self.titles.insert(squash(&el.text().collect::<String>()));
        }
        let attr = |css: &str, name: &str| -> Vec<String> {
            doc.select(&select(css))
                .filter_map(|el| el.value().attr(name).map(str::to_owned))
                .collect()
        };
        self.fields.extend(attr("[data-ui-field]", "data-ui-field"));
        self.nav.extend(attr("[data-ui-nav]", "data-ui-nav"));
        self.batch.extend(attr("[data-ui-batch]", "data-ui-batch"));
        for el in doc.select(&select("[data-ui-action][data-ui-placement]")) {
            let label = el.value().attr("data-ui-action").unwrap_or("").to_owned();
            let placement = el.value().attr("data-ui-placement").unwrap_or("").to_owned();
            self.actions.insert((label, placement));
        }
        let mut orders: Vec<(String, Vec<String>)> = Vec::new();
        for step in attr("[data-ui-step]", "data-ui-step") {
            let (form, title) = step.split_once(':').unwrap_or(("", &step));
            match orders.iter_mut().find(|(f, _)| f == form) {
                Some((_, titles)) => titles.push(title.to_owned()),
                None => orders.push((form.to_owned(), vec![title.to_owned()])),
            }
        }
        self.steps
            .extend(orders.into_iter().map(|(_, titles)| titles.join(" > ")));
    }
}

fn squash(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// One product's console under one release: the whole product, each page (its list, details and
/// create pages), `nav` (the navigation panes) and `product` (the console's name).
struct ProductUi {
    all: Scope,
    scopes: HashMap<String, Scope>,
}

impl ProductUi {
    fn scope(&self, page: Option<&str>) -> &Scope {
        page.and_then(|p| self.scopes.get(p)).unwrap_or(&self.all)
    }
}

/// A row for a list: every column and the id and name filled in.
fn example_row(page: &PageSpec) -> Value {
    let mut row = Value::Object(Map::new());
    let paths = page
        .columns
        .iter()
        .map(|c| c.path.as_str())
        .chain([page.id_field.as_str(), page.name_field.as_str()]);
    for path in paths {
        let mut at = &mut row;
        let keys: Vec<&str> = path.split('.').collect();
        for (i, key) in keys.iter().enumerate() {
            let Value::Object(map) = at else { break };
            let leaf = i + 1 == keys.len();
            at = map.entry((*key).to_owned()).or_insert_with(|| {
                if leaf {
                    Value::String(format!("example-{key}"))
                } else {
                    Value::Object(Map::new())
                }
            });
        }
    }
    row
}

fn render_product(profile: ProfileId, spec: &ProductSpec) -> ProductUi {
    let options = SelectOptions::new();
    let mut scopes: HashMap<String, Scope> = HashMap::new();
    let mut all = Scope::default();
    for page in &spec.pages {
        let mut scope = Scope::default();
        let row = example_row(page);
        let data = ListData {
            items: vec![row.clone()],
            total: Some(1),
            page_number: 1,
            ..ListData::default()
        };
        let mut view = View {
            profile,
            product: spec,
            account_name: "corpus",
            account_id: "1000000000000001",
            region: "cn-hangzhou",
            resource_group: "",
            parent_id: "",
        };
        if page.parent.is_some() {
            view.parent_id = "example-parent";
            let bound = page.bound_to("example-parent");
            scope.read(&render::list_page(&view, &bound, &data, &ListQuery::default(), &options).into_string());
        } else {
            scope.read(&render::list_page(&view, page, &data, &ListQuery::default(), &options).into_string());
            if page.in_frame {
                scope.read(&render::frame_page(&view, page, &data, &ListQuery::default()).into_string());
            }
            if !page.tabs.is_empty() {
                scope.read(&render::details_page(&view, page, &row, &[], &options).into_string());
            }
            for form in &page.creates {
                if render::form_page_path(page, form).is_some() {
                    scope.read(&render::form_page(&view, page, form, &options).into_string());
                }
            }
        }
        all.merge(&scope);
        scopes.insert(page.id.clone(), scope);
    }
    let nav = Scope {
        texts: all
            .nav
            .iter()
            .flat_map(|path| path.split(" > ").map(str::to_owned).collect::<Vec<_>>())
            .collect(),
        nav: all.nav.clone(),
        ..Scope::default()
    };
    scopes.insert("nav".to_owned(), nav);
    let name = HashSet::from([spec.name.clone()]);
    scopes.insert(
        "product".to_owned(),
        Scope {
            texts: name.clone(),
            titles: name,
            ..Scope::default()
        },
    );
    ProductUi { all, scopes }
}

/// Every product's console under both releases, rendered once.
struct Consoles(HashMap<(ProfileId, String), ProductUi>);

impl Consoles {
    fn render() -> Self {
        let mut out = HashMap::new();
        for profile in ProfileId::ALL {
            for spec in spec::products(profile) {
                out.insert((profile, spec.code.clone()), render_product(profile, spec));
            }
        }
        Consoles(out)
    }

    fn get(&self, profile: ProfileId, product: &str) -> &ProductUi {
        self.0
            .get(&(profile, product.to_owned()))
            .unwrap_or_else(|| panic!("the {profile} console has no product {product}"))
    }
}

/// What is wrong with one drift entry: the documented control must sit where the page says in its
/// own release and not in the other, and what replaces it must be in the other. Both are looked up on
/// the console page the entry names (`page`), else in the whole product.
fn drift_problems(page: &CorpusPage, entry: &ExpectedDrift, consoles: &Consoles) -> Vec<String> {
    let own = profile_of(page);
    let product = &page.task.product;
    let own_scope = consoles.get(own, product).scope(entry.page.as_deref());
    let other_scope = consoles.get(other(own), product).scope(entry.page.as_deref());
    let mut problems = Vec::new();
    let step = page
        .procedure
        .steps
        .iter()
        .flat_map(Step::flatten)
        .find(|s| s.number == entry.step);
    let Some(step) = step else {
        return vec![format!("step {} does not exist", entry.step)];
    };
    // What the step says: its sentence and the parameters of its table.
    let mut says = step.text.clone();
    for table in page
        .procedure
        .parameters
        .iter()
        .filter(|t| t.step.as_deref() == Some(&entry.step))
    {
        for row in &table.rows {
            says.push('\n');
            says.push_str(&row.name);
        }
    }
    if !entry.documented.is_empty() {
        if entry.documented_at != UiPlace::Steps {
            for part in entry.documented.split(" > ") {
                if !says.contains(part) {
                    problems.push(format!("step {} does not say \"{part}\"", entry.step));
                }
            }
        }
        if !own_scope.has(entry.documented_at, &entry.documented) {
            problems.push(format!(
                "\"{}\" ({:?}) is not in the page's own release",
                entry.documented, entry.documented_at
            ));
        }
        if other_scope.has(entry.documented_at, &entry.documented) {
            problems.push(format!(
                "\"{}\" ({:?}) is still in the other release: no drift",
                entry.documented, entry.documented_at
            ));
        }
    }
    if !entry.observed.is_empty() && !other_scope.has(entry.observed_place(), &entry.observed) {
        problems.push(format!(
            "\"{}\" ({:?}) is not in the other release",
            entry.observed,
            entry.observed_place()
        ));
    }
    problems
}

#[test]
fn every_declared_drift_is_real() {
    let consoles = Consoles::render();
    let mut problems = Vec::new();
    for page in corpus() {
        for entry in &page.expected_drift {
            for problem in drift_problems(&page, entry, &consoles) {
                problems.push(format!("{}: {problem}", page.path.display()));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// Whether a drift entry of a page written for `profile` declares the difference `d` (as its
/// release's user finds it in the other).
fn declares(entry: &ExpectedDrift, product: &str, d: &Difference) -> bool {
    if d.product != product || entry.page.as_deref() != Some(d.page.as_str()) {
        return false;
    }
    let plain = |s: &str| s.trim_end_matches(" (required)").to_owned();
    match d.kind {
        DifferenceKind::MovedControl => entry.documented == d.control,
        DifferenceKind::NewRequiredField => entry.observed == plain(&d.after),
        DifferenceKind::RemovedField => entry.documented == plain(&d.before),
        _ => entry.documented == d.before && entry.observed == d.after,
    }
}

#[test]
fn every_difference_between_the_releases_is_declared_by_a_page() {
    let pages = corpus();
    let mut covered = BTreeSet::new();
    for from in ProfileId::ALL {
        for (i, d) in drift(from, other(from)).iter().enumerate() {
            let declared = pages
                .iter()
                .filter(|p| profile_of(p) == from)
                .any(|p| p.expected_drift.iter().any(|e| declares(e, &p.task.product, d)));
            if declared {
                covered.insert(i);
            }
        }
    }
    let missing: Vec<String> = drift(ProfileId::Y2026, ProfileId::Y2024)
        .iter()
        .enumerate()
        .filter(|(i, _)| !covered.contains(i))
        .map(|(_, d)| format!("{d:?}"))
        .collect();
    assert!(
        missing.is_empty(),
        "differences no page declares, in either direction:\n{}",
        missing.join("\n")
    );
}
