//! The content of a report, independent of its format: what to say, in what
//! order. `crate::study::report` builds it; the HTML and Markdown renderers only
//! decide how it looks, so the two files always say the same thing.

use crate::stats::Verdict;

/// A whole report.
#[derive(Debug, Clone, PartialEq)]
pub struct Document {
    /// The title.
    pub title: String,
    /// Paragraphs under the title (the study's purpose).
    pub lead: Vec<String>,
    /// Facts about the run shown under the lead (`label: value`).
    pub facts: Vec<(String, String)>,
    /// The sections, in order.
    pub sections: Vec<Section>,
}

/// A titled section; its id is its anchor.
#[derive(Debug, Clone, PartialEq)]
pub struct Section {
    /// Anchor id, unique in the document (letters, digits, `-`, `_`).
    pub id: String,
    /// Heading text.
    pub title: String,
    /// Content before any subsections.
    pub blocks: Vec<Block>,
    /// Subsections, one heading level down.
    pub subsections: Vec<Section>,
}

impl Section {
    /// A section with content and no subsections.
    pub fn new(id: impl Into<String>, title: impl Into<String>, blocks: Vec<Block>) -> Self {
        Self {
            id: id.into(),
            title: title.into(),
            blocks,
            subsections: Vec::new(),
        }
    }
}

/// One piece of content.
#[derive(Debug, Clone, PartialEq)]
pub enum Block {
    /// A paragraph of plain text.
    Paragraph(String),
    /// A paragraph set apart as a remark (a note, a caveat).
    Note(String),
    /// A bulleted list of plain-text items.
    List(Vec<String>),
    /// A list of `term: value` pairs (the value may be a verdict or a link).
    Definitions(Vec<(String, Cell)>),
    /// Preformatted text (formulas, command lines).
    Code(String),
    /// A picture.
    Image(Image),
    /// A table.
    Table(Table),
}

/// How large a picture is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageSize {
    /// As wide as the page allows (the comparison grid).
    Wide,
    /// A single heatmap: a moderate, fixed width.
    Panel,
}

/// A PNG in the report folder.
#[derive(Debug, Clone, PartialEq)]
pub struct Image {
    /// Path relative to the report folder, with `/` separators.
    pub path: String,
    /// Alternative text saying what the picture shows.
    pub alt: String,
    /// A caption shown under it, if any.
    pub caption: Option<String>,
    /// Display size.
    pub size: ImageSize,
}

/// A table with a header row.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// Anchor id of the table, if it needs one.
    pub id: Option<String>,
    /// The columns.
    pub columns: Vec<Column>,
    /// The rows; each has one cell per column.
    pub rows: Vec<Vec<Cell>>,
    /// How it is laid out: most tables run across the page; long lists of
    /// short rows are set densely where space is short (on paper).
    pub layout: TableLayout,
}

/// How a table is set, beyond its columns: a hint for renderers with pages
/// (HTML printed to paper), ignored where there are none (Markdown).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TableLayout {
    /// Across the page, one row under the other.
    #[default]
    Full,
    /// A long list of short rows of a few narrow columns (the per-line
    /// appendix, hundreds of rows at 40% of the page width): set in several
    /// columns side by side on paper, so that it takes a fraction of the
    /// pages.
    Dense,
}

/// How a column's cells are laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColumnKind {
    /// Short text, kept on one line.
    Text,
    /// Numbers: right-aligned, on one line.
    Number,
    /// Sentences: wrapped.
    Prose,
}

/// A column header.
#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    /// Header text.
    pub title: String,
    /// Layout of its cells.
    pub kind: ColumnKind,
    /// Whether narrow screens may leave it out (what it says is repeated
    /// elsewhere in the report).
    pub secondary: bool,
}

impl Column {
    /// A column of `kind` that narrow screens keep.
    fn of(title: &str, kind: ColumnKind) -> Self {
        let title = title.to_string();
        Self {
            title,
            kind,
            secondary: false,
        }
    }

    /// A left-aligned column of short text.
    pub fn text(title: &str) -> Self {
        Self::of(title, ColumnKind::Text)
    }

    /// A right-aligned number column.
    pub fn number(title: &str) -> Self {
        Self::of(title, ColumnKind::Number)
    }

    /// A column of sentences that may wrap.
    pub fn prose(title: &str) -> Self {
        Self::of(title, ColumnKind::Prose)
    }

    /// The same column, marked as one narrow screens may leave out.
    pub fn secondary(mut self) -> Self {
        self.secondary = true;
        self
    }
}

/// A table cell.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    /// Plain text.
    Text(String),
    /// Text linking to the section with this id.
    Link {
        /// What is shown.
        text: String,
        /// Target section id.
        target: String,
    },
    /// A verdict, shown with its word and a colour (never colour alone).
    Verdict(Verdict),
    /// Text that deserves attention (an unexpected outcome), marked with ⚠.
    Flag(String),
    /// Nothing known: shown as an em dash.
    Missing,
    /// Several cells shown together in one (e.g. a verdict and a warning).
    Stack(Vec<Cell>),
}

impl Cell {
    /// A plain text cell.
    pub fn text(text: impl Into<String>) -> Self {
        Cell::Text(text.into())
    }
}
