//! Files that hold secrets (AccessKey pairs, account databases) are readable by their owner only:
//! created with mode 0600, and narrowed to it when they exist already.

use std::io::Write as _;
use std::path::Path;

/// Writes `contents` to `path`, readable and writable by the owner only.
pub fn write(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    let mut file = options().open(path)?;
    restrict(path)?;
    file.write_all(contents)?;
    file.set_len(contents.len() as u64)
}

/// Makes sure `path` exists (empty when new) and is the owner's only; for databases a library opens
/// afterwards.
pub fn prepare(path: &Path) -> std::io::Result<()> {
    let mut options = options();
    options.truncate(false);
    options.open(path)?;
    restrict(path)
}

/// Narrows an existing file to its owner.
pub fn restrict(path: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))?;
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

/// Refuses a secret-holding file that others may read, saying how to narrow it (a file someone else
/// made is theirs to change, so it is not narrowed here).
pub fn check_private(path: &Path) -> Result<(), String> {
    let metadata = std::fs::metadata(path).map_err(|e| format!("{}: {e}", path.display()))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = metadata.permissions().mode() & 0o777;
        if mode & 0o077 != 0 {
            return Err(format!(
                "{} holds a secret but others may read it (mode {mode:o}): run chmod 600 {}",
                path.display(),
                path.display()
            ));
        }
    }
    #[cfg(not(unix))]
    let _ = metadata;
    Ok(())
}

fn options() -> std::fs::OpenOptions {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        options.mode(0o600);
    }
    options
}

#[cfg(all(test, unix))]
mod tests {
    use std::os::unix::fs::PermissionsExt as _;

    use super::*;

    fn mode(path: &Path) -> u32 {
        std::fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn secrets_are_the_owners_only_new_or_not() {
        let dir = std::env::temp_dir().join(format!("aca-private-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fresh = dir.join("fresh.json");
        write(&fresh, b"{\"accessKeySecret\": \"s\"}").unwrap();
        assert_eq!(mode(&fresh), 0o600);
        let shared = dir.join("shared.json");
        std::fs::write(&shared, "a longer older text").unwrap();
        std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o644)).unwrap();
        write(&shared, b"short").unwrap();
        assert_eq!(
            (mode(&shared), std::fs::read_to_string(&shared).unwrap()),
            (0o600, "short".into())
        );
        let db = dir.join("pool.db");
        std::fs::write(&db, "kept").unwrap();
        prepare(&db).unwrap();
        assert_eq!(
            (mode(&db), std::fs::read_to_string(&db).unwrap()),
            (0o600, "kept".into())
        );
        assert_eq!(check_private(&db), Ok(()));
        let open = dir.join("open.json");
        std::fs::write(&open, "{}").unwrap();
        std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o644)).unwrap();
        let refused = check_private(&open).unwrap_err();
        assert!(refused.contains("(mode 644): run chmod 600"), "{refused}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
