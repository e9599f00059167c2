//! The `shuffle-audit` command: a thin shell over the library.

mod cli;

fn main() {
    restore_sigpipe();
    std::process::exit(cli::main());
}

/// Lets a closed pipe end the program quietly (`shuffle-audit … --json |
/// head`), as for any Unix filter: Rust ignores SIGPIPE, which turns the
/// next write into a panic in `println!`.
#[cfg(unix)]
fn restore_sigpipe() {
    // SAFETY: setting a signal's disposition to its default before any
    // thread starts has no preconditions.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[cfg(not(unix))]
fn restore_sigpipe() {}
