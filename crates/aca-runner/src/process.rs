//! Chromium's process tree: finding every process a browser started, and killing them all, so that
//! no renderer or zygote outlives its runner (read from `/proc`; elsewhere only the root is known).

use std::collections::HashSet;

/// `root` and every process descended from it, root first.
pub fn tree(root: u32) -> Vec<u32> {
    let parents = parent_links();
    let mut found = vec![root];
    let mut seen: HashSet<u32> = found.iter().copied().collect();
    let mut next = 0;
    while next < found.len() {
        let parent = found[next];
        for (pid, ppid) in &parents {
            if *ppid == parent && seen.insert(*pid) {
                found.push(*pid);
            }
        }
        next += 1;
    }
    found
}

/// Whether `pid` still runs (a zombie waiting to be reaped counts as gone).
pub fn is_running(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => stat_fields(&stat).is_some_and(|(state, _)| state != "Z" && state != "X"),
        Err(_) => false,
    }
}

/// Sends SIGKILL to each process; processes already gone are skipped.
pub fn kill_all(pids: &[u32]) {
    for pid in pids {
        let Some(pid) = i32::try_from(*pid).ok().and_then(rustix::process::Pid::from_raw) else {
            continue;
        };
        let _ = rustix::process::kill_process(pid, rustix::process::Signal::KILL);
    }
}

/// (pid, parent pid) of every process visible in `/proc`.
fn parent_links() -> Vec<(u32, u32)> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter_map(|pid| {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            let (_, ppid) = stat_fields(&stat)?;
            Some((pid, ppid))
        })
        .collect()
}

/// The state letter and the parent pid of a `/proc/PID/stat` line (the command name may hold spaces
/// and parentheses, so fields are read after its last `)`).
fn stat_fields(stat: &str) -> Option<(&str, u32)> {
    let rest = &stat[stat.rfind(')')? + 1..];
    let mut fields = rest.split_whitespace();
    let state = fields.next()?;
    let ppid = fields.next()?.parse().ok()?;
    Some((state, ppid))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_lines_with_odd_command_names_parse() {
        let line = "4242 (Chromium (renderer) x) S 4200 4242 4242 0 -1";
        assert_eq!(stat_fields(line), Some(("S", 4200)));
        assert_eq!(stat_fields("garbage"), None);
    }

    #[test]
    fn this_process_is_running_and_its_tree_starts_with_it() {
        let me = std::process::id();
        assert!(is_running(me));
        assert_eq!(tree(me)[0], me);
    }
}
