//! What a run could have detected, for any kind of subject: the figure
//! behind "no bias detected", and for a run too small to tell, why and the
//! trials a verdict needs. Each kind computes it from its own tests
//! ([`super::Kind::sensitivity`]); every output states it from here.

use crate::format::thousands;
use serde::Serialize;
use serde_json::{Map, Value};

/// What a run could have detected, and whether that suffices for a
/// verdict.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Sensitivity {
    /// The power the figures are stated at (0.9).
    pub power: f64,
    /// The level each test is held to for the guarantee: α over the tests
    /// corrected for (the audit's tests × the audits of the run × the looks
    /// of a sequential audit).
    pub level: f64,
    /// The test the figure is stated for, if any could state one.
    pub test: Option<String>,
    /// The figure in a few words, for tables: `±6.6% in a cell`, `±4.1%
    /// per item`.
    pub short: String,
    /// The figure in one sentence, the same in every output.
    pub words: String,
    /// Why the run is too small for "no bias detected", if it is: what
    /// it lacks, without the advice ([`reason`](Self::reason) adds it).
    pub inconclusive: Option<String>,
    /// For a run too small for "no bias detected": the trials at which its
    /// tests would see the bias a verdict must be able to see, held to the
    /// level a run of that many is held to (a sequential run's budget adds
    /// looks, see `crate::audit::run_until_decisive`). Running that many
    /// gives a verdict. `None` where no number of trials would (the test
    /// has nothing to compare, whatever the trials).
    pub trials_needed: Option<u64>,
    /// What a trial is called in the advice (`trials`, `samples`, `picks`).
    #[serde(skip)]
    pub unit: &'static str,
    /// The kind's own figures (`detectable_cell_deviation`,
    /// `detectable_item_deviation`, ...), as `summary.json` records them.
    pub figures: Map<String, Value>,
}

impl Sensitivity {
    /// What a run could see with `power` by `test` held to `level`: the
    /// figure in a few words (`short`) and in a sentence (`words`); a run
    /// adequate for a verdict until [`too_small`](Self::too_small) says
    /// otherwise.
    pub fn new(
        power: f64,
        level: f64,
        test: Option<String>,
        short: impl Into<String>,
        words: impl Into<String>,
    ) -> Self {
        Sensitivity {
            power,
            level,
            test,
            short: short.into(),
            words: words.into(),
            inconclusive: None,
            trials_needed: None,
            unit: "trials",
            figures: Map::new(),
        }
    }

    /// The same run, too small for "no bias detected": `why` (what it
    /// lacks), and the trials (called `unit`) at which its tests would see
    /// the bias a verdict must be able to see, if any number would.
    pub fn too_small(
        self,
        why: impl Into<String>,
        trials_needed: Option<u64>,
        unit: &'static str,
    ) -> Self {
        Sensitivity {
            inconclusive: Some(why.into()),
            trials_needed,
            unit,
            ..self
        }
    }

    /// Why the run cannot tell, with the advice every output gives: the
    /// trials that would make it conclusive, or that no number would.
    /// `None` for a run adequate for a verdict.
    pub fn reason(&self) -> Option<String> {
        let why = self.inconclusive.as_deref()?;
        Some(match self.trials_needed {
            Some(t) => format!(
                "{why}; about {} {} would make it conclusive",
                thousands(t),
                self.unit
            ),
            None => format!("{why}; no number of {} would make it conclusive", self.unit),
        })
    }

    /// Whether the run could have seen a bias of the documented size, so
    /// that finding none may be called "no bias detected".
    pub fn adequate(&self) -> bool {
        self.inconclusive.is_none()
    }

    /// What the run could see and, where it cannot tell, why: the sentence
    /// the report gives an inconclusive audit.
    pub fn stated(&self, inconclusive: bool) -> String {
        match self.reason() {
            Some(why) if inconclusive => format!("{why}; {}", self.words),
            _ => self.words.clone(),
        }
    }
}
