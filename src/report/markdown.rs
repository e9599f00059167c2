//! The report as Markdown: the same content as the HTML page, with pictures
//! as relative links to the PNGs beside it.

use super::model::{Block, Cell, ColumnKind, Document, Section, Table};
use crate::stats::Verdict;
use std::fmt::Write;

/// Escapes text so that Markdown shows it literally: every character that
/// could start emphasis, a link, code, a table cell or raw HTML is
/// backslash-escaped.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(
            c,
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '#' | '&'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Renders `doc` as Markdown.
pub fn render(doc: &Document) -> String {
    let mut out = format!("# {}\n\n", escape(&doc.title));
    for paragraph in &doc.lead {
        let _ = writeln!(out, "{}\n", escape(paragraph));
    }
    for (label, value) in &doc.facts {
        let _ = writeln!(out, "- **{}:** {}", escape(label), escape(value));
    }
    if !doc.facts.is_empty() {
        out.push('\n');
    }
    for section in &doc.sections {
        render_section(&mut out, section, 2);
    }
    out
}

fn render_section(out: &mut String, section: &Section, level: usize) {
    let _ = writeln!(
        out,
        "<a id=\"{}\"></a>\n\n{} {}\n",
        section.id.replace('"', ""),
        "#".repeat(level.min(6)),
        escape(&section.title)
    );
    for block in &section.blocks {
        render_block(out, block);
        out.push('\n');
    }
    for sub in &section.subsections {
        render_section(out, sub, level + 1);
    }
}

fn render_block(out: &mut String, block: &Block) {
    match block {
        Block::Paragraph(text) => {
            let _ = writeln!(out, "{}", escape(text));
        }
        Block::Note(text) => {
            let _ = writeln!(out, "> {}", escape(text));
        }
        Block::List(items) => {
            for item in items {
                let _ = writeln!(out, "- {}", escape(item));
            }
        }
        Block::Definitions(pairs) => {
            for (term, text) in pairs {
                let _ = writeln!(out, "- **{}:** {}", escape(term), cell_markdown(text));
            }
        }
        Block::Code(text) => {
            let fence = if text.contains("```") { "~~~~" } else { "```" };
            let _ = writeln!(out, "{fence}text\n{text}\n{fence}");
        }
        Block::Image(img) => {
            let _ = writeln!(out, "![{}]({})", escape(&img.alt), link_target(&img.path));
            if let Some(caption) = &img.caption {
                let _ = writeln!(out, "\n*{}*", escape(caption));
            }
        }
        Block::Table(table) => render_table(out, table),
    }
}

/// A relative path usable as a link destination (spaces and parentheses
/// percent-encoded).
fn link_target(path: &str) -> String {
    path.replace(' ', "%20")
        .replace('(', "%28")
        .replace(')', "%29")
}

fn render_table(out: &mut String, table: &Table) {
    let header: Vec<String> = table.columns.iter().map(|c| escape(&c.title)).collect();
    let rule: Vec<&str> = table
        .columns
        .iter()
        .map(|c| match c.kind {
            ColumnKind::Number => "--:",
            ColumnKind::Text | ColumnKind::Prose => "---",
        })
        .collect();
    let _ = writeln!(out, "| {} |", header.join(" | "));
    let _ = writeln!(out, "| {} |", rule.join(" | "));
    for row in &table.rows {
        let cells: Vec<String> = row.iter().map(cell_markdown).collect();
        let _ = writeln!(out, "| {} |", cells.join(" | "));
    }
}

fn cell_markdown(cell: &Cell) -> String {
    match cell {
        Cell::Text(text) => escape(text),
        Cell::Link { text, target } => format!("[{}](#{})", escape(text), target),
        Cell::Verdict(Verdict::Biased) => "✗ **biased**".to_string(),
        Cell::Verdict(v) => format!("{} {}", v.symbol(), v.words()),
        Cell::Flag(text) => format!("⚠ {}", escape(text)),
        Cell::Missing => "—".to_string(),
        Cell::Stack(cells) => cells
            .iter()
            .map(cell_markdown)
            .collect::<Vec<_>>()
            .join(" "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::model::{Column, Image, ImageSize, TableLayout};

    #[test]
    fn escaping_keeps_text_literal() {
        assert_eq!(
            escape("<script>a_b*c|d</script> & [x](y)"),
            r"\<script\>a\_b\*c\|d\</script\> \& \[x\](y)"
        );
        assert_eq!(escape("1.29× as often"), "1.29× as often");
    }

    #[test]
    fn tables_and_images_render() {
        let doc = Document {
            title: "T".into(),
            lead: vec!["why".into()],
            facts: vec![],
            sections: vec![Section::new(
                "s",
                "S",
                vec![
                    Block::Table(Table {
                        id: Some("verdicts".into()),
                        layout: TableLayout::Full,
                        columns: vec![Column::text("a"), Column::number("n")],
                        rows: vec![vec![
                            Cell::Link {
                                text: "x|y".into(),
                                target: "audit-x".into(),
                            },
                            Cell::Verdict(Verdict::Biased),
                        ]],
                    }),
                    Block::Image(Image {
                        path: "random-swap_k-100/heatmap.png".into(),
                        alt: "map".into(),
                        caption: Some("cap".into()),
                        size: ImageSize::Panel,
                    }),
                ],
            )],
        };
        let md = render(&doc);
        assert!(
            md.contains("| a | n |\n| --- | --: |\n| [x\\|y](#audit-x) | ✗ **biased** |"),
            "{md}"
        );
        assert!(
            md.contains("![map](random-swap_k-100/heatmap.png)\n\n*cap*"),
            "{md}"
        );
        assert!(md.contains("<a id=\"s\"></a>\n\n## S"), "{md}");
    }
}
