//! The README and the book in `docs/` stay true (issue 23, "docs that
//! cannot rot"). mdBook itself is not installed in CI, so this test checks
//! what `mdbook build` would and more:
//!
//! - `docs/src/SUMMARY.md` lists every chapter, and every chapter it lists
//!   exists;
//! - every relative link of the README and the book resolves: the file or
//!   folder exists, and an `#anchor` into a Markdown file names one of its
//!   headings (GitHub's and mdBook's slug rules) or an `<a id>`;
//! - every chapter is included by `src/book.rs`, so that `cargo test --doc`
//!   compiles and runs its ```` ```rust ```` blocks, and no Rust block is
//!   `ignore`d;
//! - every ```` ```console ```` block is either run here, through the binary
//!   Cargo built, and checked to exit as shown and to print the lines it
//!   shows, or carries `<!-- copied from a real run: COMMAND, DATE -->`
//!   right above it (a run too slow for CI);
//! - every `shuffle-audit` command of a ```` ```sh ```` block names a real
//!   subcommand and only flags its `--help` lists;
//! - the architecture chapter names every module under `src/`, and the
//!   README stays short and keeps its two set-up commands.

mod common;

use common::{BIN, TempDir};
use shuffle_audit::experiment::Experiment;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository root (where Cargo.toml is).
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The book's source folder.
fn book_src() -> PathBuf {
    root().join("docs/src")
}

/// Every chapter file of the book (`docs/src/*.md` but SUMMARY.md), sorted.
fn chapters() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(book_src())
        .expect("docs/src exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .filter(|p| p.file_name().unwrap() != "SUMMARY.md")
        .collect();
    out.sort();
    out
}

/// The Markdown files whose links and examples are checked: the README,
/// SUMMARY.md and every chapter.
fn documents() -> Vec<PathBuf> {
    let mut out = vec![root().join("README.md"), book_src().join("SUMMARY.md")];
    out.extend(chapters());
    out
}

/// The path of `file` relative to the repository root, for messages.
fn shown(file: &Path) -> String {
    file.strip_prefix(root())
        .unwrap_or(file)
        .display()
        .to_string()
}

fn read(file: &Path) -> String {
    std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()))
}

/// One fenced code block of a Markdown file.
struct Block {
    /// The info string after the opening fence (`rust`, `console`, `sh`, ...).
    info: String,
    /// The 1-based line of the opening fence.
    line: usize,
    /// The lines between the fences.
    body: Vec<String>,
    /// The HTML comment on the last non-blank line above the fence, if any.
    comment: Option<String>,
}

/// The fenced code blocks of `text` (fences of three or more backticks).
fn blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        let trimmed = lines[i].trim_start();
        if let Some(rest) = trimmed.strip_prefix("```") {
            let fence_len = 3 + rest.chars().take_while(|&c| c == '`').count();
            let info = rest.trim_start_matches('`').trim().to_string();
            let comment = lines[..i]
                .iter()
                .rev()
                .find(|l| !l.trim().is_empty())
                .map(|l| l.trim())
                .filter(|l| l.starts_with("<!--") && l.ends_with("-->"))
                .map(str::to_string);
            let start = i;
            let mut body = Vec::new();
            i += 1;
            while i < lines.len() {
                let t = lines[i].trim_start();
                if t.starts_with(&"`".repeat(fence_len)) && t.trim_matches('`').trim().is_empty() {
                    break;
                }
                body.push(lines[i].to_string());
                i += 1;
            }
            out.push(Block {
                info,
                line: start + 1,
                body,
                comment,
            });
        }
        i += 1;
    }
    out
}

/// `text` with every fenced code block blanked out (line numbers kept), so
/// that links and headings are read from the prose only.
fn prose(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut fence: Option<usize> = None;
    for line in text.lines() {
        let t = line.trim_start();
        let ticks = t.chars().take_while(|&c| c == '`').count();
        match fence {
            None if ticks >= 3 => {
                fence = Some(ticks);
                out.push(String::new());
            }
            Some(n) if ticks >= n && t.trim_matches('`').trim().is_empty() => {
                fence = None;
                out.push(String::new());
            }
            Some(_) => out.push(String::new()),
            None => out.push(line.to_string()),
        }
    }
    out
}

/// The anchor GitHub and mdBook give a heading: its text lower-cased,
/// spaces to hyphens, and every character but letters, digits, `-` and `_`
/// dropped (inline code and link syntax first reduced to their text).
fn slug(heading: &str) -> String {
    let mut text = String::new();
    // [text](target) -> text
    let mut rest = heading;
    while let Some(open) = rest.find('[') {
        match rest[open..].find("](") {
            Some(mid) => {
                let close = rest[open + mid..].find(')').map(|c| open + mid + c);
                text.push_str(&rest[..open]);
                text.push_str(&rest[open + 1..open + mid]);
                rest = match close {
                    Some(c) => &rest[c + 1..],
                    None => "",
                };
            }
            None => break,
        }
    }
    text.push_str(rest);
    text.chars()
        .filter_map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' {
                Some(c.to_lowercase().collect::<String>())
            } else if c == ' ' {
                Some("-".to_string())
            } else {
                None
            }
        })
        .collect()
}

/// The anchors a Markdown file defines: its headings' slugs (a repeated
/// slug also as `slug-1`, `slug-2`, ...) and every `id="..."` of its HTML.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    for line in prose(text) {
        let t = line.trim_start();
        let hashes = t.chars().take_while(|&c| c == '#').count();
        if (1..=6).contains(&hashes) && t[hashes..].starts_with(' ') {
            let s = slug(t[hashes..].trim());
            let n = seen.entry(s.clone()).or_insert(0);
            out.insert(if *n == 0 {
                s.clone()
            } else {
                format!("{s}-{n}")
            });
            *n += 1;
        }
        let mut rest = line.as_str();
        while let Some(at) = rest.find("id=\"") {
            let after = &rest[at + 4..];
            let end = after.find('"').unwrap_or(after.len());
            out.insert(after[..end].to_string());
            rest = &after[end..];
        }
    }
    out
}

/// The targets of the Markdown links and images of `text`'s prose, with
/// their 1-based lines (inline code spans left out).
fn links(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (i, line) in prose(text).iter().enumerate() {
        // Drop inline code spans: `[x](y)` inside them is not a link.
        let mut plain = String::new();
        for (k, part) in line.split('`').enumerate() {
            if k % 2 == 0 {
                plain.push_str(part);
            }
        }
        let mut rest = plain.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let end = after.find(')').unwrap_or(after.len());
            let target = after[..end].trim();
            let target = target.split_whitespace().next().unwrap_or("");
            let target = target.trim_start_matches('<').trim_end_matches('>');
            out.push((i + 1, target.to_string()));
            rest = &after[end..];
        }
    }
    out
}

#[test]
fn summary_lists_every_chapter_and_only_chapters_that_exist() {
    let summary = read(&book_src().join("SUMMARY.md"));
    let listed: BTreeSet<String> = links(&summary)
        .into_iter()
        .map(|(_, target)| target)
        .collect();
    for target in &listed {
        assert!(
            book_src().join(target).is_file(),
            "SUMMARY.md lists {target}, which is not in docs/src"
        );
    }
    for chapter in chapters() {
        let name = chapter.file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            listed.contains(&name),
            "docs/src/{name} is not listed in SUMMARY.md"
        );
    }
    assert!(root().join("docs/book.toml").is_file(), "docs/book.toml");
}

#[test]
fn every_relative_link_resolves() {
    let mut failures = Vec::new();
    let mut anchor_cache: BTreeMap<PathBuf, BTreeSet<String>> = BTreeMap::new();
    for doc in documents() {
        let text = read(&doc);
        for (line, target) in links(&text) {
            if target.is_empty()
                || target.starts_with("http://")
                || target.starts_with("https://")
                || target.starts_with("mailto:")
            {
                continue;
            }
            let (path, anchor) = match target.split_once('#') {
                Some((p, a)) => (p, Some(a)),
                None => (target.as_str(), None),
            };
            let file = if path.is_empty() {
                doc.clone()
            } else {
                doc.parent().unwrap().join(path)
            };
            let at = format!("{}:{line}: {target}", shown(&doc));
            if !file.exists() {
                failures.push(format!("{at}: {} does not exist", shown(&file)));
                continue;
            }
            if let Some(anchor) = anchor {
                if file.extension().is_none_or(|e| e != "md") {
                    failures.push(format!("{at}: an anchor into a file that is not Markdown"));
                    continue;
                }
                let known = anchor_cache
                    .entry(file.clone())
                    .or_insert_with(|| anchors(&read(&file)));
                if !known.contains(anchor) {
                    failures.push(format!("{at}: no heading or id `{anchor}` there"));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "broken links:\n{}",
        failures.join("\n")
    );
}

#[test]
fn every_chapter_is_compiled_as_a_doc_test() {
    let book_rs = read(&root().join("src/book.rs"));
    let lib_rs = read(&root().join("src/lib.rs"));
    assert!(
        lib_rs.contains("include_str!(\"../README.md\")"),
        "src/lib.rs includes the README as a doc test"
    );
    assert!(
        lib_rs.contains("#[cfg(doctest)]\nmod book;"),
        "src/lib.rs declares `#[cfg(doctest)] mod book;`"
    );
    for chapter in chapters() {
        let name = chapter.file_name().unwrap().to_string_lossy().into_owned();
        let include = format!("include_str!(\"../docs/src/{name}\")");
        assert!(
            book_rs.contains(&include),
            "src/book.rs does not include docs/src/{name}, so its Rust blocks are never compiled"
        );
    }
    for doc in documents() {
        for block in blocks(&read(&doc)) {
            let words: Vec<&str> = block.info.split([',', ' ']).collect();
            if words.first() == Some(&"rust") {
                assert!(
                    !words.contains(&"ignore"),
                    "{}:{}: a Rust block marked `ignore` is never compiled",
                    shown(&doc),
                    block.line
                );
            }
        }
    }
}

/// Whether a line of program output holds a timing or a rate (`in 0.02 s`,
/// `2.58 M/s`, `(0.1 s)`), which differ from run to run and are not compared.
fn is_timed(line: &str) -> bool {
    let bytes = line.as_bytes();
    // A rate ("1.3M/s", "52 MB/s"), not a path ("reports/summary.json").
    let rate = line.match_indices("/s").any(|(at, _)| {
        let end = at + 2;
        end >= bytes.len() || !bytes[end].is_ascii_alphanumeric()
    });
    if rate {
        return true;
    }
    for unit in [" s", " ms"] {
        let mut from = 0;
        while let Some(at) = line[from..].find(unit) {
            let at = from + at;
            let before_digit = at > 0 && bytes[at - 1].is_ascii_digit();
            let end = at + unit.len();
            let after_ok = end >= bytes.len() || !bytes[end].is_ascii_alphanumeric();
            if before_digit && after_ok {
                return true;
            }
            from = at + 1;
        }
    }
    false
}

/// One command of a console block: the command line (continuations joined)
/// and the output lines the book shows under it.
struct Step {
    command: String,
    output: Vec<String>,
    /// The exit code the block shows with `$ echo $?` right after it (0 if
    /// it shows none).
    expected_code: i32,
}

/// The commands of a console block, in order.
fn steps(body: &[String]) -> Vec<Step> {
    let mut out: Vec<Step> = Vec::new();
    let mut lines = body.iter();
    let mut pending_code = false;
    while let Some(line) = lines.next() {
        if let Some(cmd) = line.strip_prefix("$ ") {
            let mut command = cmd.to_string();
            while command.ends_with('\\') {
                command.pop();
                let next = lines.next().expect("a continued command goes on");
                command.push(' ');
                command.push_str(next.trim());
            }
            if command.trim() == "echo $?" {
                pending_code = true;
                continue;
            }
            out.push(Step {
                command,
                output: Vec::new(),
                expected_code: 0,
            });
        } else if pending_code {
            let last = out.last_mut().expect("`echo $?` follows a command");
            last.expected_code = line.trim().parse().expect("`echo $?` shows a number");
            pending_code = false;
        } else if let Some(last) = out.last_mut() {
            last.output.push(line.clone());
        }
    }
    out
}

/// A folder to run a book's commands in, as if at the repository root: the
/// committed inputs (experiments, examples, deploy, scripts and each
/// committed report) are links into the repository, and everything a command
/// writes (reports/latest, tally files, made-up inputs) stays in the folder.
fn workspace(name: &str) -> TempDir {
    let dir = TempDir::scratch(name);
    for entry in ["experiments", "examples", "deploy", "scripts", "docs"] {
        std::os::unix::fs::symlink(root().join(entry), dir.path(entry)).unwrap();
    }
    std::fs::create_dir(dir.path("reports")).unwrap();
    for report in std::fs::read_dir(root().join("reports")).unwrap() {
        let report = report.unwrap().path();
        let name = report.file_name().unwrap();
        if report.is_dir() && name != "latest" {
            std::os::unix::fs::symlink(&report, dir.path("reports").join(name)).unwrap();
        }
    }
    dir
}

/// Runs one console block's commands in a fresh workspace; returns what
/// went wrong, if anything.
fn run_block(doc: &Path, block: &Block, index: usize) -> Vec<String> {
    let bin_dir = Path::new(BIN).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let stem = doc.file_stem().unwrap().to_string_lossy().into_owned();
    let dir = workspace(&format!("{stem}-{index}"));
    let at = format!("{}:{}", shown(doc), block.line);
    let mut failures = Vec::new();
    let steps = steps(&block.body);
    if !steps.iter().any(|s| s.command.starts_with("shuffle-audit")) {
        failures.push(format!(
            "{at}: a console block runs no `shuffle-audit` command"
        ));
    }
    for step in steps {
        let output = Command::new("sh")
            .arg("-c")
            .arg(format!("exec 2>&1\n{}", step.command))
            .current_dir(&dir.0)
            .env("PATH", &path)
            .env("NO_COLOR", "1")
            .output()
            .expect("sh runs");
        let code = output.status.code().unwrap_or(-1);
        let printed = String::from_utf8_lossy(&output.stdout).into_owned();
        let actual: Vec<&str> = printed.lines().map(str::trim_end).collect();
        if code != step.expected_code {
            failures.push(format!(
                "{at}: `{}` exited {code}, the book shows {}:\n{printed}",
                step.command, step.expected_code
            ));
            continue;
        }
        // Every shown line (but elisions, blanks and timings) is printed,
        // in the order shown.
        let mut from = 0;
        for shown_line in &step.output {
            let want = shown_line.trim_end();
            if want.trim().is_empty() || matches!(want.trim(), "..." | "…") || is_timed(want) {
                continue;
            }
            match actual[from..].iter().position(|l| *l == want) {
                Some(k) => from += k + 1,
                None => {
                    failures.push(format!(
                        "{at}: `{}` did not print (in this order) the line\n  {want}\nIt printed:\n{printed}",
                        step.command
                    ));
                    break;
                }
            }
        }
    }
    failures
}

/// Whether an HTML comment marks a block as copied from a real run: it
/// names the command and a date (YYYY-MM-DD).
fn is_copied_marker(comment: &str) -> bool {
    let Some(rest) = comment.strip_prefix("<!-- copied from a real run:") else {
        return false;
    };
    let has_date = rest.as_bytes().windows(10).any(|w| {
        w.iter().enumerate().all(|(i, b)| match i {
            4 | 7 => *b == b'-',
            _ => b.is_ascii_digit(),
        })
    });
    has_date && rest.contains("shuffle-audit")
}

#[test]
fn console_blocks_are_run_or_copied_from_a_real_run() {
    let mut failures = Vec::new();
    let mut ran = 0;
    for doc in documents() {
        for (index, block) in blocks(&read(&doc)).iter().enumerate() {
            if block.info == "text" && block.body.iter().any(|l| l.starts_with("$ shuffle-audit")) {
                failures.push(format!(
                    "{}:{}: a shell session fenced as text: fence it as console",
                    shown(&doc),
                    block.line
                ));
            }
            if block.info != "console" {
                continue;
            }
            match &block.comment {
                Some(c) if c.starts_with("<!-- copied from a real run") => {
                    if !is_copied_marker(c) {
                        failures.push(format!(
                            "{}:{}: the marker must name the command and the date: {c}",
                            shown(&doc),
                            block.line
                        ));
                    }
                }
                _ => {
                    failures.extend(run_block(&doc, block, index));
                    ran += 1;
                }
            }
        }
    }
    assert!(ran > 0, "no console block was run");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Splits a shell command line into words: quotes grouped, not expanded
/// further than that.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut quote: Option<char> = None;
    let mut any = false;
    for c in line.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => word.push(c),
            None if c == '\'' || c == '"' => {
                quote = Some(c);
                any = true;
            }
            None if c.is_whitespace() => {
                if any || !word.is_empty() {
                    out.push(std::mem::take(&mut word));
                }
                any = false;
            }
            None if c == '#' && word.is_empty() && !any => break,
            None => word.push(c),
        }
    }
    if any || !word.is_empty() {
        out.push(word);
    }
    out
}

/// The `shuffle-audit` arguments of a shell line, if it runs the tool
/// (directly or through `cargo run --release --`).
fn tool_args(line: &str) -> Option<Vec<String>> {
    let w = words(line);
    if w.first().map(String::as_str) == Some("shuffle-audit") {
        return Some(w[1..].to_vec());
    }
    if w.len() > 2 && w[0] == "cargo" && w[1] == "run" {
        let dashes = w.iter().position(|x| x == "--")?;
        return Some(w[dashes + 1..].to_vec());
    }
    None
}

#[test]
fn sh_block_commands_use_real_subcommands_and_flags() {
    let mut help: HashMap<String, Option<String>> = HashMap::new();
    let mut failures = Vec::new();
    let mut checked = 0;
    for doc in documents() {
        for block in blocks(&read(&doc)) {
            if block.info != "sh" {
                continue;
            }
            let mut joined = Vec::new();
            let mut current = String::new();
            for line in &block.body {
                current.push_str(line.trim_end().trim_end_matches('\\'));
                current.push(' ');
                if !line.trim_end().ends_with('\\') {
                    joined.push(std::mem::take(&mut current));
                }
            }
            for line in joined {
                let Some(args) = tool_args(line.trim()) else {
                    continue;
                };
                checked += 1;
                let sub = args
                    .first()
                    .filter(|a| !a.starts_with('-'))
                    .cloned()
                    .unwrap_or_default();
                let text = help.entry(sub.clone()).or_insert_with(|| {
                    let mut cmd = Command::new(BIN);
                    if !sub.is_empty() {
                        cmd.arg(&sub);
                    }
                    let o = cmd.arg("--help").output().expect("the binary runs");
                    o.status
                        .success()
                        .then(|| String::from_utf8_lossy(&o.stdout).into_owned())
                });
                let at = format!("{}:{}: `{}`", shown(&doc), block.line, line.trim());
                let Some(text) = text else {
                    failures.push(format!("{at}: no subcommand `{sub}`"));
                    continue;
                };
                for arg in &args {
                    if arg == "--" || !arg.starts_with('-') || arg == "-" {
                        continue;
                    }
                    let flag = arg.split('=').next().unwrap();
                    let listed = if flag.starts_with("--") {
                        text.contains(&format!("{flag} ")) || text.contains(&format!("{flag}\n"))
                    } else {
                        text.contains(&format!("{flag}, "))
                    };
                    if !listed {
                        failures.push(format!("{at}: `{flag}` is not in `{sub} --help`"));
                    }
                }
            }
        }
    }
    assert!(checked > 0, "no shell command was checked");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn experiment_files_in_the_book_are_accepted() {
    // A ```toml block holding [[audit]], [[sample]] or [[mixing]] tables is
    // an experiment file: the schema must accept it as shown.
    let mut checked = 0;
    for doc in documents() {
        for block in blocks(&read(&doc)) {
            let is_experiment = block.info == "toml"
                && block.body.iter().any(|l| {
                    let l = l.trim_start();
                    l.starts_with("[[audit]]")
                        || l.starts_with("[[sample]]")
                        || l.starts_with("[[mixing]]")
                });
            if !is_experiment {
                continue;
            }
            checked += 1;
            let text = block.body.join("\n");
            let at = format!("{}:{}", shown(&doc), block.line);
            if let Err(e) = Experiment::parse(&text, Path::new("book-example.toml")) {
                panic!("{at}: the experiment file is refused: {e}");
            }
        }
    }
    assert!(checked > 0, "no experiment file was checked");
}

#[test]
fn the_architecture_chapter_names_every_module() {
    // Every file and folder directly under src/ (each module of the
    // library, the command line and the book) is named there, so that a new
    // module cannot be left out of the map.
    let chapter = read(&book_src().join("architecture.md"));
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(root().join("src")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !path.is_dir() && !name.ends_with(".rs") {
            continue;
        }
        let shown = format!("`src/{name}`");
        if !chapter.contains(&shown) {
            missing.push(shown);
        }
    }
    missing.sort();
    assert!(
        missing.is_empty(),
        "docs/src/architecture.md does not name {}",
        missing.join(", ")
    );
}

#[test]
fn the_readme_stays_short_and_keeps_its_set_up() {
    let readme = read(&root().join("README.md"));
    let lines = readme.lines().count();
    assert!(
        lines <= 400,
        "README.md has {lines} lines: keep it to what a newcomer needs and move the rest to docs/"
    );
    // The set-up is two commands: the main job on its defaults, and the
    // test suite CI runs (.ci/run runs exactly this test command).
    let ci = read(&root().join(".ci/run"));
    for command in [
        "cargo run --release -- run experiments/quick.toml",
        "cargo test --release",
    ] {
        assert!(
            readme.contains(command),
            "the README's set-up shows `{command}`"
        );
    }
    assert!(
        ci.lines().any(|l| l.trim() == "cargo test --release"),
        ".ci/run runs the README's test command"
    );
}

#[test]
fn the_checks_themselves_read_markdown_as_intended() {
    assert_eq!(
        slug("Decks with repeated items and categories: shoes, block lists, suits, hands"),
        "decks-with-repeated-items-and-categories-shoes-block-lists-suits-hands"
    );
    assert_eq!(slug("Random sources (`--rng`)"), "random-sources---rng");
    assert_eq!(
        slug("Data loaders: how big must my buffer be?"),
        "data-loaders-how-big-must-my-buffer-be"
    );
    assert!(is_timed(
        "[1/2] naive-swap n=10 chacha8: 100,000 trials in 0.01 s"
    ));
    assert!(is_timed("Curve written to reports/latest/mixing (0.0 s)"));
    assert!(!is_timed(
        "naive-swap    ✗ biased             < 1e-12  position-value +5"
    ));
    assert!(is_copied_marker(
        "<!-- copied from a real run: shuffle-audit selftest, 2026-11-27 -->"
    ));
    assert!(!is_copied_marker("<!-- copied from a real run -->"));
    let s = steps(&[
        "$ shuffle-audit audit -n 1 \\".to_string(),
        "    -t 5".to_string(),
        "error: x".to_string(),
        "$ echo $?".to_string(),
        "2".to_string(),
    ]);
    assert_eq!(s.len(), 1);
    assert_eq!(s[0].command, "shuffle-audit audit -n 1  -t 5");
    assert_eq!(s[0].expected_code, 2);
    assert_eq!(
        words("shuffle-audit audit --cmd 'node x.js {n}' -n 52  # comment"),
        [
            "shuffle-audit",
            "audit",
            "--cmd",
            "node x.js {n}",
            "-n",
            "52"
        ]
    );
}
