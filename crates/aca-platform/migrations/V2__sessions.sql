-- Dashboard sign-ins: a session is known by the SHA-256 of its cookie, never by the cookie itself.
CREATE TABLE sessions (
    id_sha256 TEXT PRIMARY KEY,
    user_name TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    expires_ms BIGINT NOT NULL
);
CREATE INDEX sessions_expiry ON sessions (expires_ms);
