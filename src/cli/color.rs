//! Colour on the terminal: the verdict words of the table (red for biased,
//! green for no bias detected, yellow for inconclusive) and the `error:`
//! prefix. Never colour alone: the symbols and words say the same.
//! `--color auto` colours only a terminal and respects `NO_COLOR`.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicU8, Ordering};

/// When to colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    /// On a terminal, unless the `NO_COLOR` environment variable is set
    /// (to anything but the empty string) or `TERM` is `dumb`.
    Auto,
    /// Always, even into a pipe or a file.
    Always,
    /// Never.
    Never,
}

/// The choice of this run (set once by [`set`]).
static CHOICE: AtomicU8 = AtomicU8::new(0);

/// Records the run's choice.
pub fn set(choice: ColorChoice) {
    CHOICE.store(choice as u8, Ordering::Relaxed);
}

fn choice() -> ColorChoice {
    match CHOICE.load(Ordering::Relaxed) {
        1 => ColorChoice::Always,
        2 => ColorChoice::Never,
        _ => ColorChoice::Auto,
    }
}

/// Whether output to a stream that `is_terminal` should be coloured.
fn enabled(is_terminal: bool) -> bool {
    match choice() {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
            let dumb = std::env::var_os("TERM").is_some_and(|t| t == "dumb");
            is_terminal && !no_color && !dumb
        }
    }
}

/// Whether stdout is coloured.
pub fn stdout() -> bool {
    enabled(std::io::stdout().is_terminal())
}

/// Whether stderr is coloured.
pub fn stderr() -> bool {
    enabled(std::io::stderr().is_terminal())
}

const RED: &str = "\x1b[1;31m";
const GREEN: &str = "\x1b[32m";
const YELLOW: &str = "\x1b[33m";
const RESET: &str = "\x1b[0m";

/// `text` (a rendered table and its notes) with each verdict word
/// coloured, when `on`. Colouring after layout keeps the columns aligned.
pub fn verdicts(text: &str, on: bool) -> String {
    if !on {
        return text.to_string();
    }
    text.replace("✗ biased", &format!("{RED}✗ biased{RESET}"))
        .replace(
            "✓ no bias detected",
            &format!("{GREEN}✓ no bias detected{RESET}"),
        )
        .replace("? inconclusive", &format!("{YELLOW}? inconclusive{RESET}"))
}

/// The `error:` prefix, red when `on`.
pub fn error_prefix(on: bool) -> String {
    if on {
        format!("{RED}error:{RESET}")
    } else {
        "error:".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_are_coloured_only_when_asked() {
        let text = "a  ✗ biased  x\nb  ✓ no bias detected\n";
        assert_eq!(verdicts(text, false), text);
        let coloured = verdicts(text, true);
        assert!(coloured.contains("\x1b[1;31m✗ biased\x1b[0m"));
        assert!(coloured.contains("\x1b[32m✓ no bias detected\x1b[0m"));
        assert_eq!(error_prefix(false), "error:");
    }
}
