//! The acid test of issue 36: a kind of subject the library has never
//! heard of (a six-sided die, fair or loaded) is one `impl Kind` in this
//! file, and runs through a study beside a shuffle, through shards and
//! their merge, into `summary.json` and the report, without a line of the
//! study, output, shard or report modules knowing about dice.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use shuffle_audit::audit::{
    ChunkRange, Cost, FeedReport, Kind, Named, Planned, Produced, Progress, Recheck, Sensitivity,
    Spec, Subject, Tested,
};
use shuffle_audit::error::{Error, Result};
use shuffle_audit::ingest::{CommandSpec, Format};
use shuffle_audit::report::model::{Block, Section};
use shuffle_audit::report::{HeatmapPanel, LogScale, Provenance};
use shuffle_audit::shard::{Shard, TallyFile, merge, run};
use shuffle_audit::source::{ChaCha8Source, RandomSource, SourceSpec, StreamSource};
use shuffle_audit::stats::special::{chi2_isf, noncentral_chi2_sf};
use shuffle_audit::stats::{TestResult, Verdict, gof};
use shuffle_audit::study::{Study, Unobserved};
use shuffle_audit::{Audit, Shuffles};
use std::fmt;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

/// Dice: the third kind.
#[derive(Debug, Clone, PartialEq)]
struct Dice;

/// The built-in dice.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Die {
    /// Every face 1/6.
    Fair,
    /// A six that comes up 5% more often than a fair die's (1 in 20 rolls
    /// is forced to a six).
    Loaded,
}

impl fmt::Display for Die {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Die::Fair => "fair-die",
            Die::Loaded => "loaded-die",
        })
    }
}

/// The one test of a die: are the faces equally likely?
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
enum DieTest {
    Faces,
}

impl fmt::Display for DieTest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Named for DieTest {
    fn name(self) -> &'static str {
        "faces"
    }

    fn title(self) -> &'static str {
        "faces χ²"
    }

    fn description(self) -> &'static str {
        "Pearson's χ² of the face counts against 1/6 each"
    }
}

/// The counts of a run: rolls per face.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Faces {
    counts: Vec<u64>,
}

/// Rolls per chunk of a built-in run: the engine's, so that a die's run is
/// cut into shards with a shuffle's.
const CHUNK: u64 = shuffle_audit::audit::CHUNK_TRIALS;

/// The relative deviation of one face a verdict must be able to see.
const MUST_SEE: f64 = 0.2;

/// The noncentrality a χ²(5) test at `level` needs for 90% power.
fn lambda_for_power(level: f64) -> f64 {
    let critical = chi2_isf(level, 5.0);
    let (mut lo, mut hi) = (0.0, 1000.0);
    for _ in 0..100 {
        let mid = (lo + hi) / 2.0;
        if noncentral_chi2_sf(critical, 5.0, mid) < 0.9 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    hi
}

impl Kind for Dice {
    const NAME: &'static str = "die";
    type Builtin = Die;
    type Options = ();
    type Reading = ();
    type Read = ();
    type Tally = Faces;
    type Test = DieTest;
    type Found = ();
    type Findings = ();

    fn parse(name: &str) -> Result<Die> {
        match name {
            "fair-die" => Ok(Die::Fair),
            "loaded-die" => Ok(Die::Loaded),
            other => Err(Error::unknown_name(format!("unknown die '{other}'"))),
        }
    }

    fn slug(builtin: &Die) -> String {
        builtin.to_string()
    }

    fn expected(spec: &Spec<Self>) -> Option<Verdict> {
        match spec.subject.builtin()? {
            Die::Fair => Some(Verdict::NoBiasDetected),
            Die::Loaded => Some(Verdict::Biased),
        }
    }

    fn options(_n: usize) {}

    fn check(spec: &Spec<Self>) -> Result<()> {
        match spec.n {
            6 => Ok(()),
            n => Err(Error::out_of_range(format!("a die has 6 faces, not {n}"))),
        }
    }

    fn chunk_trials(_spec: &Spec<Self>) -> u64 {
        CHUNK
    }

    fn default_trials(_spec: &Spec<Self>, alpha: f64) -> u64 {
        // Enough to see one face off by MUST_SEE: λ = T · ε² / 5.
        (lambda_for_power(alpha) * 5.0 / (MUST_SEE * MUST_SEE)).ceil() as u64
    }

    fn work(_spec: &Spec<Self>) -> usize {
        1
    }

    fn cost(_spec: &Spec<Self>) -> Cost {
        Cost::default()
    }

    fn empty(spec: &Spec<Self>) -> Result<Faces> {
        Ok(Faces {
            counts: vec![0; spec.n],
        })
    }

    fn count(spec: &Spec<Self>, chunks: ChunkRange, progress: Progress<'_>) -> Result<Faces> {
        let die = *spec
            .subject
            .builtin()
            .expect("only built-in dice are counted");
        let mut faces = Self::empty(spec)?;
        for chunk in chunks.first..chunks.end {
            let rolls = chunks.with(chunk, chunk + 1).trials(spec.trials);
            let mut rng = ChaCha8Source::for_stream(spec.seed, chunk);
            for _ in 0..rolls {
                let face = match die {
                    Die::Loaded if rng.below(20) == 0 => 5,
                    _ => rng.below(6) as usize,
                };
                faces.counts[face] += 1;
            }
            progress(rolls);
        }
        Ok(faces)
    }

    fn read_from(
        spec: &Spec<Self>,
        reader: &mut (dyn Read + Send),
        name: &str,
        _format: Format,
        _progress: Progress<'_>,
    ) -> Result<Produced<Self>> {
        let mut faces = Self::empty(spec)?;
        for (i, line) in BufReader::new(reader).lines().enumerate() {
            let line = line.map_err(|e| Error::bad_input(format!("{name}: {e}")))?;
            match line.trim().parse::<usize>() {
                Ok(face @ 1..=6) => faces.counts[face - 1] += 1,
                _ => {
                    return Err(Error::bad_input(format!(
                        "{name}:{}: '{line}' is not a face 1..6",
                        i + 1
                    )));
                }
            }
        }
        let rolls = faces.counts.iter().sum();
        Ok(Produced {
            tally: faces,
            feed: Some(FeedReport::new(rolls, false, None, ())),
        })
    }

    fn read_command(
        _spec: &Spec<Self>,
        _command: &CommandSpec,
        _progress: Progress<'_>,
    ) -> Result<Produced<Self>> {
        Err(Error::unsupported("dice are not rolled by programs here"))
    }

    fn merge(into: &mut Faces, other: &Faces) {
        for (a, b) in into.counts.iter_mut().zip(&other.counts) {
            *a += b;
        }
    }

    fn trials(tally: &Faces) -> u64 {
        tally.counts.iter().sum()
    }

    fn fits(spec: &Spec<Self>, tally: &Faces) -> bool {
        tally.counts.len() == spec.n
    }

    fn complete(
        spec: &Spec<Self>,
        tally: &Faces,
        _feed: Option<&FeedReport<Self>>,
    ) -> Result<Spec<Self>> {
        Ok(Spec {
            trials: Self::trials(tally),
            ..spec.clone()
        })
    }

    fn test(_spec: &Spec<Self>, tally: &Faces) -> Tested<Self> {
        let fit = gof::chi_square(&tally.counts, &[1.0 / 6.0; 6]);
        let method = fit.describe();
        Tested {
            results: vec![TestResult::new(
                DieTest::Faces,
                fit.statistic,
                fit.df,
                fit.log10_p,
                method,
            )],
            not_run: Vec::new(),
            found: (),
        }
    }

    fn sensitivity(audit: &Audit<Self>, alpha: f64, family: usize) -> Sensitivity {
        let level = alpha / family as f64;
        let lambda = lambda_for_power(level);
        let rolls = audit.trials().max(1) as f64;
        let seen = (5.0 * lambda / rolls).sqrt();
        let sensitivity = Sensitivity::new(
            0.9,
            level,
            Some("faces".to_string()),
            format!("±{:.1}% on a face", 100.0 * seen),
            format!(
                "with 90% power this run would have detected a face ±{:.1}% off its 1/6",
                100.0 * seen
            ),
        );
        if seen <= MUST_SEE {
            return sensitivity;
        }
        let needed = (lambda * 5.0 / (MUST_SEE * MUST_SEE)).ceil() as u64;
        sensitivity.too_small(
            format!(
                "could see only a face ±{:.0}% off, not ±{:.0}%",
                100.0 * seen,
                100.0 * MUST_SEE
            ),
            Some(needed),
            "rolls",
        )
    }

    fn find(_audit: &Audit<Self>, _audits_in_run: usize) {}

    fn unit(_spec: &Spec<Self>) -> &'static str {
        "rolls"
    }

    fn read_words(_read: &(), _n: usize) -> String {
        "faces 1..6".to_string()
    }

    fn drawn_words(audit: &Audit<Self>) -> String {
        format!(
            "{} rolls of a six-sided die, seed {}",
            audit.trials(),
            audit.spec().seed
        )
    }

    fn deviation_words(audit: &Audit<Self>) -> String {
        let counts = &audit.tally().counts;
        let expected = Self::trials(audit.tally()) as f64 / 6.0;
        let (face, ratio) = counts
            .iter()
            .enumerate()
            .map(|(f, &c)| (f + 1, c as f64 / expected.max(1e-9)))
            .max_by(|a, b| (a.1 - 1.0).abs().total_cmp(&(b.1 - 1.0).abs()))
            .expect("six faces");
        format!("face {face}: {ratio:.3}× expected")
    }

    fn table(audit: &Audit<Self>) -> Vec<Vec<u64>> {
        vec![audit.tally().counts.clone()]
    }

    fn record(audit: &Audit<Self>) -> Map<String, Value> {
        let mut fields = Map::new();
        fields.insert("faces".to_string(), json!(audit.tally().counts));
        fields
    }

    fn files(audit: &Audit<Self>) -> Result<Vec<(String, Vec<u8>)>> {
        let mut csv = String::from("face,count\n");
        for (face, count) in audit.tally().counts.iter().enumerate() {
            csv.push_str(&format!("{},{count}\n", face + 1));
        }
        Ok(vec![("faces.csv".to_string(), csv.into_bytes())])
    }

    fn section(audit: &Audit<Self>, folder: &str, anchor: &str, _note: Option<&str>) -> Section {
        Section::new(
            anchor,
            audit.spec().subject.to_string(),
            vec![
                Block::Paragraph(format!(
                    "{}: {}.",
                    audit.verdict(),
                    Self::deviation_words(audit)
                )),
                Block::Paragraph(format!("Counts: {folder}/faces.csv.")),
            ],
        )
    }

    fn method(_audit: &Audit<Self>) -> Vec<Section> {
        Vec::new()
    }

    fn panel(_audit: &Audit<Self>) -> Option<(HeatmapPanel, LogScale)> {
        None
    }

    fn recheck(audit: &Audit<Self>, recorded: &Value, _folder: &Path) -> Result<Recheck> {
        Ok(match recorded["faces"] == json!(audit.tally().counts) {
            true => Recheck::Same {
                counts: 6,
                what: "face counts",
            },
            false => Recheck::Different("the face counts differ".to_string()),
        })
    }

    fn recorded(spec: &Spec<Self>) -> Value {
        json!({
            "subject": spec.subject.to_string(),
            "n": spec.n,
            "trials": spec.trials,
            "seed": spec.seed,
        })
    }

    fn from_recorded(value: &Value, threads: Option<usize>) -> Result<Spec<Self>> {
        let die = Self::parse(value["subject"].as_str().unwrap_or_default())?;
        let number = |key: &str| {
            value[key]
                .as_u64()
                .ok_or_else(|| Error::bad_input(format!("a die's record has no {key}")))
        };
        let mut spec = Spec::new(
            Subject::Builtin(die),
            number("n")? as usize,
            number("trials")?,
            SourceSpec::default(),
            number("seed")?,
        );
        spec.threads = threads;
        Ok(spec)
    }
}

/// A die's audit of `trials` rolls with `seed`, planned.
fn die(die: Die, trials: u64, seed: u64) -> Box<dyn Planned> {
    Box::new(Spec::<Dice>::new(
        Subject::Builtin(die),
        6,
        trials,
        SourceSpec::default(),
        seed,
    ))
}

/// A study of a fair and a loaded die beside a fair shuffle.
fn study(seed: u64) -> Study {
    let shuffle = Spec::<Shuffles>::new(
        Shuffles::parse("fisher-yates").unwrap(),
        6,
        200_000,
        SourceSpec::default(),
        seed,
    );
    Study::new(vec![
        die(Die::Fair, 200_000, seed),
        die(Die::Loaded, 200_000, seed),
        Box::new(shuffle),
    ])
}

/// A fresh folder for this test's files.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("third-kind-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_die_is_judged_beside_a_shuffle_and_reported() {
    let result = study(7).run(&Unobserved).unwrap();
    let records = result.records();
    let verdicts: Vec<(&str, &str, Verdict)> = records
        .iter()
        .map(|r| (r.kind, r.subject.as_str(), r.verdict))
        .collect();
    assert_eq!(
        verdicts,
        [
            ("die", "fair-die", Verdict::NoBiasDetected),
            ("die", "loaded-die", Verdict::Biased),
            ("shuffle", "fisher-yates", Verdict::NoBiasDetected),
        ]
    );
    // The generic record carries the die's own fields and the sensitivity.
    assert_eq!(records[0].unit, "rolls");
    assert!(records[0].could_detect.ends_with("on a face"));
    assert!(records[1].largest_deviation.starts_with("face 6:"));
    let summary: Value = serde_json::from_str(&result.summary().to_json()).unwrap();
    assert_eq!(summary["audits"][1]["kind"], "die");
    assert_eq!(summary["audits"][1]["faces"].as_array().unwrap().len(), 6);
    assert_eq!(summary["audits"][1]["seen_by"][0], "faces");
    // The report and the files, written by the study's own writer.
    let dir = scratch("report");
    result.write(&dir).unwrap();
    let report = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(report.contains("loaded-die"), "{report}");
    assert!(report.contains("face 6:"), "{report}");
    let folder = &result.folders()[1];
    let csv = std::fs::read_to_string(dir.join(folder).join("faces.csv")).unwrap();
    assert!(csv.starts_with("face,count\n1,"), "{csv}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_die_too_small_to_tell_says_how_many_rolls_it_needs() {
    let result = Study::new(vec![die(Die::Fair, 300, 3)])
        .run(&Unobserved)
        .unwrap();
    let record = &result.records()[0];
    assert_eq!(record.verdict, Verdict::Inconclusive);
    let needed = record.trials_for_verdict.unwrap();
    assert!(needed > 300, "{needed}");
    // Running that many gives a verdict.
    let enough = Study::new(vec![die(Die::Fair, needed, 3)])
        .run(&Unobserved)
        .unwrap();
    assert_ne!(enough.records()[0].verdict, Verdict::Inconclusive);
}

#[test]
fn shards_of_a_study_with_dice_merge_to_the_run_on_one_machine() {
    shuffle_audit::shard::register::<Dice>();
    let dir = scratch("shards");
    let paths: Vec<_> = (0..3)
        .map(|index| {
            let shard = Shard { index, count: 3 };
            let mut file = TallyFile::of_study(&study(11), Some(shard), "test".into(), 2).unwrap();
            run::count(&mut file, None, &Unobserved).unwrap();
            let path = dir.join(format!("shard-{index}.tally"));
            file.save(&path).unwrap();
            path
        })
        .collect();
    let merged = merge::merge(&paths).unwrap();
    let provenance = Provenance {
        meta: Default::default(),
        tool: String::new(),
        git_commit: None,
        git_dirty: None,
        date: String::new(),
        command_line: "test".into(),
        reproduce: Vec::new(),
    };
    let from_shards = merged.judge(provenance).unwrap();
    let whole = study(11).run(&Unobserved).unwrap();
    let strip = |records: Vec<shuffle_audit::audit::Record>| -> Vec<Value> {
        records
            .into_iter()
            .map(|r| {
                let mut v = serde_json::to_value(r).unwrap();
                for volatile in ["seconds", "per_second", "threads"] {
                    v.as_object_mut().unwrap().remove(volatile);
                }
                v
            })
            .collect()
    };
    assert_eq!(strip(from_shards.records()), strip(whole.records()));
    let _ = std::fs::remove_dir_all(&dir);
}
