//! The `shuffle-audit` command: a thin shell over the library, whose
//! command-line front is [`shuffle_audit::cli`] (behind the `cli` feature).

fn main() {
    restore_sigpipe();
    exit_on_stdout_errors();
    std::process::exit(shuffle_audit::cli::main());
}

/// Ends the program with exit code 2 and one line, not a panic and its
/// backtrace, when standard output cannot be written (`> /dev/full`, a
/// full disk): `print!` panics on a failed write, with a message the
/// standard library fixes ("failed printing to stdout").
fn exit_on_stdout_errors() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if let Some(why) = message.strip_prefix("failed printing to stdout: ") {
            eprintln!("error: cannot write to standard output: {why}");
            std::process::exit(2);
        }
        default(info);
    }));
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
