//! The database behind the platform: SQLite (one file, the default) or PostgreSQL (for teams), one
//! schema migrated the same way on both, and statements written once for both.
//!
//! Statements use PostgreSQL's `$1, $2, …` placeholders; for SQLite they become `?1, ?2, …`,
//! which bind by number too. Values are typed ([`Value`]) so PostgreSQL's strict parameter types
//! hold, even for a NULL.

use std::path::PathBuf;
use std::sync::Mutex;

use crate::PlatformError;

mod embedded {
    refinery::embed_migrations!("migrations");
}

/// Where the database is: `sqlite:PATH` (or a plain path), `sqlite::memory:`, or `postgres://…`.
#[derive(Clone, PartialEq, Eq)]
pub enum DbUrl {
    Sqlite(PathBuf),
    SqliteMemory,
    Postgres(String),
}

impl std::fmt::Debug for DbUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.describe())
    }
}

impl std::str::FromStr for DbUrl {
    type Err = PlatformError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let text = text.trim();
        if text.starts_with("postgres://") || text.starts_with("postgresql://") {
            return Ok(Self::Postgres(text.to_owned()));
        }
        let path = text
            .strip_prefix("sqlite://")
            .or_else(|| text.strip_prefix("sqlite:"))
            .unwrap_or(text);
        match path {
            "" => Err(PlatformError::Config(
                "an empty database address: give a file (sqlite:out/results.db) or postgres://…".into(),
            )),
            ":memory:" => Ok(Self::SqliteMemory),
            _ if path.contains("://") => Err(PlatformError::Config(format!(
                "{text}: not a database this service knows (sqlite:PATH or postgres://…)"
            ))),
            _ => Ok(Self::Sqlite(PathBuf::from(path))),
        }
    }
}

impl DbUrl {
    /// Says where the database is without its password.
    pub fn describe(&self) -> String {
        match self {
            Self::Sqlite(path) => format!("sqlite:{}", path.display()),
            Self::SqliteMemory => "sqlite::memory:".into(),
            Self::Postgres(url) => redact_password(url),
        }
    }

    pub fn is_postgres(&self) -> bool {
        matches!(self, Self::Postgres(_))
    }
}

/// `postgres://user:secret@host/db` → `postgres://user:***@host/db`.
fn redact_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    let Some((userinfo, host)) = rest.rsplit_once('@') else {
        return url.to_owned();
    };
    match userinfo.split_once(':') {
        Some((user, _)) => format!("{scheme}://{user}:***@{host}"),
        None => url.to_owned(),
    }
}

/// A parameter or a column value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Int(Option<i64>),
    Real(Option<f64>),
    Text(Option<String>),
}

impl From<i64> for Value {
    fn from(v: i64) -> Self {
        Self::Int(Some(v))
    }
}
impl From<Option<i64>> for Value {
    fn from(v: Option<i64>) -> Self {
        Self::Int(v)
    }
}
impl From<f64> for Value {
    fn from(v: f64) -> Self {
        Self::Real(Some(v))
    }
}
impl From<Option<f64>> for Value {
    fn from(v: Option<f64>) -> Self {
        Self::Real(v)
    }
}
impl From<&str> for Value {
    fn from(v: &str) -> Self {
        Self::Text(Some(v.to_owned()))
    }
}
impl From<String> for Value {
    fn from(v: String) -> Self {
        Self::Text(Some(v))
    }
}
impl From<Option<String>> for Value {
    fn from(v: Option<String>) -> Self {
        Self::Text(v)
    }
}
impl From<&String> for Value {
    fn from(v: &String) -> Self {
        Self::Text(Some(v.clone()))
    }
}
impl From<bool> for Value {
    fn from(v: bool) -> Self {
        Self::Int(Some(i64::from(v)))
    }
}

/// One result row, read by column number.
#[derive(Debug, Clone)]
pub struct Row(Vec<Value>);

impl Row {
    pub fn int(&self, i: usize) -> i64 {
        self.opt_int(i).unwrap_or(0)
    }

    pub fn opt_int(&self, i: usize) -> Option<i64> {
        match self.0.get(i) {
            Some(Value::Int(v)) => *v,
            Some(Value::Real(v)) => v.map(|v| v as i64),
            Some(Value::Text(v)) => v.as_deref().and_then(|t| t.parse().ok()),
            None => None,
        }
    }

    pub fn real(&self, i: usize) -> Option<f64> {
        match self.0.get(i) {
            Some(Value::Real(v)) => *v,
            Some(Value::Int(v)) => v.map(|v| v as f64),
            Some(Value::Text(v)) => v.as_deref().and_then(|t| t.parse().ok()),
            None => None,
        }
    }

    pub fn text(&self, i: usize) -> String {
        self.opt_text(i).unwrap_or_default()
    }

    pub fn opt_text(&self, i: usize) -> Option<String> {
        match self.0.get(i) {
            Some(Value::Text(v)) => v.clone(),
            Some(Value::Int(v)) => v.map(|v| v.to_string()),
            Some(Value::Real(v)) => v.map(|v| v.to_string()),
            None => None,
        }
    }
}

/// What statements run against: a connection or a transaction of either database.
pub trait Sql {
    /// Runs a statement; returns how many rows it changed.
    fn execute(&mut self, sql: &str, params: &[Value]) -> Result<u64, PlatformError>;
    fn query(&mut self, sql: &str, params: &[Value]) -> Result<Vec<Row>, PlatformError>;

    fn query_one(&mut self, sql: &str, params: &[Value]) -> Result<Option<Row>, PlatformError> {
        Ok(self.query(sql, params)?.into_iter().next())
    }
}

/// PostgreSQL connections a server holds at most: the dashboard's reads, the API and every worker's
/// claims and records each take one for a statement or a transaction.
const POSTGRES_POOL_SIZE: u32 = 8;
/// How long a call waits for a PostgreSQL connection (a new one, or one of the pool's) before the
/// database counts as unavailable.
const POSTGRES_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

type PostgresPool = r2d2::Pool<r2d2_postgres::PostgresConnectionManager<postgres::NoTls>>;

/// Where statements go: SQLite's one connection (a file takes one writer at a time anyway), or a
/// pool of PostgreSQL connections, so that calls run side by side.
enum Connections {
    Sqlite(Mutex<rusqlite::Connection>),
    Postgres(PostgresPool),
}

/// The database, shared by the service's tasks (each call holds a connection for one statement or
/// one transaction). A PostgreSQL connection that dropped is left out of the pool and another is
/// opened on the next call, so a database that went away and came back is used again without a
/// restart.
pub struct Db {
    url: DbUrl,
    connections: Connections,
}

impl std::fmt::Debug for Db {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Db").field("url", &self.url).finish_non_exhaustive()
    }
}

impl Db {
    /// Opens the database and brings its schema up to date.
    pub fn open(url: &DbUrl) -> Result<Self, PlatformError> {
        if let DbUrl::Sqlite(path) = url
            && let Some(folder) = path.parent().filter(|p| !p.as_os_str().is_empty())
        {
            std::fs::create_dir_all(folder)
                .map_err(|e| PlatformError::Config(format!("cannot create {}: {e}", folder.display())))?;
        }
        let connections = match url {
            DbUrl::Postgres(address) => {
                let pool = postgres_pool(address)?;
                let mut client = pool.get().map_err(|e| unavailable(address, e))?;
                migrate(&mut *client)?;
                Connections::Postgres(pool)
            }
            DbUrl::Sqlite(_) | DbUrl::SqliteMemory => {
                let mut connection = connect_sqlite(url)?;
                migrate(&mut connection)?;
                if let DbUrl::Sqlite(path) = url {
                    owner_only(path)?;
                }
                Connections::Sqlite(Mutex::new(connection))
            }
        };
        Ok(Self {
            url: url.clone(),
            connections,
        })
    }

    pub fn url(&self) -> &DbUrl {
        &self.url
    }

    /// Runs `work` in one transaction: all of it is kept, or none of it.
    pub fn transaction<T>(
        &self,
        work: impl FnOnce(&mut dyn Sql) -> Result<T, PlatformError>,
    ) -> Result<T, PlatformError> {
        match &self.connections {
            Connections::Sqlite(connection) => {
                let mut connection = connection.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                let mut tx = connection.transaction().map_err(sqlite_error)?;
                let value = work(&mut tx)?;
                tx.commit().map_err(sqlite_error)?;
                Ok(value)
            }
            Connections::Postgres(pool) => {
                let address = match &self.url {
                    DbUrl::Postgres(address) => address.as_str(),
                    _ => "",
                };
                let mut client = pool.get().map_err(|e| unavailable(address, e))?;
                let mut tx = client.transaction().map_err(postgres_error)?;
                let value = work(&mut tx)?;
                tx.commit().map_err(postgres_error)?;
                Ok(value)
            }
        }
    }
}

/// A pool of connections to `address`, at least one of them open now.
fn postgres_pool(address: &str) -> Result<PostgresPool, PlatformError> {
    let mut config: postgres::Config = address
        .parse()
        .map_err(|e| PlatformError::Config(format!("{}: {e}", redact_password(address))))?;
    config.connect_timeout(POSTGRES_WAIT);
    let manager = r2d2_postgres::PostgresConnectionManager::new(config, postgres::NoTls);
    r2d2::Pool::builder()
        .max_size(POSTGRES_POOL_SIZE)
        .min_idle(Some(1))
        .connection_timeout(POSTGRES_WAIT)
        // A connection the database ended while it sat in the pool (a restart) is found out here,
        // for one round trip, and replaced.
        .test_on_check_out(true)
        .error_handler(Box::new(r2d2::NopErrorHandler))
        .build(manager)
        .map_err(|e| unavailable(address, e))
}

fn unavailable(address: &str, error: impl std::fmt::Display) -> PlatformError {
    PlatformError::Unavailable(format!("{}: {error}", redact_password(address)))
}

fn connect_sqlite(url: &DbUrl) -> Result<rusqlite::Connection, PlatformError> {
    let conn = match url {
        DbUrl::Sqlite(path) => rusqlite::Connection::open(path)
            .map_err(|e| PlatformError::Config(format!("cannot open the database {}: {e}", path.display())))?,
        _ => rusqlite::Connection::open_in_memory().map_err(sqlite_error)?,
    };
    if let DbUrl::Sqlite(_) = url {
        conn.busy_timeout(std::time::Duration::from_secs(10))
            .map_err(sqlite_error)?;
        conn.pragma_update(None, "journal_mode", "WAL").map_err(sqlite_error)?;
    }
    Ok(conn)
}

fn migrate(connection: &mut impl refinery::Migrate) -> Result<(), PlatformError> {
    embedded::migrations::runner()
        .run(connection)
        .map(|_| ())
        .map_err(|e| PlatformError::Database(format!("migrating the schema: {e}")))
}

/// The results hold report paths and page names of a team's documentation: readable by its owner.
fn owner_only(path: &std::path::Path) -> Result<(), PlatformError> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))
            .map_err(|e| PlatformError::Config(format!("cannot restrict {}: {e}", path.display())))?;
    }
    Ok(())
}

/// `$1` → `?1`: SQLite's numbered parameters bind by the same numbers.
fn sqlite_placeholders(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '$' && chars.peek().is_some_and(char::is_ascii_digit) {
            out.push('?');
        } else {
            out.push(c);
        }
    }
    out
}

fn sqlite_error(e: rusqlite::Error) -> PlatformError {
    match &e {
        rusqlite::Error::SqliteFailure(f, _) if f.code == rusqlite::ErrorCode::ConstraintViolation => {
            PlatformError::Conflict(e.to_string())
        }
        rusqlite::Error::SqliteFailure(f, _)
            if matches!(
                f.code,
                rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked
            ) =>
        {
            PlatformError::Unavailable(e.to_string())
        }
        _ => PlatformError::Database(e.to_string()),
    }
}

fn postgres_error(e: postgres::Error) -> PlatformError {
    // Connection exceptions (class 08) and operator intervention (57P: shutdown, crash recovery)
    // pass when the server is back.
    let gone = e
        .code()
        .is_some_and(|code| code.code().starts_with("08") || code.code().starts_with("57P"));
    if gone || e.is_closed() || e.as_db_error().is_none() && e.code().is_none() {
        let message = e
            .as_db_error()
            .map_or_else(|| e.to_string(), |db| db.message().to_owned());
        return PlatformError::Unavailable(message);
    }
    if e.code() == Some(&postgres::error::SqlState::UNIQUE_VIOLATION) {
        return PlatformError::Conflict(e.to_string());
    }
    let message = e
        .as_db_error()
        .map_or_else(|| e.to_string(), |db| db.message().to_owned());
    PlatformError::Database(message)
}

impl Sql for rusqlite::Transaction<'_> {
    fn execute(&mut self, sql: &str, params: &[Value]) -> Result<u64, PlatformError> {
        let sql = sqlite_placeholders(sql);
        let mut statement = self.prepare_cached(&sql).map_err(sqlite_error)?;
        let changed = statement
            .execute(rusqlite::params_from_iter(params.iter().map(sqlite_param)))
            .map_err(sqlite_error)?;
        Ok(changed as u64)
    }

    fn query(&mut self, sql: &str, params: &[Value]) -> Result<Vec<Row>, PlatformError> {
        let sql = sqlite_placeholders(sql);
        let mut statement = self.prepare_cached(&sql).map_err(sqlite_error)?;
        let columns = statement.column_count();
        let mut rows = statement
            .query(rusqlite::params_from_iter(params.iter().map(sqlite_param)))
            .map_err(sqlite_error)?;
        let mut out = Vec::new();
        while let Some(row) = rows.next().map_err(sqlite_error)? {
            let mut values = Vec::with_capacity(columns);
            for i in 0..columns {
                use rusqlite::types::ValueRef;
                values.push(match row.get_ref(i).map_err(sqlite_error)? {
                    ValueRef::Null => Value::Text(None),
                    ValueRef::Integer(v) => Value::Int(Some(v)),
                    ValueRef::Real(v) => Value::Real(Some(v)),
                    ValueRef::Text(t) | ValueRef::Blob(t) => Value::Text(Some(String::from_utf8_lossy(t).into_owned())),
                });
            }
            out.push(Row(values));
        }
        Ok(out)
    }
}

fn sqlite_param(value: &Value) -> rusqlite::types::Value {
    use rusqlite::types::Value as V;
    match value {
        Value::Int(Some(v)) => V::Integer(*v),
        Value::Real(Some(v)) => V::Real(*v),
        Value::Text(Some(v)) => V::Text(v.clone()),
        Value::Int(None) | Value::Real(None) | Value::Text(None) => V::Null,
    }
}

impl Sql for postgres::Transaction<'_> {
    fn execute(&mut self, sql: &str, params: &[Value]) -> Result<u64, PlatformError> {
        let params = postgres_params(params);
        postgres::Transaction::execute(self, sql, &params).map_err(postgres_error)
    }

    fn query(&mut self, sql: &str, params: &[Value]) -> Result<Vec<Row>, PlatformError> {
        let params = postgres_params(params);
        let rows = postgres::Transaction::query(self, sql, &params).map_err(postgres_error)?;
        rows.iter()
            .map(|row| {
                (0..row.len())
                    .map(|i| postgres_value(row, i))
                    .collect::<Result<Vec<_>, _>>()
                    .map(Row)
            })
            .collect()
    }
}

fn postgres_params(params: &[Value]) -> Vec<&(dyn postgres::types::ToSql + Sync)> {
    params
        .iter()
        .map(|value| -> &(dyn postgres::types::ToSql + Sync) {
            match value {
                Value::Int(v) => v,
                Value::Real(v) => v,
                Value::Text(v) => v,
            }
        })
        .collect()
}

fn postgres_value(row: &postgres::Row, i: usize) -> Result<Value, PlatformError> {
    use postgres::types::Type;
    let ty = row.columns()[i].type_();
    let value = if *ty == Type::INT8 {
        Value::Int(row.try_get::<_, Option<i64>>(i).map_err(postgres_error)?)
    } else if *ty == Type::INT4 {
        Value::Int(row.try_get::<_, Option<i32>>(i).map_err(postgres_error)?.map(i64::from))
    } else if *ty == Type::INT2 {
        Value::Int(row.try_get::<_, Option<i16>>(i).map_err(postgres_error)?.map(i64::from))
    } else if *ty == Type::FLOAT8 {
        Value::Real(row.try_get::<_, Option<f64>>(i).map_err(postgres_error)?)
    } else if *ty == Type::FLOAT4 {
        Value::Real(row.try_get::<_, Option<f32>>(i).map_err(postgres_error)?.map(f64::from))
    } else if *ty == Type::BOOL {
        Value::Int(
            row.try_get::<_, Option<bool>>(i)
                .map_err(postgres_error)?
                .map(i64::from),
        )
    } else {
        Value::Text(row.try_get::<_, Option<String>>(i).map_err(postgres_error)?)
    };
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_read_and_described_without_their_password() {
        assert_eq!("out/r.db".parse::<DbUrl>().unwrap(), DbUrl::Sqlite("out/r.db".into()));
        assert_eq!(
            "sqlite:out/r.db".parse::<DbUrl>().unwrap(),
            DbUrl::Sqlite("out/r.db".into())
        );
        assert_eq!("sqlite::memory:".parse::<DbUrl>().unwrap(), DbUrl::SqliteMemory);
        let pg: DbUrl = "postgres://aca:hunter2@db.internal:5432/results".parse().unwrap();
        assert!(pg.is_postgres());
        assert_eq!(pg.describe(), "postgres://aca:***@db.internal:5432/results");
        assert!(!format!("{pg:?}").contains("hunter2"));
        assert!("mysql://x".parse::<DbUrl>().is_err());
        assert!("".parse::<DbUrl>().is_err());
    }

    #[test]
    fn placeholders_keep_their_numbers_for_sqlite() {
        assert_eq!(
            sqlite_placeholders("SELECT a FROM t WHERE b = $2 AND c = $1 AND d = '$x'"),
            "SELECT a FROM t WHERE b = ?2 AND c = ?1 AND d = '$x'"
        );
    }

    #[test]
    fn a_sqlite_file_is_migrated_once_and_kept_for_its_owner() {
        let dir = tempfile::tempdir().unwrap();
        let url = DbUrl::Sqlite(dir.path().join("nested/results.db"));
        Db::open(&url).unwrap();
        let db = Db::open(&url).unwrap();
        let tables = db
            .transaction(|sql| sql.query("SELECT count(*) FROM jobs WHERE priority > $1", &[0i64.into()]))
            .unwrap();
        assert_eq!(tables[0].int(0), 0);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = std::fs::metadata(dir.path().join("nested/results.db"))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }

    #[test]
    fn a_failed_transaction_keeps_nothing() {
        let db = Db::open(&DbUrl::SqliteMemory).unwrap();
        let result: Result<(), _> = db.transaction(|sql| {
            sql.execute(
                "INSERT INTO known_defects (page, kind, step, documented, marked_by, marked_ms) VALUES ($1, $2, $3, $4, $5, $6)",
                &["p".into(), "renamed_label".into(), "1".into(), "OK".into(), "ann".into(), 1i64.into()],
            )?;
            Err(PlatformError::Database("stop".into()))
        });
        assert!(result.is_err());
        let count = db
            .transaction(|sql| sql.query_one("SELECT count(*) FROM known_defects", &[]))
            .unwrap()
            .unwrap();
        assert_eq!(count.int(0), 0);
    }
}
