//! `--categories FILE`: a CSV with a header, `item,col1,col2,...`, giving
//! each kind of a deck one category per column (e.g.
//! `item,suit,rank,colour` or `item,land`), or `--categories cards` for the
//! built-in card columns.

use super::{Column, Deck, cards};
use crate::error::{Error, Opt, Result};
use std::path::Path;

/// The deck with the category columns of `source` (`cards` or a CSV file)
/// added. Every kind of the deck must have a row, and each column must hold
/// at least 2 categories.
pub fn apply(deck: Deck, source: &str) -> Result<Deck> {
    let columns = if source == "cards" {
        cards::columns(deck.kind_names()).ok_or_else(|| {
            Error::bad_input(format!(
                "the categories of cards: the deck's items are not card labels like AS, 10H, QD \
                 (deck {})",
                deck.label
            ))
            .about(Opt::Categories)
        })?
    } else {
        let path = Path::new(source);
        let text = std::fs::read_to_string(path).map_err(|e| {
            Error::io(format!(
                "the categories file {source}: cannot read it ({e})"
            ))
            .about(Opt::Categories)
        })?;
        parse(&text, deck.kind_names()).map_err(|e| {
            Error::bad_input(format!("the categories file {source}: {e}")).about(Opt::Categories)
        })?
    };
    Ok(deck.with_columns(columns))
}

/// The columns of CSV `text` over the kinds `kinds`. Errors name the file
/// line (`FILE:LINE` is added by the caller's prefix).
fn parse(text: &str, kinds: &[String]) -> std::result::Result<Vec<Column>, String> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'));
    let (_, header) = lines
        .next()
        .ok_or("the file is empty (expected a header item,column,...)")?;
    let header: Vec<&str> = header.split(',').map(str::trim).collect();
    if header.len() < 2 || header[1..].iter().any(|h| h.is_empty()) {
        return Err(format!(
            "line 1: the header must be item,column[,column...] (got '{}')",
            header.join(",")
        ));
    }
    let mut columns: Vec<Column> = header[1..]
        .iter()
        .map(|name| Column {
            name: name.to_string(),
            names: Vec::new(),
            of_kind: vec![u32::MAX; kinds.len()],
        })
        .collect();
    for (line, row) in lines {
        let cells: Vec<&str> = row.split(',').map(str::trim).collect();
        if cells.len() != header.len() {
            return Err(format!(
                "line {line}: {} fields where the header has {}",
                cells.len(),
                header.len()
            ));
        }
        let Some(kind) = kinds.iter().position(|k| k == cells[0]) else {
            return Err(format!(
                "line {line}: '{}' is not an item of the deck",
                cells[0]
            ));
        };
        for (column, &cell) in columns.iter_mut().zip(&cells[1..]) {
            if column.of_kind[kind] != u32::MAX {
                return Err(format!("line {line}: item '{}' is given twice", cells[0]));
            }
            let c = match column.names.iter().position(|n| n == cell) {
                Some(c) => c,
                None => {
                    column.names.push(cell.to_string());
                    column.names.len() - 1
                }
            };
            column.of_kind[kind] = c as u32;
        }
    }
    if let Some(k) = columns[0].of_kind.iter().position(|&c| c == u32::MAX) {
        return Err(format!("item '{}' of the deck has no row", kinds[k]));
    }
    if let Some(c) = columns.iter().find(|c| c.names.len() < 2) {
        return Err(format!(
            "column '{}' has a single category: nothing to test",
            c.name
        ));
    }
    Ok(columns)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_columns_and_refuses_bad_files() {
        let kinds: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
        let cols = parse("item,land,colour\na,yes,red\nb,no,red\nc,no,blue\n", &kinds).unwrap();
        assert_eq!(cols[0].of_kind, vec![0, 1, 1]);
        assert_eq!(cols[1].names, vec!["red", "blue"]);
        for (bad, says) in [
            ("item\n", "header"),
            ("item,land\na,yes\nb,no\n", "'c' of the deck has no row"),
            ("item,land\na,yes\nz,no\n", "line 3"),
            ("item,land\na,yes,x\n", "line 2"),
            ("item,land\na,x\nb,x\nc,x\n", "single category"),
        ] {
            let e = parse(bad, &kinds).unwrap_err();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }
}
