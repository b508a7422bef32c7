-- Keys the service signs with, shared by every server on the database: made once, never shown.
CREATE TABLE platform_keys (
    name TEXT PRIMARY KEY,
    key_hex TEXT NOT NULL
);
