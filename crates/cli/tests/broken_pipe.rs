//! `cpaplay ... | head`: when the reader goes away early, the tool ends
//! quietly (SIGPIPE) instead of panicking on a broken pipe.

use std::io::Read;
use std::process::{Command, Stdio};

#[test]
fn a_closed_stdout_ends_the_trace_without_a_panic() {
    let example = concat!(env!("CARGO_MANIFEST_DIR"), "/../../static/examples/octagon-listing2-1-bounded.c");
    let mut child = Command::new(env!("CARGO_BIN_EXE_cpaplay"))
        .args(["trace", example, "--config", "octagon-sep", "--json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cpaplay starts");
    // Read a little of the (long) trace, then hang up, as `head` does.
    let mut stdout = child.stdout.take().expect("stdout");
    let mut first = [0u8; 64];
    stdout.read_exact(&mut first).expect("the trace begins");
    assert!(first.starts_with(b"["), "the JSON trace is a list");
    drop(stdout);
    let mut stderr = String::new();
    child.stderr.take().expect("stderr").read_to_string(&mut stderr).expect("stderr is text");
    child.wait().expect("cpaplay ends");
    assert!(!stderr.contains("panicked"), "no panic on a broken pipe:\n{stderr}");
    assert!(!stderr.contains("Broken pipe"), "no broken-pipe error:\n{stderr}");
}
