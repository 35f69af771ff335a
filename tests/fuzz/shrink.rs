//! Minimisation by deletion: remove a line (with the block indented below it, if it is a header)
//! as long as the program still fails the same way, until no single deletion keeps the failure.
//! Comment lines and the `--!` header stay.

use std::time::{Duration, Instant};

/// How long shrinking one failure may take: a generated program's check runs it six times, and
/// a campaign must spend its hour finding bugs, not polishing one.
const TIME_LIMIT: Duration = Duration::from_secs(90);

/// Shrinks `source` while `still_fails` holds; `still_fails(source)` must hold on entry. Stops
/// after `max_tries` candidates or [`TIME_LIMIT`], with the smallest failing program so far.
pub fn shrink(source: &str, still_fails: impl Fn(&str) -> bool, max_tries: usize) -> String {
    let deadline = Instant::now() + TIME_LIMIT;
    let mut lines: Vec<String> = source.lines().map(str::to_string).collect();
    let mut tries = 0;
    loop {
        let mut progress = false;
        let mut at = 0;
        while at < lines.len() {
            if lines[at].trim_start().starts_with("--")
                || lines[at].trim().is_empty()
                || is_loop_step(&lines[at])
            {
                at += 1;
                continue;
            }
            let end = block_end(&lines, at);
            let mut candidate = lines.clone();
            candidate.drain(at..end);
            tries += 1;
            if tries > max_tries || Instant::now() > deadline {
                return lines.join("\n") + "\n";
            }
            if still_fails(&(candidate.join("\n") + "\n")) {
                lines = candidate;
                progress = true;
            } else {
                at += 1;
            }
        }
        if !progress {
            return lines.join("\n") + "\n";
        }
    }
}

/// `k <- k + 1`: the step of a generated `while` loop. Without it the loop never ends, and the
/// CPU backend cannot be stopped (the campaign once hung shrinking such a candidate).
fn is_loop_step(line: &str) -> bool {
    let Some((name, value)) = line.trim().split_once(" <- ") else {
        return false;
    };
    value == format!("{name} + 1")
}

/// The end (exclusive) of the line at `at` and every line after it indented further.
fn block_end(lines: &[String], at: usize) -> usize {
    let indent = |line: &str| line.len() - line.trim_start().len();
    let own = indent(&lines[at]);
    let mut end = at + 1;
    while end < lines.len() && (lines[end].trim().is_empty() || indent(&lines[end]) > own) {
        end += 1;
    }
    end
}
