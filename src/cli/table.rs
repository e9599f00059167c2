//! Plain-text tables with aligned columns, fitted to the width of the
//! terminal they are printed on, and word wrapping for the prose around them.

use std::sync::OnceLock;

/// The width tables and notes are fitted to when stdout is not a terminal
/// (a pipe, a file): readable in a pasted log and in most terminals.
pub const DEFAULT_WIDTH: usize = 100;

/// The narrowest width fitted to, however narrow the terminal says it is.
const MIN_WIDTH: usize = 40;

/// The width every table and note is fitted to: the terminal's when stdout
/// is one (from the `TIOCGWINSZ` ioctl, else `COLUMNS`), at least
/// [`MIN_WIDTH`]; [`DEFAULT_WIDTH`] otherwise. Read once per run.
pub fn table_width() -> usize {
    static WIDTH: OnceLock<usize> = OnceLock::new();
    *WIDTH.get_or_init(|| fitted_width(terminal_columns()))
}

/// The width for a terminal of `columns` (`None`: not a terminal).
fn fitted_width(columns: Option<usize>) -> usize {
    columns.map_or(DEFAULT_WIDTH, |c| c.max(MIN_WIDTH))
}

/// The columns of the terminal stdout is, if it is one.
fn terminal_columns() -> Option<usize> {
    // SAFETY: isatty and ioctl(TIOCGWINSZ) only read the descriptor's state
    // and write into the winsize they are given.
    let size = unsafe {
        if libc::isatty(libc::STDOUT_FILENO) != 1 {
            return None;
        }
        let mut size: libc::winsize = std::mem::zeroed();
        (libc::ioctl(libc::STDOUT_FILENO, libc::TIOCGWINSZ, &mut size) == 0).then_some(size)
    };
    match size.filter(|s| s.ws_col > 0) {
        Some(size) => Some(usize::from(size.ws_col)),
        None => std::env::var("COLUMNS").ok()?.trim().parse().ok(),
    }
}

/// Narrowest a shortened column gets.
const MIN_SHRUNK: usize = 12;

/// How far long text is shortened before any column is left out.
const SOFT_SHRUNK: usize = 20;

/// A table: a header row and data rows, printed with columns padded to fit.
pub struct Table {
    rows: Vec<Vec<String>>,
    right_aligned: Vec<bool>,
    /// Columns that may be left out when the table is too wide, first to go
    /// first.
    droppable: Vec<usize>,
    /// Columns whose text may be shortened (with "…"), first shortened first.
    shrinkable: Vec<usize>,
    /// Shrinkable columns whose cells are lists (`a, b, c`): shortened by
    /// leaving out their last items (`a, b +1 more`) instead of with "…",
    /// with what their items are (`tests`).
    lists: Vec<(usize, &'static str)>,
}

/// A table fitted to a width: its text and the columns left out.
pub struct Fitted {
    /// The width it was fitted to.
    pub width: usize,
    /// The table as text.
    pub text: String,
    /// Headers of the columns left out to fit.
    pub dropped: Vec<String>,
    /// Whether some cell was shortened.
    pub shortened: bool,
}

impl Table {
    /// A table with these column headers; `right` marks numeric columns.
    pub fn new(header: &[(&str, bool)]) -> Self {
        Self {
            rows: vec![header.iter().map(|(h, _)| h.to_string()).collect()],
            right_aligned: header.iter().map(|&(_, r)| r).collect(),
            droppable: Vec::new(),
            shrinkable: Vec::new(),
            lists: Vec::new(),
        }
    }

    /// Marks the columns (by header) that [`fit`](Self::fit) may leave out,
    /// in the order it leaves them out.
    pub fn droppable(mut self, headers: &[&str]) -> Self {
        self.droppable = self.indices(headers);
        self
    }

    /// Marks the columns (by header) whose text [`fit`](Self::fit) may
    /// shorten, in the order it shortens them.
    pub fn shrinkable(mut self, headers: &[&str]) -> Self {
        self.shrinkable = self.indices(headers);
        self
    }

    /// Marks the columns (by header) whose cells are lists, `, `-separated
    /// and most important first: [`fit`](Self::fit) shortens them by
    /// leaving out their last items and saying how many (`a, b +3 more`;
    /// `5 tests` when even one does not fit, with `noun` saying what the
    /// items are). Only columns also marked
    /// [`shrinkable`](Self::shrinkable) are shortened.
    pub fn lists(mut self, headers: &[&str], noun: &'static str) -> Self {
        self.lists = self
            .indices(headers)
            .into_iter()
            .map(|c| (c, noun))
            .collect();
        self
    }

    /// Cell `text` of column `c` in at most `width` characters.
    fn shorten_cell(&self, c: usize, text: &str, width: usize) -> String {
        match self.lists.iter().find(|&&(list, _)| list == c) {
            Some(&(_, noun)) => shorten_list(text, width, noun),
            None => shorten(text, width),
        }
    }

    fn indices(&self, headers: &[&str]) -> Vec<usize> {
        headers
            .iter()
            .filter_map(|h| self.rows[0].iter().position(|c| c == h))
            .collect()
    }

    /// Appends a row.
    pub fn push(&mut self, row: Vec<String>) {
        self.rows.push(row);
    }

    /// The table as text, with a rule under the header, at its natural width.
    pub fn render(&self) -> String {
        self.fit(usize::MAX).text
    }

    /// Narrows the shrinkable columns, in order, until the table fits
    /// `width` or each is down to `floor` (or its header).
    fn shrink(&self, widths: &mut [usize], shown: &[bool], width: usize, floor: usize) {
        for &c in &self.shrinkable {
            let excess = total_width(widths, shown).saturating_sub(width);
            if excess == 0 {
                break;
            }
            let floor = self
                .readable(c)
                .map_or(floor, |readable| readable.min(floor))
                .max(self.rows[0][c].chars().count())
                .min(widths[c]);
            widths[c] = widths[c].saturating_sub(excess).max(floor);
        }
    }

    /// For a list column, the width at which every cell still names its
    /// first item (`a +2`): it may be narrowed that far before any column
    /// is left out, however short the readable width of other text.
    fn readable(&self, c: usize) -> Option<usize> {
        self.lists.iter().any(|&(list, _)| list == c).then(|| {
            self.rows[1..]
                .iter()
                .map(|r| {
                    let items: Vec<&str> = r[c].split(", ").collect();
                    let tail = match items.len() {
                        1 => String::new(),
                        more => format!(" +{}", more - 1),
                    };
                    items[0].chars().count() + tail.chars().count()
                })
                .max()
                .unwrap_or(0)
        })
    }

    /// The table in at most `width` characters a line where it can be: first
    /// droppable columns are left out, then shrinkable text is shortened.
    pub fn fit(&self, width: usize) -> Fitted {
        let columns = self.right_aligned.len();
        let natural = |c: usize| {
            self.rows
                .iter()
                .map(|r| r[c].chars().count())
                .max()
                .unwrap_or(0)
        };
        let mut widths: Vec<usize> = (0..columns).map(natural).collect();
        let mut shown = vec![true; columns];
        let total = |widths: &[usize], shown: &[bool]| total_width(widths, shown);
        // Shorten long text to a readable width before leaving any column
        // out, then leave columns out, then shorten further.
        self.shrink(&mut widths, &shown, width, SOFT_SHRUNK);
        let mut dropped = Vec::new();
        for &c in &self.droppable {
            if total(&widths, &shown) <= width {
                break;
            }
            shown[c] = false;
            dropped.push(self.rows[0][c].clone());
        }
        self.shrink(&mut widths, &shown, width, MIN_SHRUNK);
        for &c in &self.shrinkable {
            self.keep_distinct(c, &mut widths[c], natural(c));
        }
        let mut shortened = false;
        let mut text = String::new();
        for (i, row) in self.rows.iter().enumerate() {
            let cells: Vec<String> = (0..columns)
                .filter(|&c| shown[c])
                .map(|c| {
                    let w = widths[c];
                    let cell = self.shorten_cell(c, &row[c], w);
                    shortened |= cell != row[c];
                    if self.right_aligned[c] {
                        format!("{cell:>w$}")
                    } else {
                        format!("{cell:<w$}")
                    }
                })
                .collect();
            text.push_str(cells.join("  ").trim_end());
            text.push('\n');
            if i == 0 {
                let rule: Vec<String> = (0..columns)
                    .filter(|&c| shown[c])
                    .map(|c| "-".repeat(widths[c]))
                    .collect();
                text.push_str(&rule.join("  "));
                text.push('\n');
            }
        }
        Fitted {
            width,
            text,
            dropped,
            shortened,
        }
    }

    /// Widens column `c` from `width` (up to `natural`) until its shortened
    /// cells are as distinct as its full ones: two rows never show the same
    /// shortened name for different audits.
    fn keep_distinct(&self, c: usize, width: &mut usize, natural: usize) {
        let cells = || self.rows[1..].iter().map(|r| r[c].as_str());
        let distinct = |w: usize| {
            let full: std::collections::HashSet<&str> = cells().collect();
            let short: std::collections::HashSet<String> =
                cells().map(|cell| self.shorten_cell(c, cell, w)).collect();
            full.len() == short.len()
        };
        while *width < natural && !distinct(*width) {
            *width += 1;
        }
    }
}

/// `text` in at most `width` characters: whole if it fits, else with "…"
/// in place of its middle. The end is kept because it tells similar names
/// apart: a name's parameters (`:k=7`, `:sort=merge`) are kept whole when
/// they take at most two thirds of the width, else half the width is kept
/// from each end.
fn shorten(text: &str, width: usize) -> String {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() <= width {
        return text.to_string();
    }
    let keep = width.saturating_sub(1);
    let params = chars
        .iter()
        .position(|&ch| ch == ':')
        .map_or(0, |at| chars.len() - at);
    let tail = params.clamp(keep / 2, keep - keep / 3);
    let head: String = chars[..keep - tail].iter().collect();
    let end: String = chars[chars.len() - tail..].iter().collect();
    format!("{head}…{end}")
}

/// A list `text` (`a, b, c`, most important first) in at most `width`
/// characters: whole if it fits, else as many of its first items as fit
/// with how many are left out (`a, b +1 more`; `a +2` when tight); when
/// not even the first item fits, how many there are (`3 tests`, `noun`
/// saying what they are), else the text shortened with "…".
fn shorten_list(text: &str, width: usize, noun: &str) -> String {
    let len = |s: &str| s.chars().count();
    if len(text) <= width {
        return text.to_string();
    }
    let items: Vec<&str> = text.split(", ").collect();
    for kept in (1..items.len()).rev() {
        let head = items[..kept].join(", ");
        let tail = format!(" +{} more", items.len() - kept);
        if len(&head) + len(&tail) <= width {
            return format!("{head}{tail}");
        }
    }
    let tight = format!("{} +{}", items[0], items.len() - 1);
    if items.len() > 1 && len(&tight) <= width {
        return tight;
    }
    let count = format!("{} {noun}", items.len());
    if items.len() > 1 && len(&count) <= width {
        count
    } else {
        shorten(text, width)
    }
}

impl Fitted {
    /// What a note under the table must add when the table was fitted: the
    /// columns left out and where the full table is; empty when nothing
    /// was left out or shortened.
    pub fn note(&self) -> String {
        if self.dropped.is_empty() && !self.shortened {
            return String::new();
        }
        let left_out = if self.dropped.is_empty() {
            String::new()
        } else {
            format!("left out here: {}; ", self.dropped.join(", "))
        };
        format!(
            " To fit {} columns, {left_out}the full table is in the report (report.md) and \
             summary.csv.",
            self.width
        )
    }
}

/// The width of the shown columns with their separators.
fn total_width(widths: &[usize], shown: &[bool]) -> usize {
    let cells: Vec<usize> = (0..widths.len())
        .filter(|&c| shown[c])
        .map(|c| widths[c])
        .collect();
    cells.iter().sum::<usize>() + 2 * cells.len().saturating_sub(1)
}

/// `text` with its lines broken at spaces to at most `width` characters
/// (a word longer than that stays whole); existing line breaks and a
/// line's leading indent are kept (the indent repeats on continued lines).
pub fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let indent: String = line.chars().take_while(|c| *c == ' ').collect();
        let mut current = String::new();
        for word in line.split_whitespace() {
            let extra = if current.is_empty() { 0 } else { 1 };
            let len = |s: &str| s.chars().count();
            if !current.is_empty() && len(&indent) + len(&current) + extra + len(word) > width {
                out.push_str(&indent);
                out.push_str(&current);
                out.push('\n');
                current.clear();
            }
            if !current.is_empty() {
                current.push(' ');
            }
            current.push_str(word);
        }
        if !current.is_empty() {
            out.push_str(&indent);
            out.push_str(&current);
        }
    }
    out
}

/// `prefix` followed by `text` wrapped to `width`, continued lines indented
/// to where the text starts: a list entry whose description runs long.
pub fn hanging(prefix: &str, text: &str, width: usize) -> String {
    let indent = prefix.chars().count();
    let body = wrap(text, width.saturating_sub(indent).max(20));
    let pad = " ".repeat(indent);
    format!("{prefix}{}", body.replace('\n', &format!("\n{pad}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn widest(text: &str) -> usize {
        text.lines().map(|l| l.chars().count()).max().unwrap_or(0)
    }

    #[test]
    fn lists_are_shortened_by_their_last_items() {
        let seen = "position-value, lehmer-pairs, lehmer, cycles, fixed-points";
        assert_eq!(shorten_list(seen, 80, "tests"), seen);
        assert_eq!(
            shorten_list(seen, 40, "tests"),
            "position-value, lehmer-pairs +3 more"
        );
        assert_eq!(shorten_list(seen, 22, "tests"), "position-value +4 more");
        assert_eq!(shorten_list(seen, 18, "tests"), "position-value +4");
        assert_eq!(shorten_list(seen, 12, "tests"), "5 tests");
        assert_eq!(shorten_list("fixed-points", 12, "tests"), "fixed-points");
        // In a table: the list column shortens before the names do.
        let mut table = Table::new(&[("algorithm", false), ("seen by", false)])
            .shrinkable(&["seen by", "algorithm"])
            .lists(&["seen by"], "tests");
        table.push(vec!["naive-swap".into(), seen.into()]);
        let fitted = table.fit(48);
        assert!(fitted.shortened);
        assert!(
            fitted
                .text
                .contains("naive-swap  position-value, lehmer-pairs +3 more"),
            "{}",
            fitted.text
        );
    }

    #[test]
    fn wide_tables_drop_then_shorten_to_fit() {
        let mut table = Table::new(&[("name", false), ("detail", false), ("p", true)])
            .droppable(&["detail"])
            .shrinkable(&["name"]);
        table.push(vec!["a".repeat(60), "b".repeat(30), "0.5".into()]);
        let fitted = table.fit(100);
        assert!(fitted.dropped.is_empty() && !fitted.shortened);
        // First the long name is shortened to a readable width, ...
        let fitted = table.fit(90);
        assert!(fitted.dropped.is_empty() && fitted.shortened);
        // ... then a column is left out, ...
        let fitted = table.fit(50);
        assert_eq!(fitted.dropped, ["detail"]);
        // ... and then the text is shortened further.
        let fitted = table.fit(20);
        assert!(fitted.shortened);
        assert!(widest(&fitted.text) <= 20, "{}", fitted.text);
        assert!(fitted.text.contains('…'));
    }

    #[test]
    fn shortened_names_stay_distinct_and_keep_their_parameters() {
        assert_eq!(shorten("riffle:k=7", 20), "riffle:k=7");
        assert_eq!(
            shorten("sort-random-comparator", 20),
            "sort-rando…omparator"
        );
        assert_eq!(
            shorten("sort-random-comparator:sort=merge", 20),
            "sort-ran…:sort=merge"
        );
        assert_eq!(
            shorten("random-swap-with-a-long-name:k=7", 14),
            "random-…me:k=7"
        );
        let mut table = Table::new(&[("algorithm", false), ("p", true)]).shrinkable(&["algorithm"]);
        for name in ["sort-random-comparator-a", "sort-random-comparator-b"] {
            table.push(vec![name.into(), "0.5".into()]);
        }
        let fitted = table.fit(18);
        let names: Vec<&str> = fitted
            .text
            .lines()
            .skip(2)
            .map(|l| l.split("  ").next().unwrap())
            .collect();
        assert_eq!(names.len(), 2);
        assert_ne!(names[0], names[1], "{}", fitted.text);
        assert!(fitted.text.contains('…'), "{}", fitted.text);
    }

    #[test]
    fn the_width_is_the_terminal_s_or_100() {
        assert_eq!(fitted_width(None), 100);
        assert_eq!(fitted_width(Some(80)), 80);
        assert_eq!(fitted_width(Some(200)), 200);
        assert_eq!(fitted_width(Some(10)), MIN_WIDTH);
    }

    #[test]
    fn prose_wraps_at_spaces_and_keeps_indents() {
        let text = format!("  {}", "word ".repeat(40).trim_end());
        let wrapped = wrap(&text, 30);
        assert!(widest(&wrapped) <= 30, "{wrapped}");
        assert!(wrapped.lines().all(|l| l.starts_with("  word")));
        assert_eq!(wrap("a\nb", 10), "a\nb");
        assert_eq!(wrap(&"x".repeat(50), 10), "x".repeat(50));
        let entry = hanging("  name  ", &"word ".repeat(30), 40);
        assert!(widest(&entry) <= 40, "{entry}");
        assert!(entry.lines().skip(1).all(|l| l.starts_with("        word")));
    }
}
