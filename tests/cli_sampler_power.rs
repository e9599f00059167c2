//! `shuffle-audit power -a SAMPLER`: plans from the exact law and from a
//! pilot, "no bias" for a fair sampler, power and the tests' own minimum
//! kept apart, JSON like the shuffle command's, and refusals of bad input.

mod common;

use common::{run, stderr, stdout};

/// stdout of a `power` run that must succeed.
fn power(args: &[&str]) -> String {
    let o = run(&[&["power"], args].concat());
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{args:?}: {out}{}", stderr(&o));
    out
}

fn json(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&power(&[args, &["--json"]].concat())).expect("JSON")
}

/// Asserts that `out` holds every one of `needles`.
fn has(out: &str, needles: &[&str]) {
    for needle in needles {
        assert!(out.contains(needle), "lacks '{needle}':\n{out}");
    }
}

#[test]
fn a_biased_sampler_is_planned_from_its_exact_law_at_the_audits_level() {
    let out = power(&["-a", "reservoir-off-by-one:k=3"]);
    has(
        &out,
        &[
            "reservoir-off-by-one:k=3 at N = 10 (k = 3), rng chacha8, inclusion test (df 9):",
            "computed from the exact law",
            "level: alpha 0.001 / (3 tests in the audit x 1 audit in the run) = 0.0003333 (Holm)",
            "at level 0.0003333: reject when",
            "trials needed for power: 339\n",
            "trials before the inclusion test runs (5 expected per cell, a statistic close to its \
         law): 17\n",
            "every test of the audit, at this level:",
            "subsets    814 trials for power (runs from 600 trials)",
            "pairs      no plan: no bias",
            "not run: order: reservoir-off-by-one is not an ordered sampler",
            "the audit has at least 90% power from 339 trials on (its inclusion test, in its range)",
        ],
    );
    // Among 4 audits of a run: alpha / (3 x 4), more trials.
    let out = power(&["-a", "reservoir-off-by-one:k=3", "--divide-alpha-by", "4"]);
    has(&out, &["x 4 audits in the run) = 0.00008333"]);
    let doc = json(&["-a", "reservoir-off-by-one:k=3"]);
    assert_eq!(doc["outcome"], "planned");
    assert_eq!(doc["test"], "inclusion");
    assert_eq!(doc["trials"], 339);
    assert_eq!(doc["approximation_trials"], 17);
    assert_eq!(doc["effect"]["origin"]["kind"], "exact");
    assert_eq!(doc["audit"]["tests_in_audit"], 3);
    assert_eq!(doc["audit"]["law"]["fair"], false);
    let tests: Vec<&str> = doc["audit"]["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["test"].as_str().unwrap())
        .collect();
    assert_eq!(tests, ["inclusion", "pairs", "subsets"]);
}

#[test]
fn fair_samplers_have_no_bias_and_weighted_picks_default_to_picks() {
    let out = power(&["-a", "floyd:k=3"]);
    has(
        &out,
        &[
            "no bias: the exact law is fair (every k-subset equally likely), so no trial count detects one",
        ],
    );
    assert!(!out.contains("trials needed for power"), "{out}");
    has(&out, &["no test of the audit gives a plan"]);
    let doc = json(&["-a", "alias", "--weights", "1,99"]);
    assert_eq!(doc["outcome"], "no-plan");
    assert_eq!(doc["test"], "picks");
    assert!(doc["reason"].as_str().unwrap().starts_with("no bias"));

    let out = power(&["-a", "weighted-off-by-one", "--weights", "3,5,7"]);
    has(
        &out,
        &[
            "picks test (df 2)",
            "trials needed for power: 751\n",
            "not run: inclusion, pairs, subsets, order: a weighted pick",
        ],
    );
    // A zero last weight: the off-by-one pick draws it 1 time in 8.
    let out = power(&["-a", "weighted-off-by-one", "--weights", "3,5,0"]);
    has(
        &out,
        &[
            "probability 1.2500e-1 per pick",
            "18 picks catch one with 90% probability",
            "power from 18 trials on (its first zero-weight pick)",
        ],
    );
}

#[test]
fn trials_for_power_and_before_the_test_runs_are_kept_apart() {
    // Systematic sampling is so biased that 8 trials would do, but the
    // pairs test needs 347 before it runs at all.
    let out = power(&["-a", "systematic:k=2", "--test", "pairs"]);
    has(
        &out,
        &[
            "trials needed for power: 8\n",
            "trials before the pairs test runs (5 expected per cell, a statistic close to its law): 347\n",
            "warning: the smallest cell expects 0.18 counts at T = 8",
            "inclusion  no plan: no bias",
            "from 225 trials on (its subsets test",
        ],
    );
    let doc = json(&["-a", "systematic:k=2", "--test", "pairs"]);
    assert_eq!(doc["trials"], 8);
    assert_eq!(doc["approximation_trials"], 347);
    assert_eq!(doc["recommended_trials"], 347);
}

#[test]
fn pilots_carry_their_uncertainty_or_are_refused() {
    // No exact law: reservoir-skip draws real uniforms. A fair sampler's
    // pilot cannot tell its effect from zero.
    let out = power(&[
        "-a",
        "reservoir-skip:k=3",
        "--pilot-trials",
        "100k",
        "--seed",
        "3",
    ]);
    has(
        &out,
        &[
            "estimated from a pilot of 100,000 trials",
            "not from the exact law: reservoir-skip:k=3 cannot be enumerated",
            "not distinguishable from zero at this pilot size",
            "what a fair sampler gives",
        ],
    );
    assert!(!out.contains("trials needed for power"), "{out}");
    // A board of 81 cells is beyond the exact laws; linear probing places
    // its mines in clusters, which the pairs test sees.
    let doc = json(&[
        "-a",
        "minesweeper:w=9,h=9,m=10,method=linear-probe",
        "--test",
        "pairs",
        "--pilot-trials",
        "200k",
    ]);
    assert_eq!(doc["n"], 81);
    assert_eq!(doc["outcome"], "planned");
    assert_eq!(doc["effect"]["origin"]["kind"], "pilot");
    let (low, high) = (
        doc["trials_range"]["low"].as_u64().unwrap(),
        doc["trials_range"]["high"].as_u64().unwrap(),
    );
    let t = doc["trials"].as_u64().unwrap();
    assert!(low <= t && t <= high, "{doc}");
    assert_eq!(doc["audit"]["law"]["kind"], "pilot");
    // Not an ideal source: the exact law (ideal draws) does not apply.
    let out = power(&[
        "-a",
        "bernoulli-trim:k=3",
        "--rng",
        "rand15-mod",
        "--pilot-trials",
        "50k",
    ]);
    has(&out, &["rand15-mod does not draw ideally"]);
}

#[test]
fn bad_input_is_refused_naming_the_bad_value() {
    for (args, needles) in [
        (
            &["-a", "floyd:k=3", "--test", "order"][..],
            &[
                "--test order",
                "not an ordered sampler",
                "it runs inclusion, pairs, subsets",
            ][..],
        ),
        (
            &["-a", "floyd:k=3", "--weights", "1,2"],
            &["--weights", "floyd:k=3 takes none"],
        ),
        (
            &["-a", "floyd:k=3", "--test", "position-value"],
            &[
                "'position-value' is a shuffle test",
                "inclusion, pairs, subsets, order, picks",
            ],
        ),
        (
            &["-a", "floyd:k=3", "--test", "bogus"],
            &["'bogus' is not a test"],
        ),
        (&["-a", "alias"], &["alias needs --weights"]),
        (
            &["-a", "alias", "--weights", "1,2", "-n", "3"],
            &["-n 3", "N = 2"],
        ),
        (&["-a", "alias", "--weights", "1,x"], &["weight 'x'"]),
        (
            &[
                "-a",
                "weighted-prefix",
                "--weights",
                "1,2",
                "--test",
                "inclusion",
            ],
            &["--test inclusion", "picks test alone"],
        ),
        (
            &["-a", "naive-swap", "--weights", "1,2"],
            &["--weights", "'naive-swap'"],
        ),
        (&["-a", "naive-swap", "--test", "pairs"], &["'pairs'"]),
        (&["-a", "floyd:k=3", "-n", "2"], &["k = 3", "n = 2"]),
        (&["-a", "flyod:k=3"], &["did you mean 'floyd'"]),
        (&["-a", "floyd:k=3", "--power", "2"], &["power = 2"]),
    ] {
        let o = run(&[&["power"], args].concat());
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(o.stdout.is_empty(), "{args:?}");
        for needle in needles {
            assert!(err.contains(needle), "{args:?}: '{needle}' not in {err}");
        }
    }
}

#[test]
fn help_explains_sampler_plans() {
    let help = power(&["--help"]);
    for needle in [
        "Samplers",
        "--weights",
        "inclusion (the default",
        "picks (the default and only test of a weighted pick",
        "alpha/(m*K)",
        "no trial count detects one",
        "trials before the test runs",
    ] {
        assert!(help.contains(needle), "help lacks '{needle}'");
    }
}
