use super::*;
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

#[test]
fn a_good_file_expands_to_one_run_per_audit_and_size() {
    let exp = parse(GOOD).unwrap();
    assert_eq!(exp.name, "study");
    assert_eq!(exp.alpha, DEFAULT_ALPHA);
    assert_eq!(exp.out, Path::new("reports/latest/study"));
    let runs = exp.runs(1.0, None).unwrap();
    let summary: Vec<_> = runs
        .iter()
        .map(|r| (r.spec.subject.to_string(), r.spec.n, r.spec.trials))
        .collect();
    assert_eq!(
        summary,
        [
            ("random-swap:k=100".to_string(), 10, 2000),
            ("random-swap:k=100".to_string(), 52, 2000),
            ("fisher-yates".to_string(), 10, 3000),
        ]
    );
    assert_eq!(runs[2].spec.source.kind, SourceKind::Rand15Mod);
    assert_eq!(runs[0].spec.source.kind, SourceKind::Chacha8);
    assert!(runs.iter().all(|r| r.spec.seed == 7));
    assert_eq!(runs[2].note.as_deref(), Some("modulo bias"));
    assert_eq!(runs[2].spec.tests, TestSet::position_value());
    assert_eq!(
        runs[0].spec.tests,
        TestSet::default_for(10),
        "no tests key: the defaults"
    );
    assert_eq!(runs[1].spec.tests, TestSet::default_for(52));
    assert_eq!(exp.mixing.len(), 1);
    assert_eq!(exp.mixing[0].steps, (1..=10).collect::<Vec<u64>>());
    assert_eq!(exp.mixing[0].trials, 2000);
}

#[test]
fn trials_scale_multiplies_and_keeps_at_least_one() {
    let exp = parse(GOOD).unwrap();
    let runs = exp.runs(0.5, Some(1)).unwrap();
    assert_eq!(runs[0].spec.trials, 1000);
    assert_eq!(runs[0].spec.threads, Some(1));
    let runs = exp.runs(1e-9, None).unwrap();
    assert_eq!(runs[0].spec.trials, 1);
    assert!(exp.runs(0.0, None).is_err());
    assert!(exp.runs(f64::NAN, None).is_err());
    assert!(exp.runs(1.0, Some(0)).is_err());
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
    let err = error(&good_with("n = [10, 52]", "n = [10, 1]"));
    assert_eq!(
        err,
        "exp/bad.toml:10:10: n = 1 is too small: n must be at least 2"
    );
    let err = error(&good_with("n = 10", "n = 1"));
    assert_eq!(
        err,
        "exp/bad.toml:4:5: n = 1 is too small: n must be at least 2"
    );
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
    assert!(err.contains("unknown algorithm 'bogo-sort'"), "{err}");
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
         each algorithm, n and source may appear once"
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
    let ok = parse(&format!(
        "{head}cmd = \"node s.js {{n}} {{count}} {{seed}}\"\nname = \"js\"\njobs = 3\n\
         requires = [\"node\"]\n[[audit]]\ninput = \"deals.txt\"\norder = \"A,B,C\"\n"
    ))
    .unwrap();
    let (cmd, file) = (&ok.audits[0], &ok.audits[1]);
    assert_eq!(cmd.subject.to_string(), "js");
    assert_eq!(cmd.sizes, vec![10], "a command takes the file's n");
    assert_eq!(cmd.requires, vec!["node".to_string()]);
    let Subject::Outside(outside) = &file.subject else {
        panic!("an input is an outside shuffle")
    };
    assert_eq!(outside.order.as_deref().map(<[String]>::len), Some(3));
    assert_eq!(file.sizes, vec![engine::N_FROM_INPUT], "a file says its n");
    assert_eq!(file.trials, engine::ALL_DECKS, "a file is read whole");

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
}

#[test]
fn sample_tables_take_a_sampler_from_outside_with_its_keys() {
    use crate::ingest::samples::{Base, SampleKind};
    use crate::sampler::run::ALL_SAMPLES;
    use crate::sampler::subject::{SampleFeed, SamplerSubject};
    let text = "name = \"lotteries\"\npurpose = \"draws\"\n\
        [[sample]]\ninput = \"draws.txt\"\nn = 49\nbase = 1\nname = \"6 of 49\"\n\
        [[sample]]\ncmd = \"node pick.js {count} {seed}\"\nkind = \"pick\"\nweights = [1, 99]\n\
        jobs = 2\nrequires = [\"node\"]\ntrials = \"10k\"\n";
    let e = parse(text).unwrap();
    let [file, program] = e.samples.as_slice() else {
        panic!("two tables");
    };
    let SamplerSubject::Outside(o) = &file.spec.sampler else {
        panic!("outside");
    };
    assert_eq!(o.name, "6 of 49");
    assert_eq!((o.kind, o.base), (SampleKind::Sample, Some(Base::One)));
    assert_eq!(o.feed, SampleFeed::File("draws.txt".into()));
    assert_eq!((file.spec.n, file.spec.trials), (49, ALL_SAMPLES));
    let SamplerSubject::Outside(p) = &program.spec.sampler else {
        panic!("outside");
    };
    assert_eq!(p.kind, SampleKind::Pick);
    let ordered = parse(
        "name = \"prizes\"\npurpose = \"p\"\n[[sample]]\ninput = \"prizes.txt\"\nn = 20\n\
         kind = \"ordered\"\n",
    )
    .unwrap();
    let SamplerSubject::Outside(o) = &ordered.samples[0].spec.sampler else {
        panic!("outside");
    };
    assert_eq!(o.kind, SampleKind::Ordered);
    let bad = parse(
        "name = \"x\"\npurpose = \"p\"\n[[sample]]\ninput = \"a\"\nn = 5\nkind = \"sorted\"\n",
    )
    .unwrap_err()
    .to_string();
    assert!(
        bad.contains("kind = \"sorted\"") && bad.contains("ordered"),
        "{bad}"
    );
    assert!(matches!(&p.feed, SampleFeed::Command(c) if c.jobs == 2));
    assert_eq!(program.spec.n, 2, "N is the weights' count");
    assert_eq!(program.spec.weights, Some(vec![1, 99]));
    assert_eq!(program.requires, vec!["node".to_string()]);
    // Scaling leaves "every sample of the file" alone.
    let runs = e.sample_runs(0.5, None).unwrap();
    assert_eq!(runs[0].spec.trials, ALL_SAMPLES);
}

#[test]
fn bad_outside_sample_tables_are_refused_at_their_key() {
    let head = "name = \"x\"\npurpose = \"y\"\n[[sample]]\n";
    for (body, want) in [
        (
            "sampler = \"floyd:k=3\"\ninput = \"d.txt\"\n",
            "bad.toml:5:9: a [[sample]] table audits one thing",
        ),
        ("n = 4\n", "needs one of sampler, input or cmd"),
        ("input = \"d.txt\"\n", "needs n, the population size"),
        (
            "input = \"d.txt\"\nn = 9\nkind = \"deck\"\n",
            "bad.toml:6:8: kind = \"deck\"",
        ),
        (
            "input = \"d.txt\"\nn = 9\nbase = 2\n",
            "bad.toml:6:8: --base '2'",
        ),
        (
            "input = \"d.txt\"\nn = 2\nweights = [1, 2]\n",
            "weights go with kind = \"pick\"",
        ),
        (
            "sampler = \"floyd:k=3\"\nkind = \"pick\"\n",
            "describe a sampler from outside",
        ),
        (
            "input = \"d.txt\"\nn = 9\njobs = 2\n",
            "jobs and cmd_timeout go with cmd",
        ),
    ] {
        let got = error(&format!("{head}{body}"));
        assert!(got.contains(want), "{body:?}: {got}");
    }
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
    let runs = exp.runs(1.0, None).unwrap();
    assert_eq!(runs[0].spec.n, 104);
    assert_eq!(runs[0].spec.deck.as_ref().unwrap().hand, 7);
    assert_eq!(
        runs[0].spec.tests.to_string(),
        "position-kind,position-category,hand,serial"
    );
    assert!(runs[1].note.as_deref().unwrap().contains("Skipped:"));
    let with = |extra: &str| text.replace("hand = 7", extra);
    let e = error(&with("hand = 104"));
    assert!(e.contains("--hand 104"), "{e}");
    let e = error(&with("n = 52"));
    assert!(e.contains("the deck has 104 items"), "{e}");
    let e = error(&with("categories = \"nope.csv\""));
    assert!(e.contains("nope.csv"), "{e}");
    let e = error(&text.replace("algorithm = \"fisher-yates\"", "input = \"x.txt\""));
    assert!(e.contains("built-in algorithms"), "{e}");
}

#[test]
fn the_data_loaders_experiment_parses_and_its_loader_curve_takes_sizes() {
    use crate::mixing::buffer::{Loader, default_sizes};
    let text = include_str!("../../experiments/data-loaders.toml");
    let exp = parse(text).unwrap();
    assert_eq!(exp.audits.len(), 14);
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
