//! Advice that holds (issue 38): an inconclusive audit says how many trials
//! a verdict needs, and running that many gives one, on seeds other than
//! the one that gave the advice; and a rare outcome that never happens is
//! caught from the trials its plan names.

mod common;

use common::run;

/// The first audit of `args` run with `--json`: its verdict and the
/// trials it says a verdict needs.
fn audit(args: &[&str]) -> (String, Option<u64>) {
    let mut all = vec!["audit", "--json", "-q"];
    all.extend_from_slice(args);
    let o = run(&all);
    assert!(o.status.success(), "{}", common::stderr(&o));
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let a = &json["audits"][0];
    (
        a["verdict"].as_str().unwrap().to_string(),
        a["trials_for_verdict"].as_u64(),
    )
}

/// Weighted picks of a rare item: the advice is a trial count at which
/// the picks test runs, and running it gives a verdict; before, weights
/// 1, 99 asked for 51,738 picks and then, at 51,738, for 51,739 (the test
/// waited for 139,020), and 1, 9 asked for 4,704 where the test ran from
/// 9,745.
#[test]
fn a_weighted_picks_advice_gives_a_verdict() {
    for (weights, few) in [("1,99", "2000"), ("1,9", "1000")] {
        let (verdict, needed) = audit(&["-a", "alias", "--weights", weights, "-t", few]);
        assert_eq!(verdict, "inconclusive", "{weights}");
        let needed = needed.unwrap().to_string();
        for seed in ["11", "12", "13"] {
            let (verdict, again) = audit(&[
                "-a",
                "alias",
                "--weights",
                weights,
                "-t",
                &needed,
                "--seed",
                seed,
            ]);
            assert_eq!(
                (verdict.as_str(), again),
                ("no-bias-detected", None),
                "{weights} at {needed}, seed {seed}"
            );
        }
    }
}

/// weighted-off-by-one never picks item 0 of weights 1, 99: 0 seen where
/// 100 are expected at 10,000 picks is certain (the exact binomial tail;
/// the test used to wait for 139,020 picks), and `power`'s plan catches it.
#[test]
fn a_rare_item_never_drawn_is_caught_at_its_plan() {
    let base = ["-a", "weighted-off-by-one", "--weights", "1,99"];
    let (verdict, _) = audit(&[&base[..], &["-t", "10000"]].concat());
    assert_eq!(verdict, "biased");
    let o = run(&[&["power"][..], &base[..], &["--json"]].concat());
    assert!(o.status.success(), "{}", common::stderr(&o));
    let plan: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let planned = plan["recommended_trials"].as_u64().expect("a plan");
    let t = planned.to_string();
    let caught = (1..=10)
        .filter(|s| {
            let seed = (500 + s).to_string();
            audit(&[&base[..], &["-t", &t, "--seed", &seed]].concat()).0 == "biased"
        })
        .count();
    assert!(caught >= 9, "{caught} of 10 at the plan's {planned}");
}

/// A shoe's hand test is made of parts (one per suit and rank); what it
/// could detect is its least sensitive part's, fixed in advance, so two
/// seeds at the same trials advise the same, and the advice holds.
#[test]
fn a_shoes_advice_does_not_move_with_the_seed_and_holds() {
    let shoe = ["-a", "fisher-yates", "--deck", "shoe:decks=2"];
    let advice: Vec<Option<u64>> = ["1", "2"]
        .iter()
        .map(|seed| audit(&[&shoe[..], &["-t", "1000", "--seed", seed]].concat()).1)
        .collect();
    assert_eq!(advice[0], advice[1]);
    let needed = advice[0].expect("inconclusive at 1,000").to_string();
    for seed in ["3", "4"] {
        let (verdict, again) = audit(&[&shoe[..], &["-t", &needed, "--seed", seed]].concat());
        assert_eq!(
            (verdict.as_str(), again),
            ("no-bias-detected", None),
            "seed {seed}"
        );
    }
}

/// Advice from a small first run holds where the tests' df grow with the
/// trials (sparse categories pooled at first, unpooled later): it is
/// computed at the df the tests reach with nothing pooled. Before, 100
/// shoes of two decks advised 3,856 (the hand test then had more
/// categories and needed 4,250), `--tests fixed-points` from 50 trials
/// advised 2,383 (2,922 needed), and `--deck AABBBC` from 10 shuffles
/// advised 2,843 (the adjacency table, unpooled, needed 3,053): every seed
/// was inconclusive again at the count advised.
#[test]
fn advice_from_a_small_run_holds_where_the_df_grow_with_the_trials() {
    for (args, few) in [
        (&["-a", "fisher-yates", "--deck", "shoe:decks=2"][..], "100"),
        (&["-a", "fisher-yates", "--tests", "fixed-points"][..], "50"),
        (
            &["-a", "fisher-yates", "--tests", "cycles,rising-sequences"][..],
            "50",
        ),
        (&["-a", "fisher-yates", "--deck", "AABBBC"][..], "10"),
        (
            &["-a", "fisher-yates", "--deck", "copies:kinds=4,each=3"][..],
            "2",
        ),
    ] {
        let (verdict, needed) = audit(&[args, &["-t", few]].concat());
        assert_eq!(verdict, "inconclusive", "{args:?}");
        let needed = needed.expect("advice").to_string();
        for seed in ["21", "22"] {
            let (verdict, again) = audit(&[args, &["-t", &needed, "--seed", seed]].concat());
            assert_eq!(
                (verdict.as_str(), again),
                ("no-bias-detected", None),
                "{args:?} at {needed}, seed {seed}"
            );
        }
    }
}
