use super::*;
use crate::audit::{Kind, N_FROM_INPUT, Outside, Spec, Subject};
use crate::sampler::Samplers;
use crate::shuffle::Shuffles;
use crate::source::SourceKind;
use crate::spec::TestSet;

const GOOD: &str = r#"
name = "study"
purpose = "Why we look."
n = 10
trials = "2k"
seed = 7

[[audit]]
algorithm = "random-swap:k=100"
n = [10, 52]

[[audit]]
algorithm = "fisher-yates"
rng = "rand15-mod"
trials = 3e3
tests = ["position-value"]
note = "modulo bias"

[[mixing]]
algorithm = "riffle"
n = 52
k = { from = 1, to = 10 }
"#;

fn parse(text: &str) -> Result<Experiment> {
    Experiment::parse(text, Path::new("exp/bad.toml"))
}

/// The error for `text`, which must fail.
fn error(text: &str) -> String {
    parse(text).unwrap_err().to_string()
}

/// `GOOD` with its first occurrence of `from` replaced by `to`.
fn good_with(from: &str, to: &str) -> String {
    assert!(GOOD.contains(from), "{from}");
    GOOD.replacen(from, to, 1)
}

/// The study `exp` runs with its trials scaled by `scale` on `threads`,
/// as `shuffle-audit run` builds it.
fn study(exp: &Experiment, scale: f64, threads: Option<usize>) -> Result<Study> {
    let provenance = Provenance {
        meta: Default::default(),
        tool: "shuffle-audit test".into(),
        git_commit: None,
        git_dirty: None,
        date: "2026-01-01T00:00:00Z".into(),
        command_line: "shuffle-audit run exp/bad.toml".into(),
        reproduce: Vec::new(),
    };
    exp.study(scale, threads, provenance)
}

/// The spec of a shuffle audit.
fn shuffle(planned: &dyn Planned) -> &Spec<Shuffles> {
    planned.as_any().downcast_ref().expect("a shuffle audit")
}

/// The spec of a sampler audit.
fn sampler(planned: &dyn Planned) -> &Spec<Samplers> {
    planned.as_any().downcast_ref().expect("a sampler audit")
}

/// The outside subject of an audit.
fn outside<K: Kind>(spec: &Spec<K>) -> &Outside<K> {
    let Subject::Outside(outside) = &spec.subject else {
        panic!("an outside subject")
    };
    outside
}

/// The one audit `request` (a table's) resolves to.
fn resolved(request: &Request) -> Box<dyn Planned> {
    let mut audits = request.resolve().unwrap().audits;
    assert_eq!(audits.len(), 1);
    audits.remove(0)
}

/// A file named `name` (unique to this process) holding `text`, for a
/// table whose `input` must exist to be checked; its path as TOML takes
/// it.
fn input_file(name: &str, text: &str) -> String {
    let path = std::env::temp_dir().join(format!("sa-exp-{}-{name}", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path.to_str().expect("a UTF-8 temp path").to_string()
}

#[test]
fn a_good_file_expands_to_one_run_per_audit_and_size() {
    let exp = parse(GOOD).unwrap();
    assert_eq!(exp.name, "study");
    assert_eq!(exp.alpha, DEFAULT_ALPHA);
    assert_eq!(exp.out, Path::new("reports/latest/study"));
    let study = study(&exp, 1.0, None).unwrap();
    assert_eq!(study.title, "study");
    assert_eq!(study.purpose, "Why we look.");
    let runs: Vec<&Spec<Shuffles>> = study.audits.iter().map(|a| shuffle(a.as_ref())).collect();
    let summary: Vec<_> = runs
        .iter()
        .map(|r| (r.subject.to_string(), r.n, r.trials))
        .collect();
    assert_eq!(
        summary,
        [
            ("random-swap:k=100".to_string(), 10, 2000),
            ("random-swap:k=100".to_string(), 52, 2000),
            ("fisher-yates".to_string(), 10, 3000),
        ]
    );
    assert_eq!(runs[2].source.kind, SourceKind::Rand15Mod);
    assert_eq!(runs[0].source.kind, SourceKind::Chacha8);
    assert!(runs.iter().all(|r| r.seed == 7));
    assert_eq!(study.notes[2].as_deref(), Some("modulo bias"));
    assert_eq!(runs[2].options.tests, TestSet::position_value());
    assert_eq!(
        runs[0].options.tests,
        TestSet::default_for(10),
        "no tests key: the defaults"
    );
    assert_eq!(runs[1].options.tests, TestSet::default_for(52));
    assert_eq!(exp.mixing.len(), 1);
    assert_eq!(exp.mixing[0].steps, (1..=10).collect::<Vec<u64>>());
    assert_eq!(exp.mixing[0].trials, 2000);
    assert_eq!(study.mixing, exp.mixing);
}

#[test]
fn tests_all_and_default_are_names_of_sets_as_on_the_command_line() {
    // `tests = ["all"]` was "unknown test 'all'".
    let exp = parse(&good_with("\"position-value\"", "\"all\"")).unwrap();
    let all = study(&exp, 1.0, None).unwrap();
    let tests = &shuffle(all.audits[2].as_ref()).options.tests;
    assert!(tests.is_all(), "{tests}");
    let exp = parse(&good_with("\"position-value\"", "\"default\"")).unwrap();
    let default = study(&exp, 1.0, None).unwrap();
    assert!(
        shuffle(default.audits[2].as_ref())
            .options
            .tests
            .is_default()
    );
}

#[test]
fn trials_scale_multiplies_and_keeps_at_least_one() {
    let exp = parse(GOOD).unwrap();
    let halved = study(&exp, 0.5, Some(1)).unwrap();
    assert_eq!(shuffle(halved.audits[0].as_ref()).trials, 1000);
    assert_eq!(shuffle(halved.audits[0].as_ref()).threads, Some(1));
    assert_eq!(halved.mixing[0].trials, 1000);
    let tiny = study(&exp, 1e-9, None).unwrap();
    assert_eq!(tiny.audits[0].trials(), 1);
    assert!(study(&exp, 0.0, None).is_err());
    assert!(study(&exp, f64::NAN, None).is_err());
    assert!(study(&exp, 1.0, Some(0)).is_err());
}

#[test]
fn an_unknown_key_is_named_at_its_line_and_column() {
    let err = error(&good_with("seed = 7", "seed = 7\ntrails = 5"));
    assert!(err.starts_with("exp/bad.toml:7:1: "), "{err}");
    assert!(err.contains("unknown field `trails`"), "{err}");
    let err = error(&good_with("note =", "colour = \"red\"\nnote ="));
    assert!(err.starts_with("exp/bad.toml:17:1: "), "{err}");
    assert!(err.contains("unknown field `colour`"), "{err}");
}

#[test]
fn a_wrong_type_is_named_at_the_value() {
    let err = error(&good_with("n = [10, 52]", "n = \"ten\""));
    assert!(err.starts_with("exp/bad.toml:10:5: "), "{err}");
    assert!(
        err.contains("invalid type: string \"ten\", expected an integer or a list of integers"),
        "{err}"
    );
    let err = error(&good_with("seed = 7", "seed = \"seven\""));
    assert!(err.starts_with("exp/bad.toml:6:8: "), "{err}");
    assert!(err.contains("invalid type"), "{err}");
}

#[test]
fn impossible_sizes_are_named_at_the_element() {
    let too_small = "n = 1 is too small: n must be at least 2 (one item has nothing to shuffle \
                     or sample from)";
    let err = error(&good_with("n = [10, 52]", "n = [10, 1]"));
    assert_eq!(err, format!("exp/bad.toml:10:10: {too_small}"));
    let err = error(&good_with("n = 10", "n = 1"));
    assert_eq!(err, format!("exp/bad.toml:4:5: {too_small}"));
    let err = error(&good_with("n = [10, 52]", "n = [10, 10]"));
    assert!(
        err.starts_with("exp/bad.toml:10:10: n = 10 is listed twice"),
        "{err}"
    );
}

#[test]
fn an_unknown_algorithm_is_named_at_its_value() {
    let err = error(&good_with("\"fisher-yates\"", "\"bogo-sort\""));
    assert!(err.starts_with("exp/bad.toml:13:13: "), "{err}");
    assert!(
        err.contains("unknown algorithm or sampler 'bogo-sort'"),
        "{err}"
    );
    let err = error(&good_with("k=100", "q=100"));
    assert!(err.starts_with("exp/bad.toml:9:13: "), "{err}");
    assert!(err.contains("unknown parameter 'q'"), "{err}");
}

#[test]
fn bad_counts_are_named_at_their_value() {
    let err = error(&good_with("trials = \"2k\"", "trials = \"lots\""));
    assert!(
        err.starts_with("exp/bad.toml:5:10: bad count 'lots'"),
        "{err}"
    );
    let err = error(&good_with("trials = 3e3", "trials = 0"));
    assert_eq!(err, "exp/bad.toml:15:10: trials must be at least 1 (got 0)");
    let err = error(&good_with("trials = 3e3", "trials = 2.5"));
    assert!(err.contains("must be a whole number"), "{err}");
}

#[test]
fn a_confidence_level_is_an_alpha() {
    let exp = parse(&good_with("seed = 7", "seed = 7\nconfidence = 0.99")).unwrap();
    assert_eq!(exp.alpha, 0.01);
}

#[test]
fn other_impossible_values_are_refused() {
    for (from, to, want) in [
        (
            "seed = 7",
            "seed = 7\nalpha = 1.5",
            "7:9: alpha = 1.5 is not a significance level",
        ),
        (
            "seed = 7",
            "seed = 7\nalpha = 0",
            "7:9: alpha = 0 is not a significance level",
        ),
        (
            "seed = 7",
            "seed = 7\nconfidence = 1.5",
            "7:14: confidence '1.5' is not a level",
        ),
        (
            "seed = 7",
            "seed = 7\nalpha = 0.01\nconfidence = 0.99",
            "8:14: give alpha or confidence, not both",
        ),
        (
            "seed = 7",
            "seed = 7\nthreads = 0",
            "7:11: threads = 0 must be at least 1",
        ),
        (
            "\"rand15-mod\"",
            "\"mt19937\"",
            "14:7: unknown random source 'mt19937'",
        ),
        (
            "\"position-value\"",
            "\"runs-up\"",
            "16:10: unknown test 'runs-up' (known: position-value, permutation,",
        ),
        (
            "\"riffle\"",
            "\"bubble\"",
            "20:13: no mixing curve for 'bubble'",
        ),
        (
            "from = 1, to = 10",
            "from = 5, to = 1",
            "22:5: k = { from = 5, to = 1",
        ),
        (
            "purpose = \"Why we look.\"",
            "purpose = \"  \"",
            "3:11: purpose is empty",
        ),
    ] {
        let err = error(&good_with(from, to));
        assert!(
            err.starts_with(&format!("exp/bad.toml:{want}")),
            "{to}: {err}"
        );
    }
}

#[test]
fn missing_fields_and_duplicates_are_refused() {
    let err = error("name = \"x\"\n[[audit]]\nalgorithm = \"fisher-yates\"\n");
    assert!(err.starts_with("exp/bad.toml:"), "{err}");
    assert!(err.contains("missing key purpose"), "{err}");
    // A missing purpose does not hide the errors of the rest of the file.
    let err = error("name = \"x\"\n[[audit]]\nalgorithm = \"fisher-yate\"\n");
    assert!(err.contains("did you mean 'fisher-yates'?"), "{err}");
    let err = error("name = \"x\"\npurpose = \"y\"\ntrails = 5\n");
    assert!(err.contains("unknown field `trails`"), "{err}");
    assert!(err.contains("(did you mean 'trials'?)"), "{err}");
    let err = error("name = \"x\"\npurpose = \"y\"\n");
    assert!(
        err.contains("no [[audit]], [[sample]] or [[mixing]] table"),
        "{err}"
    );
    let twice = "name = \"x\"\npurpose = \"y\"\n[[audit]]\nalgorithm = \"sattolo\"\n\
                 [[audit]]\nalgorithm = \"sattolo\"\ntrials = 5\n";
    let err = error(twice);
    assert_eq!(
        err,
        "exp/bad.toml:6:13: sattolo at n = 10 with rng chacha8 is already audited (line 4); \
         each subject, n and source may appear once"
    );
    let err = error("name = \"x\"\npurpose = \"y\"\nnonsense");
    assert!(err.starts_with("exp/bad.toml:3:"), "{err}");
}

#[test]
fn folder_names_are_safe() {
    assert_eq!(folder_name("classics"), "classics");
    assert_eq!(folder_name("My study: n=52"), "My-study--n-52");
    assert_eq!(folder_name("../../etc"), "etc");
    assert_eq!(folder_name("///"), "experiment");
}

#[test]
fn outside_shuffles_are_audits_with_their_own_keys() {
    let head = "name = \"x\"\npurpose = \"y\"\nn = 10\n[[audit]]\n";
    let deals = input_file("deals.txt", "A B C\nC B A\n");
    let ok = parse(&format!(
        "{head}cmd = \"node s.js {{n}} {{count}} {{seed}}\"\nname = \"js\"\njobs = 3\n\
         requires = [\"node\"]\n[[audit]]\ninput = \"{deals}\"\norder = \"A,B,C\"\n"
    ))
    .unwrap();
    let (cmd, file) = (&ok.tables[0], &ok.tables[1]);
    assert_eq!(cmd.subject, "js");
    let sizes: Vec<Option<usize>> = cmd.requests.iter().map(|r| r.n).collect();
    assert_eq!(sizes, [Some(10)], "a command takes the file's n");
    assert_eq!(cmd.requires, vec!["node".to_string()]);
    assert!(matches!(&cmd.requests[0].feed, Some(Feed::Command(c)) if c.jobs == 3));
    let planned = resolved(&file.requests[0]);
    let reading = &outside(shuffle(planned.as_ref())).reading;
    assert_eq!(reading.order.as_deref().map(<[String]>::len), Some(3));
    assert_eq!(planned.n(), N_FROM_INPUT, "a file says its n");
    assert_eq!(planned.trials(), ALL_TRIALS, "a file is read whole");
    std::fs::remove_file(&deals).unwrap();

    let err = error(&format!("{head}algorithm = \"sattolo\"\ncmd = \"x\"\n"));
    assert!(
        err.contains("give only one of algorithm, input or cmd"),
        "{err}"
    );
    let err = error(&format!("{head}trials = 5\n"));
    assert!(
        err.contains("needs one of algorithm, input or cmd"),
        "{err}"
    );
    let err = error(&format!("{head}input = \"d.txt\"\njobs = 2\n"));
    assert!(err.contains("jobs and cmd_timeout go with cmd"), "{err}");
    let err = error(&format!("{head}algorithm = \"sattolo\"\nname = \"s\"\n"));
    assert!(err.contains("describe your own shuffle"), "{err}");
    let err = error(&format!("{head}cmd = \"x\"\njobs = 0\n"));
    assert!(err.contains("jobs = 0 must be at least 1"), "{err}");
    let err = error(&format!("{head}input = \"d.bin\"\nformat = \"u7\"\n"));
    assert!(err.contains("u7"), "{err}");
    // An input that is not there is refused before anything runs.
    let err = error(&format!("{head}input = \"no-such-deals.txt\"\n"));
    assert!(err.contains("no-such-deals.txt: no such file"), "{err}");
}

#[test]
fn sample_tables_take_a_sampler_from_outside_with_its_keys() {
    use crate::ingest::Format;
    use crate::ingest::samples::{Base, SampleKind};
    let draws = input_file("draws.txt", "1 2 3 4 5 6\n");
    let text = format!(
        "name = \"lotteries\"\npurpose = \"draws\"\n\
        [[sample]]\ninput = \"{draws}\"\nn = 49\nbase = 1\nname = \"6 of 49\"\n\
        [[sample]]\ncmd = \"node pick.js {{count}} {{seed}}\"\nkind = \"pick\"\nweights = [1, 99]\n\
        jobs = 2\nrequires = [\"node\"]\ntrials = \"10k\"\n"
    );
    let e = parse(&text).unwrap();
    let [file, program] = e.tables.as_slice() else {
        panic!("two tables");
    };
    let file = resolved(&file.requests[0]);
    let file = sampler(file.as_ref());
    let o = outside(file);
    assert_eq!(o.name, "6 of 49");
    assert_eq!(
        (o.reading.kind, o.reading.base),
        (SampleKind::Sample, Some(Base::One))
    );
    assert_eq!(
        o.feed,
        Feed::File {
            path: draws.clone().into(),
            format: Format::Text
        }
    );
    assert_eq!((file.n, file.trials), (49, ALL_TRIALS));
    assert_eq!(program.requires, vec!["node".to_string()]);
    let planned = resolved(&program.requests[0]);
    let program = sampler(planned.as_ref());
    let p = outside(program);
    assert_eq!(p.reading.kind, SampleKind::Pick);
    assert!(matches!(&p.feed, Feed::Command(c) if c.jobs == 2));
    assert_eq!(program.n, 2, "N is the weights' count");
    assert_eq!(program.options.weights, Some(vec![1, 99]));
    assert_eq!(program.trials, 10_000);
    let prizes = input_file("prizes.txt", "3 1\n");
    let ordered = parse(&format!(
        "name = \"prizes\"\npurpose = \"p\"\n[[sample]]\ninput = \"{prizes}\"\nn = 20\n\
         kind = \"ordered\"\n",
    ))
    .unwrap();
    let planned = resolved(&ordered.tables[0].requests[0]);
    let o = outside(sampler(planned.as_ref()));
    assert_eq!(o.reading.kind, SampleKind::Ordered);
    let bad = parse(
        "name = \"x\"\npurpose = \"p\"\n[[sample]]\ninput = \"a\"\nn = 5\nkind = \"sorted\"\n",
    )
    .unwrap_err()
    .to_string();
    assert!(
        bad.contains("kind = \"sorted\"") && bad.contains("ordered"),
        "{bad}"
    );
    // Scaling leaves "every sample of the file" alone.
    let halved = study(&e, 0.5, None).unwrap();
    assert_eq!(halved.audits[0].trials(), ALL_TRIALS);
    std::fs::remove_file(&draws).unwrap();
    std::fs::remove_file(&prizes).unwrap();
}

#[test]
fn bad_outside_sample_tables_are_refused_at_their_key() {
    let head = "name = \"x\"\npurpose = \"y\"\n[[sample]]\n";
    let d = input_file("d.txt", "1 2\n");
    for (body, want) in [
        (
            "sampler = \"floyd:k=3\"\ninput = \"D\"\n",
            "bad.toml:5:9: a [[sample]] table audits one thing",
        ),
        ("n = 4\n", "needs one of sampler, input or cmd"),
        ("input = \"D\"\n", "need the population size"),
        (
            "input = \"D\"\nn = 9\nkind = \"deck\"\n",
            "bad.toml:6:8: kind = \"deck\"",
        ),
        (
            "input = \"D\"\nn = 9\nbase = 2\n",
            "bad.toml:6:8: base = '2': items are numbered",
        ),
        (
            "input = \"D\"\nn = 2\nweights = [1, 2]\n",
            "weights go with kind = \"pick\"",
        ),
        (
            "sampler = \"floyd:k=3\"\nkind = \"pick\"\n",
            "describe a sampler from outside",
        ),
        (
            "input = \"D\"\nn = 9\njobs = 2\n",
            "jobs and cmd_timeout go with cmd",
        ),
    ] {
        let body = body.replace('D', &d);
        let got = error(&format!("{head}{body}"));
        assert!(got.contains(want), "{body:?}: {got}");
    }
    std::fs::remove_file(&d).unwrap();
}

#[test]
fn deck_keys_make_deck_audits() {
    let text = r#"
name = "decks"
purpose = "Shoes."
trials = "2k"

[[audit]]
algorithm = "naive-swap"
deck = "shoe:decks=2"
hand = 7

[[audit]]
algorithm = "fisher-yates"
deck = "AABB"
"#;
    let exp = parse(text).unwrap();
    let study = study(&exp, 1.0, None).unwrap();
    let shoe = shuffle(study.audits[0].as_ref());
    assert_eq!(shoe.n, 104);
    assert_eq!(shoe.options.deck.as_ref().unwrap().hand, 7);
    assert_eq!(
        shoe.options.tests.to_string(),
        "position-kind,position-category,hand,adjacency,successor,serial"
    );
    // What the report notes of a deck is its kind's, of the audit as run.
    let note = Shuffles::note(shuffle(study.audits[1].as_ref())).unwrap();
    assert!(note.contains("Skipped:"), "{note}");
    let with = |extra: &str| text.replace("hand = 7", extra);
    let e = error(&with("hand = 104"));
    assert!(e.contains("hand = 104: the hand must hold"), "{e}");
    let e = error(&with("n = 52"));
    assert!(e.contains("has 104 items: leave n out"), "{e}");
    let e = error(&with("categories = \"nope.csv\""));
    assert!(e.contains("nope.csv"), "{e}");
    let x = input_file("x.txt", "A B A B\n");
    let e = error(&text.replace("algorithm = \"fisher-yates\"", &format!("input = \"{x}\"")));
    assert!(e.contains("built-in algorithms"), "{e}");
    std::fs::remove_file(&x).unwrap();
}

#[test]
fn the_data_loaders_experiment_parses_and_its_loader_curve_takes_sizes() {
    use crate::mixing::buffer::{Loader, default_sizes};
    let text = include_str!("../../experiments/data-loaders.toml");
    let exp = parse(text).unwrap();
    assert_eq!(exp.tables.len(), 14);
    assert!(exp.tables.iter().all(|t| t.requests.len() == 1));
    assert_eq!(exp.mixing.len(), 1);
    assert_eq!(exp.mixing[0].loader(), Some(Loader::Buffer));
    assert_eq!(exp.mixing[0].steps, default_sizes(100_000));

    let table = |k: &str| {
        format!(
            "name = \"l\"\npurpose = \"p\"\nn = 100\n\n[[mixing]]\nalgorithm = \"window-shuffle\"\n{k}"
        )
    };
    assert_eq!(
        parse(&table("k = [1, 10, 100]")).unwrap().mixing[0].steps,
        [1, 10, 100]
    );
    let e = parse(&table("k = [1, 101]")).unwrap_err().to_string();
    assert!(e.contains("size 101") && e.contains("bad.toml:7:"), "{e}");
    let e = error(&good_with("k = { from = 1, to = 10 }\n", ""));
    assert!(e.contains("needs k") && e.contains("riffle"), "{e}");
}
