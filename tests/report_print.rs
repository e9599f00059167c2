//! The report on paper: a 6-deck shoe audit printed by headless Chromium
//! fits in 20 pages, has its verdict on page 1, leaves out the notes meant
//! for narrow screens, and no two words of a page overprint each other or
//! run off it (read back with poppler's `pdftotext -bbox-layout`).
//!
//! Needs Chromium (`chromium`, `chromium-browser` or `google-chrome`) and
//! `pdftotext` on PATH (Debian: `apt-get install chromium poppler-utils`);
//! without them the rendering test prints one "skipped" line and passes.
//! The checks of the PDF reading itself run everywhere.

mod common;

use common::{TempDir, bin, stderr, stdout};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The most pages the printed report of one shoe audit may take.
const MAX_PAGES: usize = 20;
/// How long Chromium may take to print the report.
const PRINT_TIMEOUT: Duration = Duration::from_secs(180);
/// Boxes overlapping by less than this (points, both ways) are touching,
/// not overprinted: neighbouring words and lines share their edges.
const TOLERANCE: f64 = 0.5;

/// A word as `pdftotext -bbox-layout` places it, in points from the top left.
#[derive(Debug, Clone, PartialEq)]
struct Word {
    text: String,
    x_min: f64,
    y_min: f64,
    x_max: f64,
    y_max: f64,
}

/// A page: its size in points and its words.
#[derive(Debug, Clone, PartialEq)]
struct Page {
    width: f64,
    height: f64,
    words: Vec<Word>,
}

impl Page {
    /// The page's words, space-separated, for looking for a phrase.
    fn text(&self) -> String {
        let words: Vec<&str> = self.words.iter().map(|w| w.text.as_str()).collect();
        words.join(" ")
    }
}

/// The first program of `names` found on PATH.
fn on_path(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|dir| names.iter().map(move |name| dir.join(name)))
        .find(|candidate| candidate.is_file())
}

/// The number in attribute `name` of `tag`, the attributes of a tag
/// (`xMin="39.7" yMin="57.6" ...`).
fn attribute(tag: &str, name: &str) -> Option<f64> {
    let tag = format!(" {tag}");
    let start = tag.find(&format!(" {name}=\""))? + name.len() + 3;
    let len = tag[start..].find('"')?;
    tag[start..start + len].parse().ok()
}

/// Undoes the XML escapes `pdftotext` writes in word text.
fn unescape(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

/// The pages of `pdftotext -bbox-layout` output.
fn parse_pages(xhtml: &str) -> Vec<Page> {
    xhtml
        .split("<page ")
        .skip(1)
        .map(|page| {
            let words = page
                .split("<word ")
                .skip(1)
                .filter_map(|word| {
                    let (tag, rest) = word.split_once('>')?;
                    let (text, _) = rest.split_once("</word>")?;
                    Some(Word {
                        text: unescape(text),
                        x_min: attribute(tag, "xMin")?,
                        y_min: attribute(tag, "yMin")?,
                        x_max: attribute(tag, "xMax")?,
                        y_max: attribute(tag, "yMax")?,
                    })
                })
                .collect();
            let head = page.split_once('>').map_or("", |(tag, _)| tag);
            Page {
                width: attribute(head, "width").unwrap_or(0.0),
                height: attribute(head, "height").unwrap_or(0.0),
                words,
            }
        })
        .collect()
}

/// Whether two words share more than an edge.
fn overlap(a: &Word, b: &Word) -> bool {
    let width = a.x_max.min(b.x_max) - a.x_min.max(b.x_min);
    let height = a.y_max.min(b.y_max) - a.y_min.max(b.y_min);
    width > TOLERANCE && height > TOLERANCE
}

/// The pairs of words of `page` that overprint each other (a sweep down
/// the page: only words whose heights meet are compared).
fn overlapping_pairs(page: &Page) -> Vec<(&Word, &Word)> {
    let mut words: Vec<&Word> = page.words.iter().collect();
    words.sort_by(|a, b| a.y_min.total_cmp(&b.y_min));
    let mut pairs = Vec::new();
    for (i, a) in words.iter().enumerate() {
        for b in words[i + 1..]
            .iter()
            .take_while(|b| b.y_min < a.y_max - TOLERANCE)
        {
            if overlap(a, b) {
                pairs.push((*a, *b));
            }
        }
    }
    pairs
}

/// The words of `page` that run past its edges.
fn words_off_the_page(page: &Page) -> Vec<&Word> {
    page.words
        .iter()
        .filter(|w| {
            w.x_min < -TOLERANCE
                || w.y_min < -TOLERANCE
                || w.x_max > page.width + TOLERANCE
                || w.y_max > page.height + TOLERANCE
        })
        .collect()
}

/// `count` decks of a 6-deck shoe (card labels like `AS`, `TD`), each a
/// Fisher-Yates shuffle of the one before by a seeded SplitMix64: the same
/// file on every machine.
fn shoe_decks(count: usize, seed: u64) -> String {
    let mut state = seed;
    let mut next = move || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let ranks = [
        "A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K",
    ];
    let mut deck: Vec<String> = (0..6)
        .flat_map(|_| "SHDC".chars())
        .flat_map(|suit| ranks.iter().map(move |rank| format!("{rank}{suit}")))
        .collect();
    let mut text = String::new();
    for _ in 0..count {
        for i in (1..deck.len()).rev() {
            let j = (next() % (i as u64 + 1)) as usize;
            deck.swap(i, j);
        }
        text += &deck.join(" ");
        text.push('\n');
    }
    text
}

/// Prints `html` to a PDF at `pdf` with `browser`, its profile in `profile`.
fn print_to_pdf(browser: &Path, html: &Path, pdf: &Path, profile: &Path) {
    let mut child = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--no-pdf-header-footer",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("--print-to-pdf={}", pdf.display()))
        .arg(format!("file://{}", html.display()))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > PRINT_TIMEOUT {
            let _ = child.kill();
            panic!("{} took over {PRINT_TIMEOUT:?} to print", browser.display());
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(pdf.is_file(), "{} wrote no PDF", browser.display());
}

/// The pages of `pdf` as `pdftotext` reads them.
fn read_pdf(pdftotext: &Path, pdf: &Path) -> Vec<Page> {
    let out = Command::new(pdftotext)
        .arg("-bbox-layout")
        .arg(pdf)
        .arg("-")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    parse_pages(&stdout(&out))
}

#[test]
fn a_shoe_audit_prints_in_few_pages_with_nothing_overprinted() {
    let browser = on_path(&["chromium", "chromium-browser", "google-chrome"]);
    let pdftotext = on_path(&["pdftotext"]);
    let (Some(browser), Some(pdftotext)) = (browser, pdftotext) else {
        println!("skipped: the print test needs chromium and pdftotext (poppler-utils) on PATH");
        return;
    };
    let dir = TempDir::scratch("shoe");
    let decks = dir.path("shoe.txt");
    fs::write(&decks, shoe_decks(2_000, 21)).unwrap();
    let report = dir.path("report");
    let out = bin()
        .args(["audit", "--input"])
        .arg(&decks)
        .args(["--categories", "cards", "-q", "--out"])
        .arg(&report)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let pdf = dir.path("report.pdf");
    print_to_pdf(
        &browser,
        &report.join("report.html"),
        &pdf,
        &dir.path("profile"),
    );
    let pages = read_pdf(&pdftotext, &pdf);

    assert!(
        (2..=MAX_PAGES).contains(&pages.len()),
        "{} pages",
        pages.len()
    );
    let first = pages[0].text();
    for phrase in ["Verdicts", "verdict", "seen by", "inconclusive"] {
        assert!(first.contains(phrase), "page 1 lacks {phrase:?}: {first}");
    }
    for (number, page) in pages.iter().enumerate().map(|(i, p)| (i + 1, p)) {
        assert!(
            !page.text().contains("narrow screen"),
            "page {number} has the narrow-screen note"
        );
        let pairs = overlapping_pairs(page);
        assert!(pairs.is_empty(), "page {number} overprints: {pairs:?}");
        let off = words_off_the_page(page);
        assert!(off.is_empty(), "page {number} spills: {off:?}");
    }
}

fn word(text: &str, x_min: f64, y_min: f64, x_max: f64, y_max: f64) -> Word {
    Word {
        text: text.to_string(),
        x_min,
        y_min,
        x_max,
        y_max,
    }
}

#[test]
fn overprinted_words_are_found_and_neighbours_are_not() {
    let page = Page {
        width: 612.0,
        height: 792.0,
        words: vec![
            word("Verdict", 40.0, 100.0, 80.0, 110.0),
            // Beside it on its line, touching its edge.
            word("biased", 80.2, 100.0, 110.0, 110.0),
            // The next line, its top on the line above's bottom.
            word("Expected", 40.0, 109.8, 90.0, 119.8),
            // A caption running into the facts.
            word("Observed", 200.0, 102.0, 250.0, 112.0),
            word("SHA-256", 230.0, 104.0, 300.0, 114.0),
            // Past the right edge.
            word("spill", 600.0, 300.0, 640.0, 310.0),
        ],
    };
    let pairs: Vec<(&str, &str)> = overlapping_pairs(&page)
        .into_iter()
        .map(|(a, b)| (a.text.as_str(), b.text.as_str()))
        .collect();
    assert_eq!(pairs, [("Observed", "SHA-256")]);
    let off: Vec<&str> = words_off_the_page(&page)
        .iter()
        .map(|w| w.text.as_str())
        .collect();
    assert_eq!(off, ["spill"]);
}

#[test]
fn pdftotext_bbox_output_is_read_page_by_page() {
    let xhtml = r#"<doc>
  <page width="612.000000" height="792.000000">
    <flow><block><line>
      <word xMin="39.75" yMin="57.69" xMax="103.94" yMax="73.75">shoe&amp;deck</word>
      <word xMin="108.7" yMin="57.69" xMax="113.9" yMax="73.75">&lt;1e-12</word>
    </line></block></flow>
  </page>
  <page width="595.0" height="842.0">
  </page>
</doc>"#;
    let pages = parse_pages(xhtml);
    assert_eq!(pages.len(), 2);
    assert_eq!((pages[0].width, pages[0].height), (612.0, 792.0));
    assert_eq!(
        pages[0].words[0],
        word("shoe&deck", 39.75, 57.69, 103.94, 73.75)
    );
    assert_eq!(pages[0].text(), "shoe&deck <1e-12");
    assert_eq!((pages[1].width, pages[1].height), (595.0, 842.0));
    assert!(pages[1].words.is_empty());
}
