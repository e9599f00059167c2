//! The book in `docs/` as doc tests: each chapter is the documentation of
//! one struct here, so `cargo test --doc` compiles and runs every ```rust
//! block of every chapter, as `ReadmeDoctests` does for the README. Compiled
//! only for doc tests (`#[cfg(doctest)]` on the module in lib.rs); nothing
//! here is part of the library. `tests/book.rs` checks that every chapter
//! of `docs/src/` is included below.

/// docs/src/introduction.md, compiled and run as doc tests.
#[doc = include_str!("../docs/src/introduction.md")]
pub struct BookIntroduction;

/// docs/src/getting-started.md, compiled and run as doc tests.
#[doc = include_str!("../docs/src/getting-started.md")]
pub struct BookGettingStarted;

/// docs/src/command-line.md, compiled and run as doc tests.
#[doc = include_str!("../docs/src/command-line.md")]
pub struct BookCommandLine;

/// docs/src/built-in-shuffles.md, compiled and run as doc tests.
#[doc = include_str!("../docs/src/built-in-shuffles.md")]
pub struct BookBuiltInShuffles;

/// docs/src/rust.md, compiled and run as doc tests.
#[doc = include_str!("../docs/src/rust.md")]
pub struct BookRust;

/// docs/src/python.md, compiled and run as doc tests (it holds no Rust).
#[doc = include_str!("../docs/src/python.md")]
pub struct BookPython;

/// docs/src/browser.md, compiled and run as doc tests (it holds no Rust).
#[doc = include_str!("../docs/src/browser.md")]
pub struct BookBrowser;

/// docs/src/javascript.md, compiled and run as doc tests (it holds no Rust).
#[doc = include_str!("../docs/src/javascript.md")]
pub struct BookJavascript;

/// docs/src/outside-shuffles.md, compiled and run as doc tests.
#[doc = include_str!("../docs/src/outside-shuffles.md")]
pub struct BookOutsideShuffles;

/// docs/src/decks.md, compiled and run as doc tests.
#[doc = include_str!("../docs/src/decks.md")]
pub struct BookDecks;

/// docs/src/samplers.md, compiled and run as doc tests.
#[doc = include_str!("../docs/src/samplers.md")]
pub struct BookSamplers;

/// docs/src/statistics.md, compiled and run as doc tests.
#[doc = include_str!("../docs/src/statistics.md")]
pub struct BookStatistics;

/// docs/src/tests.md, compiled and run as doc tests.
#[doc = include_str!("../docs/src/tests.md")]
pub struct BookTests;

/// docs/src/exact.md, compiled and run as doc tests.
#[doc = include_str!("../docs/src/exact.md")]
pub struct BookExact;

/// docs/src/power.md, compiled and run as doc tests.
#[doc = include_str!("../docs/src/power.md")]
pub struct BookPower;

/// docs/src/mixing.md, compiled and run as doc tests.
#[doc = include_str!("../docs/src/mixing.md")]
pub struct BookMixing;

/// docs/src/data-loaders.md, compiled and run as doc tests.
#[doc = include_str!("../docs/src/data-loaders.md")]
pub struct BookDataLoaders;

/// docs/src/large-n.md, compiled and run as doc tests.
#[doc = include_str!("../docs/src/large-n.md")]
pub struct BookLargeN;

/// docs/src/experiments.md, compiled and run as doc tests.
#[doc = include_str!("../docs/src/experiments.md")]
pub struct BookExperiments;

/// docs/src/shards.md, compiled and run as doc tests.
#[doc = include_str!("../docs/src/shards.md")]
pub struct BookShards;

/// docs/src/reports.md, compiled and run as doc tests.
#[doc = include_str!("../docs/src/reports.md")]
pub struct BookReports;

/// docs/src/speed.md, compiled and run as doc tests.
#[doc = include_str!("../docs/src/speed.md")]
pub struct BookSpeed;

/// docs/src/architecture.md, compiled and run as doc tests.
#[doc = include_str!("../docs/src/architecture.md")]
pub struct BookArchitecture;
