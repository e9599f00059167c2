//! Plain-text tables with aligned columns.

/// A table: a header row and data rows, printed with columns padded to fit.
pub struct Table {
    rows: Vec<Vec<String>>,
    right_aligned: Vec<bool>,
}

impl Table {
    /// A table with these column headers; `right` marks numeric columns.
    pub fn new(header: &[(&str, bool)]) -> Self {
        Self {
            rows: vec![header.iter().map(|(h, _)| h.to_string()).collect()],
            right_aligned: header.iter().map(|&(_, r)| r).collect(),
        }
    }

    /// Appends a row.
    pub fn push(&mut self, row: Vec<String>) {
        self.rows.push(row);
    }

    /// The table as text, with a rule under the header.
    pub fn render(&self) -> String {
        let widths: Vec<usize> = (0..self.right_aligned.len())
            .map(|c| {
                self.rows
                    .iter()
                    .map(|r| r[c].chars().count())
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let mut out = String::new();
        for (i, row) in self.rows.iter().enumerate() {
            let cells: Vec<String> = row
                .iter()
                .zip(&widths)
                .zip(&self.right_aligned)
                .map(|((cell, &w), &right)| {
                    if right {
                        format!("{cell:>w$}")
                    } else {
                        format!("{cell:<w$}")
                    }
                })
                .collect();
            out.push_str(cells.join("  ").trim_end());
            out.push('\n');
            if i == 0 {
                let rule: Vec<String> = widths.iter().map(|&w| "-".repeat(w)).collect();
                out.push_str(&rule.join("  "));
                out.push('\n');
            }
        }
        out
    }
}
