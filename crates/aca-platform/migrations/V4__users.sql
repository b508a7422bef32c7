-- The people who sign in to the dashboard and call the API with their own tokens: one set for every
-- server on the database. A token is known by its SHA-256 only.
CREATE TABLE users (
    name TEXT PRIMARY KEY,
    token_sha256 TEXT NOT NULL,
    accounts TEXT NOT NULL,
    created_ms BIGINT NOT NULL
);
