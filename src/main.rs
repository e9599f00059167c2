//! The `shuffle-audit` command: a thin shell over the library, whose
//! command-line front is [`shuffle_audit::cli`] (behind the `cli` feature).

fn main() {
    restore_sigpipe();
    std::process::exit(shuffle_audit::cli::main());
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
