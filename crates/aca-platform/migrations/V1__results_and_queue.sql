-- One schema for SQLite and PostgreSQL: only types and statements both read the same way.
-- Times are Unix milliseconds; ids are UUIDs made by the service.

-- What a platform team asked to verify: one page of one documentation tree.
CREATE TABLE jobs (
    id TEXT PRIMARY KEY,
    tree TEXT NOT NULL,
    page TEXT NOT NULL,
    priority BIGINT NOT NULL,
    -- queued | running | done | cancelled
    state TEXT NOT NULL,
    -- runs recorded for the job so far
    attempts BIGINT NOT NULL,
    max_attempts BIGINT NOT NULL,
    worker TEXT,
    lease_until_ms BIGINT,
    not_before_ms BIGINT NOT NULL,
    submitted_ms BIGINT NOT NULL,
    -- place within its submission, so pages submitted together run in their order
    position BIGINT NOT NULL,
    started_ms BIGINT,
    finished_ms BIGINT,
    cancel_requested BIGINT NOT NULL,
    -- why the last attempt was retried, or why the job could not run
    cause TEXT
);
CREATE INDEX jobs_next ON jobs (state, priority, submitted_ms, position);

-- One verification of one page: the report's numbers, and the report itself.
CREATE TABLE runs (
    id TEXT PRIMARY KEY,
    job_id TEXT,
    attempt BIGINT NOT NULL,
    tree TEXT NOT NULL,
    page TEXT NOT NULL,
    -- digest of the page's text, so a verdict that changes with no change to the page shows
    page_digest TEXT,
    title TEXT NOT NULL,
    product TEXT,
    verdict TEXT NOT NULL,
    summary TEXT NOT NULL,
    failure TEXT,
    console TEXT NOT NULL,
    profile TEXT,
    policy TEXT NOT NULL,
    started_ms BIGINT NOT NULL,
    duration_ms BIGINT NOT NULL,
    model_calls BIGINT NOT NULL,
    prompt_tokens BIGINT NOT NULL,
    completion_tokens BIGINT NOT NULL,
    cost_usd DOUBLE PRECISION,
    report_dir TEXT,
    report TEXT NOT NULL
);
-- A job's attempt is recorded once, whatever restarts happen around it.
CREATE UNIQUE INDEX runs_once_per_attempt ON runs (job_id, attempt);
CREATE INDEX runs_by_page ON runs (page, started_ms);
CREATE INDEX runs_by_time ON runs (started_ms);

CREATE TABLE steps (
    run_id TEXT NOT NULL,
    ordinal BIGINT NOT NULL,
    step TEXT NOT NULL,
    status TEXT NOT NULL,
    text TEXT NOT NULL,
    note TEXT,
    verified BIGINT NOT NULL,
    screenshot TEXT,
    PRIMARY KEY (run_id, ordinal)
);

CREATE TABLE defects (
    run_id TEXT NOT NULL,
    ordinal BIGINT NOT NULL,
    page TEXT NOT NULL,
    step TEXT NOT NULL,
    kind TEXT NOT NULL,
    confidence TEXT NOT NULL,
    documented TEXT NOT NULL,
    observed TEXT NOT NULL,
    screenshot TEXT,
    PRIMARY KEY (run_id, ordinal)
);
CREATE INDEX defects_by_page ON defects (page, kind);

-- Defects a person marked as known: still reported, no longer new.
CREATE TABLE known_defects (
    page TEXT NOT NULL,
    kind TEXT NOT NULL,
    step TEXT NOT NULL,
    documented TEXT NOT NULL,
    marked_by TEXT NOT NULL,
    marked_ms BIGINT NOT NULL,
    PRIMARY KEY (page, kind, step, documented)
);

-- When each documentation tree is verified again.
CREATE TABLE schedules (
    tree TEXT PRIMARY KEY,
    cron TEXT NOT NULL,
    -- JSON list of pages, folders or sitemap URLs, expanded when the schedule fires
    sources TEXT NOT NULL,
    priority BIGINT NOT NULL,
    next_ms BIGINT NOT NULL
);
