//! The report as ONE self-contained HTML file: inline CSS, pictures embedded
//! as base64 data URIs, no scripts and nothing fetched from anywhere (a
//! content security policy forbids it), readable offline and printable.

use super::model::{
    Block, Cell, Column, ColumnKind, Document, Image, ImageSize, Section, Table, TableLayout,
};
use base64::Engine;
use std::fmt::Write;

/// Escapes text for HTML element content and quoted attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Renders `doc`; `image(path)` returns the bytes of a PNG in the report
/// folder, or `None` if it is missing (the page then says so in its place).
pub fn render(doc: &Document, image: &dyn Fn(&str) -> Option<Vec<u8>>) -> String {
    let mut out = String::new();
    let title = escape(&doc.title);
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; \
         img-src data:; style-src 'unsafe-inline'\">\n\
         <meta name=\"generator\" content=\"shuffle-audit\">\n\
         <link rel=\"icon\" href=\"data:,\">\n\
         <title>{title}</title>\n<style>{CSS}</style>\n</head>\n<body>\n<header>\n<h1>{title}</h1>\n"
    );
    for paragraph in &doc.lead {
        let _ = writeln!(out, "<p class=\"lead\">{}</p>", escape(paragraph));
    }
    if !doc.facts.is_empty() {
        out.push_str("<dl class=\"facts\">\n");
        for (label, value) in &doc.facts {
            let _ = writeln!(
                out,
                "<div><dt>{}</dt><dd>{}</dd></div>",
                escape(label),
                escape(value)
            );
        }
        out.push_str("</dl>\n");
    }
    out.push_str("</header>\n<nav aria-label=\"Contents\"><ol>\n");
    for section in &doc.sections {
        let _ = writeln!(
            out,
            "<li><a href=\"#{}\">{}</a></li>",
            escape(&section.id),
            escape(&section.title)
        );
    }
    out.push_str("</ol></nav>\n<main>\n");
    for section in &doc.sections {
        render_section(&mut out, section, 2, image);
    }
    out.push_str("</main>\n</body>\n</html>\n");
    out
}

fn render_section(
    out: &mut String,
    section: &Section,
    level: usize,
    image: &dyn Fn(&str) -> Option<Vec<u8>>,
) {
    let level = level.min(6);
    let _ = writeln!(
        out,
        "<section id=\"{}\" class=\"level{level}\">\n<h{level}>{}</h{level}>",
        escape(&section.id),
        escape(&section.title)
    );
    for block in &section.blocks {
        render_block(out, block, image);
    }
    for sub in &section.subsections {
        render_section(out, sub, level + 1, image);
    }
    out.push_str("</section>\n");
}

fn render_block(out: &mut String, block: &Block, image: &dyn Fn(&str) -> Option<Vec<u8>>) {
    match block {
        Block::Paragraph(text) => {
            let _ = writeln!(out, "<p>{}</p>", escape(text));
        }
        Block::Note(text) => {
            let _ = writeln!(out, "<p class=\"note\">{}</p>", escape(text));
        }
        Block::List(items) => {
            out.push_str("<ul>\n");
            for item in items {
                let _ = writeln!(out, "<li>{}</li>", escape(item));
            }
            out.push_str("</ul>\n");
        }
        Block::Definitions(pairs) => {
            out.push_str("<dl class=\"defs\">\n");
            for (term, text) in pairs {
                let _ = writeln!(out, "<dt>{}</dt><dd>{}</dd>", escape(term), cell_html(text));
            }
            out.push_str("</dl>\n");
        }
        Block::Code(text) => {
            let _ = writeln!(out, "<pre><code>{}</code></pre>", escape(text));
        }
        Block::Image(img) => render_image(out, img, image),
        Block::Table(table) => render_table(out, table),
    }
}

fn render_image(out: &mut String, img: &Image, image: &dyn Fn(&str) -> Option<Vec<u8>>) {
    let class = match img.size {
        ImageSize::Wide => "wide",
        ImageSize::Panel => "panel",
    };
    let _ = write!(out, "<figure class=\"{class}\">");
    match image(&img.path) {
        Some(bytes) => {
            let data = base64::engine::general_purpose::STANDARD.encode(bytes);
            let _ = write!(
                out,
                "<img src=\"data:image/png;base64,{data}\" alt=\"{}\">",
                escape(&img.alt)
            );
        }
        None => {
            let _ = write!(
                out,
                "<p class=\"missing\">(picture {} is missing)</p>",
                escape(&img.path)
            );
        }
    }
    if let Some(caption) = &img.caption {
        let _ = write!(out, "<figcaption>{}</figcaption>", escape(caption));
    }
    out.push_str("</figure>\n");
}

/// The fewest rows a [`TableLayout::Dense`] table needs to be set in several
/// columns on paper: a shorter one fits in one, and split over several it
/// would only repeat its header beside a row or two.
const COLUMNS_MIN_ROWS: usize = 20;

fn render_table(out: &mut String, table: &Table) {
    let id = table
        .id
        .as_ref()
        .map(|id| format!(" id=\"{}\"", escape(id)))
        .unwrap_or_default();
    let class = match table.layout {
        TableLayout::Full => "table-wrap",
        TableLayout::Dense if table.rows.len() < COLUMNS_MIN_ROWS => "table-wrap dense",
        TableLayout::Dense => "table-wrap dense columns",
    };
    let _ = write!(out, "<div class=\"{class}\"><table{id}>\n<thead><tr>");
    for column in &table.columns {
        let _ = write!(
            out,
            "<th scope=\"col\"{}>{}</th>",
            align(column),
            escape(&column.title)
        );
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for row in &table.rows {
        out.push_str("<tr>");
        for (cell, column) in row.iter().zip(&table.columns) {
            let _ = write!(out, "<td{}>{}</td>", align(column), cell_html(cell));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody>\n</table></div>\n");
    let hidden: Vec<&str> = table
        .columns
        .iter()
        .filter(|c| c.secondary)
        .map(|c| c.title.as_str())
        .collect();
    if !hidden.is_empty() {
        let _ = writeln!(
            out,
            "<p class=\"narrow-only screen-only\">On this narrow screen the table leaves out: {} (each \
             audit's section below has them).</p>",
            escape(&hidden.join(", "))
        );
    }
}

/// The class attribute of a column's cells: its layout, and whether narrow
/// screens leave it out.
fn align(column: &Column) -> String {
    let kind = match column.kind {
        ColumnKind::Text => "",
        ColumnKind::Number => "num",
        ColumnKind::Prose => "prose",
    };
    let secondary = if column.secondary { "secondary" } else { "" };
    let classes = [kind, secondary]
        .into_iter()
        .filter(|c| !c.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    if classes.is_empty() {
        String::new()
    } else {
        format!(" class=\"{classes}\"")
    }
}

fn cell_html(cell: &Cell) -> String {
    match cell {
        Cell::Text(text) => escape(text),
        Cell::Link { text, target } => {
            format!("<a href=\"#{}\">{}</a>", escape(target), escape(text))
        }
        Cell::Verdict(v) => format!(
            "<span class=\"verdict {}\"><span aria-hidden=\"true\">{} </span>{}</span>",
            v.slug(),
            v.symbol(),
            v.words()
        ),
        Cell::Flag(text) => format!(
            "<span class=\"flag\" title=\"not the verdict found\">⚠ {}</span>",
            escape(text)
        ),
        Cell::Missing => "<span class=\"missing\" title=\"not available\">—</span>".into(),
        Cell::Stack(cells) => cells.iter().map(cell_html).collect::<Vec<_>>().join("<br>"),
    }
}

const CSS: &str = r#"
:root { --ink: #1f2328; --muted: #59636e; --rule: #d1d9e0; --soft: #f6f8fa;
  --fair: #1a7f37; --fair-bg: #dafbe1; --biased: #b42318; --biased-bg: #fee4e2; --unsure: #7a4d00; --unsure-bg: #fff1c2;
  --flag: #9a6700; --flag-bg: #fff8c5; --link: #0b57d0; }
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0 auto; max-width: 1320px; padding: 2rem 1.5rem 4rem; color: var(--ink);
  font: 16px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
h1 { font-size: 2rem; margin: 0 0 .5rem; line-height: 1.2; }
h2 { font-size: 1.45rem; margin: 2.5rem 0 .75rem; padding-bottom: .3rem; border-bottom: 1px solid var(--rule); }
h3 { font-size: 1.15rem; margin: 2rem 0 .5rem; }
h4 { font-size: 1rem; margin: 1.25rem 0 .5rem; }
p { margin: .5rem 0 .9rem; }
.lead { font-size: 1.08rem; max-width: 60rem; }
a { color: var(--link); text-decoration: none; }
a:hover { text-decoration: underline; }
.facts { display: flex; flex-wrap: wrap; gap: .35rem 1.75rem; margin: 1rem 0 0; color: var(--muted); font-size: .92rem; }
.facts div { display: flex; gap: .4rem; }
.facts dt { font-weight: 600; }
.facts dt::after { content: ":"; }
.facts dd { margin: 0; }
nav { margin: 1.5rem 0 0; padding: .6rem 1rem; background: var(--soft); border-radius: 6px; font-size: .95rem; }
nav ol { margin: 0; padding: 0; list-style: none; display: flex; flex-wrap: wrap; gap: .25rem 1.5rem; }
.table-wrap { overflow-x: auto; margin: .75rem 0 1rem; }
table { border-collapse: collapse; font-size: .88rem; font-variant-numeric: tabular-nums; }
th, td { padding: .35rem .5rem; border-bottom: 1px solid var(--rule); text-align: left; vertical-align: top; white-space: nowrap; }
td.prose, th.prose { white-space: normal; min-width: 12rem; }
th { background: var(--soft); font-weight: 600; white-space: normal; vertical-align: bottom; border-bottom: 2px solid var(--rule); }
td.num, th.num { text-align: right; }
tbody tr:hover { background: #f3f6fa; }
.verdict { display: inline-block; padding: .05rem .5rem; border-radius: 999px; font-weight: 700; white-space: nowrap; }
.verdict.no-bias-detected { color: var(--fair); background: var(--fair-bg); }
.verdict.inconclusive { color: var(--unsure); background: var(--unsure-bg); }
.verdict.biased { color: var(--biased); background: var(--biased-bg); }
.flag { display: inline-block; margin-top: .2rem; color: var(--flag); background: var(--flag-bg); padding: .05rem .4rem; border-radius: 4px; font-weight: 600; font-size: .85em; white-space: nowrap; }
.missing { color: var(--muted); }
.note { padding: .55rem .9rem; border-left: 4px solid #d4a72c; background: var(--flag-bg); border-radius: 0 6px 6px 0; max-width: 60rem; }
ul { padding-left: 1.3rem; max-width: 60rem; }
li { margin: .2rem 0; }
pre { background: var(--soft); padding: .75rem 1rem; border-radius: 6px; overflow-x: auto; font-size: .9rem; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; }
figure { margin: 1rem 0; }
figure img { display: block; max-width: 100%; height: auto; border: 1px solid var(--rule); border-radius: 4px; }
figure.panel { float: right; width: 400px; margin: .25rem 0 1rem 1.5rem; }
figcaption { color: var(--muted); font-size: .85rem; margin-top: .3rem; }
section.level3 { display: flow-root; border-top: 1px solid var(--rule); }
section.level3 > h3 { margin-top: 1.25rem; }
.defs { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; margin: .5rem 0 1rem; }
.defs dt { font-weight: 600; }
.defs dd { margin: 0; }
@media (max-width: 1100px) {
  table { font-size: .8rem; }
  th, td { padding: .3rem .35rem; white-space: normal; }
  td.num { white-space: nowrap; }
  td.prose, th.prose { min-width: 8rem; max-width: 13rem; }
  .verdict { white-space: normal; }
}
.narrow-only { display: none; }
/* Narrow screens only: paper is as narrow as a phablet, but it has room
   for every column and no use for the note about what a screen leaves out. */
@media screen and (max-width: 900px) {
  .secondary { display: none; }
  .narrow-only { display: block; color: var(--muted); font-size: .85rem; }
}
@media screen and (max-width: 820px) {
  body { padding: 1rem; }
  figure.panel { float: none; width: 100%; max-width: 420px; margin: 1rem 0; }
  .defs { grid-template-columns: 1fr; }
  .defs dd { margin-bottom: .4rem; }
}
/* Paper: the verdict on page 1, nothing floated (a float beside the facts
   overprints them when a page break splits the two), no box taller than a
   page, and the line tables of the appendix in several columns. */
@media print {
  @page { margin: 14mm; }
  body { max-width: none; padding: 0; font-size: 10pt; line-height: 1.4; }
  nav, .screen-only { display: none; }
  a { color: inherit; }
  h2 { margin-top: 1.5rem; }
  h2, h3, h4 { break-after: avoid; }
  figure, .note, pre, tr, .defs dt, .defs dd { break-inside: avoid; }
  tbody tr:hover { background: none; }
  .table-wrap { overflow: visible; }
  table { font-size: 8pt; }
  td.prose, th.prose { max-width: none; }
  .verdict, .flag, .note, th, pre { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  figure img { max-width: 100%; width: auto; }
  figure.wide img { max-height: 200mm; }
  figure.panel { float: none; width: 55%; margin: .5rem 0 1rem; }
  section.level3 { display: block; }
  .defs { grid-template-columns: max-content minmax(0, 1fr); font-size: 9pt; }
  .defs dd { margin-bottom: 0; overflow-wrap: anywhere; }
  pre { white-space: pre-wrap; overflow-wrap: anywhere; }
  .dense table { font-size: 7pt; line-height: 1.25; }
  .columns { column-width: 8.5rem; column-gap: 1rem; column-rule: 1px solid var(--rule); }
  .columns table { width: 100%; }
  .dense th, .dense td { padding: .05rem .2rem; white-space: nowrap; }
  .dense th { white-space: normal; }
  .dense .flag { margin: 0; padding: 0 .2rem; font-size: inherit; }
}
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_neutralises_markup_and_quotes() {
        assert_eq!(
            escape(r#"<script>alert("x & 'y'")</script>"#),
            "&lt;script&gt;alert(&quot;x &amp; &#39;y&#39;&quot;)&lt;/script&gt;"
        );
        assert_eq!(
            escape("a &amp; b"),
            "a &amp;amp; b",
            "escaping is not idempotent by design"
        );
        assert_eq!(escape("plain — ✓"), "plain — ✓");
    }

    #[test]
    fn user_text_never_reaches_the_page_unescaped() {
        let doc = Document {
            title: "<script>alert(1)</script>".into(),
            lead: vec!["Fish & \"chips\" <b>".into()],
            facts: vec![("k".into(), "<i>".into())],
            sections: vec![Section::new(
                "s\"x",
                "<h2>",
                vec![
                    Block::Paragraph("<img src=x onerror=alert(1)>".into()),
                    Block::Image(Image {
                        path: "missing.png".into(),
                        alt: "\"><script>".into(),
                        caption: Some("<b>".into()),
                        size: ImageSize::Wide,
                    }),
                ],
            )],
        };
        let html = render(&doc, &|_| None);
        assert!(!html.contains("<script>"), "{html}");
        assert!(!html.contains("<img src=x"), "{html}");
        assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        assert!(html.contains("Fish &amp; &quot;chips&quot; &lt;b&gt;"));
        assert!(html.contains("id=\"s&quot;x\""));
        assert!(html.contains("(picture missing.png is missing)"));
    }

    #[test]
    fn images_are_embedded_and_nothing_is_fetched() {
        let doc = Document {
            title: "t".into(),
            lead: vec![],
            facts: vec![],
            sections: vec![Section::new(
                "s",
                "S",
                vec![Block::Image(Image {
                    path: "a.png".into(),
                    alt: "A".into(),
                    caption: None,
                    size: ImageSize::Panel,
                })],
            )],
        };
        let html = render(&doc, &|p| (p == "a.png").then(|| b"PNG!".to_vec()));
        assert!(
            html.contains("src=\"data:image/png;base64,UE5HIQ==\""),
            "{html}"
        );
        for external in [
            "http:",
            "https:",
            "<script",
            "<link rel=\"stylesheet\"",
            "@import",
        ] {
            assert!(!html.contains(external), "{external}");
        }
    }
}
