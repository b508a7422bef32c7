//! The people the companion server serves: each has a bearer token (kept only as its SHA-256
//! digest, compared in constant time) and the accounts assigned to them; the admin token is a
//! different thing and is never a user's. Users live in memory, or in a [`UserStore`] so that a
//! restarted server keeps them: a SQLite file readable by its owner only ([`UsersFile`]), or a
//! database every server of a team shares (`aca server`'s results database).

use std::collections::BTreeMap;
use std::path::Path;

use rusqlite::{Connection, params};

use rand::RngCore;
use serde::Serialize;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// The prefix of every user token, so a leaked one is recognisable (and never taken for the admin's).
pub const USER_TOKEN_PREFIX: &str = "aca_u_";

/// One user, as the API shows them (no token).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct User {
    pub name: String,
    /// Ids of the accounts this user may run in.
    pub accounts: Vec<String>,
}

/// Who made a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Caller {
    Admin,
    User(User),
}

impl Caller {
    /// Whether the caller may act in `account_id`.
    pub fn may_use(&self, account_id: &str) -> bool {
        match self {
            Caller::Admin => true,
            Caller::User(user) => user.accounts.iter().any(|a| a == account_id),
        }
    }

    /// The user's name, or `admin`.
    pub fn name(&self) -> &str {
        match self {
            Caller::Admin => "admin",
            Caller::User(user) => &user.name,
        }
    }
}

fn digest(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

/// Whether two digests are equal, in time independent of where they differ.
fn same(a: &[u8; 32], b: &[u8; 32]) -> bool {
    bool::from(a.ct_eq(b))
}

/// Where users are kept so that they outlive the process: a SQLite file ([`UsersFile`]), or a
/// database several servers share, so that a user made on one is known to all of them.
pub trait UserStore: Send + Sync {
    /// Every user kept, with their token's digest.
    fn load(&self) -> Result<Vec<(User, [u8; 32])>, UserError>;
    /// Keeps a new user; `Ok(false)` when one of that name is kept already (made, perhaps, by
    /// another server).
    fn insert(&self, user: &User, token_sha256: &[u8; 32]) -> Result<bool, UserError>;
}

/// The registry of users and the admin token.
#[derive(Default)]
pub struct Users {
    admin: Option<[u8; 32]>,
    /// By name: the token's digest and the user.
    users: BTreeMap<String, ([u8; 32], User)>,
    /// Where every new user is written, when the users outlive the process.
    store: Option<Box<dyn UserStore>>,
}

impl std::fmt::Debug for Users {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Users")
            .field("users", &self.users.keys().collect::<Vec<_>>())
            .field("kept", &self.store.is_some())
            .finish_non_exhaustive()
    }
}

/// Why a user cannot be created.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UserError {
    BadName(String),
    Exists(String),
    /// The users' store could not be read or written.
    Store(String),
}

impl std::fmt::Display for UserError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            UserError::BadName(name) => write!(
                f,
                "\"{name}\" is not a user name: use 1 to 64 letters, digits, '.', '-' or '_'"
            ),
            UserError::Exists(name) => write!(f, "a user named \"{name}\" exists already"),
            UserError::Store(why) => write!(f, "the users' store: {why}"),
        }
    }
}

impl std::error::Error for UserError {}

impl Users {
    /// Without an admin token nobody can create users.
    pub fn new(admin_token: Option<&str>) -> Self {
        Self {
            admin: admin_token.filter(|t| !t.is_empty()).map(digest),
            users: BTreeMap::new(),
            store: None,
        }
    }

    /// The users kept in `store`, read now and again whenever a token is not known.
    pub fn kept_in(store: Box<dyn UserStore>, admin_token: Option<&str>) -> Result<Self, UserError> {
        let mut users = Self::new(admin_token);
        users.store = Some(store);
        users.refresh()?;
        Ok(users)
    }

    /// The users kept in the SQLite file at `path` (see [`UsersFile::open`]).
    pub fn open(path: &Path, admin_token: Option<&str>) -> Result<Self, UserError> {
        Self::kept_in(Box::new(UsersFile::open(path)?), admin_token)
    }

    /// Reads the store again, so that users another server made are known here too.
    pub fn refresh(&mut self) -> Result<(), UserError> {
        let Some(store) = &self.store else { return Ok(()) };
        self.users = store
            .load()?
            .into_iter()
            .map(|(user, token)| (user.name.clone(), (token, user)))
            .collect();
        Ok(())
    }

    /// Whether the users outlive the process (and may be made by other servers).
    pub fn is_kept(&self) -> bool {
        self.store.is_some()
    }

    /// Adds a user who may run in `accounts`; the answer is their token, shown this once.
    pub fn create(&mut self, name: &str, accounts: Vec<String>) -> Result<String, UserError> {
        let valid = !name.is_empty()
            && name.len() <= 64
            && name.chars().all(|c| c.is_ascii_alphanumeric() || "._-".contains(c));
        if !valid {
            return Err(UserError::BadName(name.to_owned()));
        }
        if self.users.contains_key(name) {
            return Err(UserError::Exists(name.to_owned()));
        }
        let mut bytes = [0u8; 32];
        rand::rng().fill_bytes(&mut bytes);
        let token = format!("{USER_TOKEN_PREFIX}{}", hex::encode(bytes));
        let user = User {
            name: name.to_owned(),
            accounts,
        };
        let token_sha256 = digest(&token);
        if let Some(store) = &self.store
            && !store.insert(&user, &token_sha256)?
        {
            return Err(UserError::Exists(name.to_owned()));
        }
        self.users.insert(name.to_owned(), (token_sha256, user));
        Ok(token)
    }

    /// Whether an admin token was given: without one, nothing needs the admin.
    pub fn has_admin(&self) -> bool {
        self.admin.is_some()
    }

    pub fn list(&self) -> Vec<User> {
        self.users.values().map(|(_, u)| u.clone()).collect()
    }

    /// Who `token` belongs to, among the users read so far. Every stored digest is compared, so
    /// the time taken does not say which one came close.
    pub fn authenticate(&self, token: &str) -> Option<Caller> {
        let given = digest(token);
        let admin = self.admin.as_ref().is_some_and(|a| same(a, &given));
        let mut found = None;
        for (stored, user) in self.users.values() {
            if same(stored, &given) {
                found = Some(user.clone());
            }
        }
        match (admin, found) {
            (true, _) => Some(Caller::Admin),
            (false, Some(user)) => Some(Caller::User(user)),
            (false, None) => None,
        }
    }
}

/// Who `token` belongs to. A token not known yet sends the registry back to its store (off the
/// async threads, since a shared database answers synchronously), for a user another server made.
pub async fn authenticate(users: &crate::SharedUsers, token: &str) -> Option<Caller> {
    let known = {
        let users = users.read().unwrap_or_else(|e| e.into_inner());
        match users.authenticate(token) {
            Some(caller) => return Some(caller),
            None => users.is_kept(),
        }
    };
    if !known {
        return None;
    }
    let (users, token) = (users.clone(), token.to_owned());
    tokio::task::spawn_blocking(move || {
        let mut users = users.write().unwrap_or_else(|e| e.into_inner());
        if let Err(e) = users.refresh() {
            tracing::warn!("cannot read the users again: {e}");
        }
        users.authenticate(&token)
    })
    .await
    .ok()
    .flatten()
}

/// Users kept in a SQLite file, readable by its owner only; the token itself is never written,
/// only its digest.
pub struct UsersFile {
    path: std::path::PathBuf,
    file: std::sync::Mutex<Connection>,
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS companion_users (
    name TEXT PRIMARY KEY,
    token_sha256 BLOB NOT NULL,
    accounts TEXT NOT NULL
);
";

impl UsersFile {
    /// Opens (or creates) the file at `path`; it may be the emulator's own database file, beside
    /// whose tables the users live.
    pub fn open(path: &Path) -> Result<Self, UserError> {
        let failed = |e: &dyn std::fmt::Display| UserError::Store(format!("{}: {e}", path.display()));
        aca_openapi::private_file::prepare(path).map_err(|e| failed(&e))?;
        let file = Connection::open(path).map_err(|e| failed(&e))?;
        file.busy_timeout(std::time::Duration::from_secs(5)).map_err(|e| failed(&e))?;
        file.execute_batch(SCHEMA).map_err(|e| failed(&e))?;
        Ok(Self {
            path: path.to_owned(),
            file: std::sync::Mutex::new(file),
        })
    }

    fn failed(&self, e: &dyn std::fmt::Display) -> UserError {
        UserError::Store(format!("{}: {e}", self.path.display()))
    }
}

impl UserStore for UsersFile {
    fn load(&self) -> Result<Vec<(User, [u8; 32])>, UserError> {
        let file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        let mut rows = file
            .prepare("SELECT name, token_sha256, accounts FROM companion_users")
            .map_err(|e| self.failed(&e))?;
        let read = rows
            .query_map([], |row| {
                Ok((row.get::<_, String>(0)?, row.get::<_, Vec<u8>>(1)?, row.get::<_, String>(2)?))
            })
            .map_err(|e| self.failed(&e))?;
        let mut users = Vec::new();
        for row in read {
            let (name, token, accounts) = row.map_err(|e| self.failed(&e))?;
            let token: [u8; 32] = token
                .try_into()
                .map_err(|_| self.failed(&format!("user {name}'s token digest is not 32 bytes")))?;
            let accounts: Vec<String> = serde_json::from_str(&accounts).map_err(|e| self.failed(&e))?;
            users.push((User { name, accounts }, token));
        }
        Ok(users)
    }

    fn insert(&self, user: &User, token_sha256: &[u8; 32]) -> Result<bool, UserError> {
        let accounts = serde_json::to_string(&user.accounts).map_err(|e| self.failed(&e))?;
        let file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        file.execute(
            "INSERT INTO companion_users (name, token_sha256, accounts) VALUES (?1, ?2, ?3)
             ON CONFLICT(name) DO NOTHING",
            params![user.name, token_sha256.as_slice(), accounts],
        )
        .map(|changed| changed == 1)
        .map_err(|e| self.failed(&e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_name_their_user_and_only_the_admin_token_is_admin() {
        let mut users = Users::new(Some("admin-secret"));
        let alice = users.create("alice", vec!["1001".into()]).unwrap();
        let bob = users.create("bob", vec![]).unwrap();
        assert!(alice.starts_with(USER_TOKEN_PREFIX) && alice != bob);
        assert_eq!(users.authenticate("admin-secret"), Some(Caller::Admin));
        let Some(Caller::User(user)) = users.authenticate(&alice) else {
            panic!("alice's token is not alice's");
        };
        assert_eq!(user.name, "alice");
        assert!(Caller::User(user.clone()).may_use("1001"));
        assert!(!Caller::User(user).may_use("2002"));
        assert_eq!(users.authenticate("aca_u_0000"), None);
        assert_eq!(users.authenticate(""), None);
        assert!(!users.authenticate(&bob).unwrap().may_use("2002"));
        assert_eq!(users.create("alice", vec![]), Err(UserError::Exists("alice".into())));
        assert!(matches!(users.create("a b", vec![]), Err(UserError::BadName(_))));
    }

    #[tokio::test]
    async fn a_user_another_registry_made_in_the_same_store_is_known_at_once_and_named_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("users.db");
        let here: crate::SharedUsers = std::sync::Arc::new(std::sync::RwLock::new(Users::open(&path, None).unwrap()));
        let mut there = Users::open(&path, None).unwrap();
        let token = there.create("carol", vec!["1001".into()]).unwrap();
        let Some(Caller::User(carol)) = authenticate(&here, &token).await else {
            panic!("a token made by the other registry is not known here");
        };
        assert_eq!(carol.accounts, ["1001"]);
        assert_eq!(authenticate(&here, "aca_u_0").await, None);
        let mut late = Users::open(&path, None).unwrap();
        there.create("dave", vec![]).unwrap();
        assert_eq!(late.create("dave", vec![]), Err(UserError::Exists("dave".into())));
    }

    #[test]
    fn without_an_admin_token_nobody_is_admin() {
        let users = Users::new(None);
        assert_eq!(users.authenticate(""), None);
        let empty = Users::new(Some(""));
        assert_eq!(empty.authenticate(""), None);
    }

    #[test]
    fn users_kept_in_a_file_outlive_the_registry_and_only_their_owner_reads_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("users.db");
        let alice = {
            let mut users = Users::open(&path, Some("admin-secret")).unwrap();
            users.create("alice", vec!["1001".into(), "2002".into()]).unwrap()
        };
        let users = Users::open(&path, Some("admin-secret")).unwrap();
        let Some(Caller::User(user)) = users.authenticate(&alice) else {
            panic!("alice's token is not alice's after a restart");
        };
        assert_eq!(user.accounts, ["1001", "2002"]);
        assert_eq!(users.authenticate("admin-secret"), Some(Caller::Admin));
        let stored = std::fs::read(&path).unwrap();
        assert!(
            !stored.windows(alice.len()).any(|w| w == alice.as_bytes()),
            "the token itself is never stored"
        );
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o077, 0, "the users' file is readable by others: {mode:o}");
        }
    }
}
