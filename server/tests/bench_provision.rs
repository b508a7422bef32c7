//! `aca bench provision` prints its figures: p50/p95 of provision + verify + destroy of the typical
//! META, and the parallel runs' cross-talk check.

mod common;

#[test]
fn the_provisioning_benchmark_prints_percentiles_and_finds_no_cross_talk() {
    let dir = tempfile::tempdir().unwrap();
    let output = common::aca(dir.path(), &["bench", "provision", "--runs", "5", "--parallel", "8"]);
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(text.contains("one at a time, 5 runs: p50 "), "{text}");
    assert!(text.contains(" p95 ") && text.contains("target <= 300 ms"), "{text}");
    assert!(text.contains("8 at once, separate accounts"), "{text}");
    assert!(text.contains("cross-talk: none"), "{text}");
}
