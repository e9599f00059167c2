//! Playing cards: the 52 labels `AS 2S … 10S JS QS KS AH … KC` (rank then
//! suit letter) and their suit, rank and colour columns.

use super::{Column, Deck};

/// Suit letters, in deck order.
pub const SUITS: [&str; 4] = ["S", "H", "D", "C"];

/// Rank labels, in deck order.
pub const RANKS: [&str; 13] = [
    "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K",
];

/// The 52 card labels in deck order (suit by suit, ace to king).
pub fn labels() -> Vec<String> {
    SUITS
        .iter()
        .flat_map(|s| RANKS.iter().map(move |r| format!("{r}{s}")))
        .collect()
}

/// The suit and rank indices of a card label (`AS`, `10H`, `qd`), if it is
/// one; `T` is accepted for ten.
pub fn parse_label(label: &str) -> Option<(usize, usize)> {
    let label = label.trim().to_ascii_uppercase();
    let (rank, suit) = label.split_at(label.len().checked_sub(1)?);
    let rank = if rank == "T" { "10" } else { rank };
    Some((
        SUITS.iter().position(|&s| s == suit)?,
        RANKS.iter().position(|&r| r == rank)?,
    ))
}

/// The suit, rank and colour columns of the 52 cards, over kinds given by
/// their labels (`kinds[k]` a card label): `None` unless every label is a
/// card.
pub fn columns(kinds: &[String]) -> Option<Vec<Column>> {
    let parsed: Vec<(usize, usize)> = kinds
        .iter()
        .map(|k| parse_label(k))
        .collect::<Option<_>>()?;
    let column = |name: &str, names: Vec<&str>, of: &dyn Fn(usize, usize) -> usize| Column {
        name: name.to_string(),
        names: names.into_iter().map(str::to_string).collect(),
        of_kind: parsed.iter().map(|&(s, r)| of(s, r) as u32).collect(),
    };
    Some(vec![
        column("suit", SUITS.to_vec(), &|s, _| s),
        column("rank", RANKS.to_vec(), &|_, r| r),
        column("colour", vec!["black", "red"], &|s, _| {
            usize::from(s == 1 || s == 2)
        }),
    ])
}

/// `decks` 52-card decks one after the other, with the card columns.
pub(super) fn shoe(label: &str, decks: usize) -> Deck {
    let names = labels();
    let kind_of = (0..52 * decks).map(|i| (i % 52) as u32).collect();
    let columns = columns(&names).expect("the card labels are cards");
    Deck::of(label.to_string(), kind_of, names).with_columns(columns)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_card_labels() {
        assert_eq!(parse_label("AS"), Some((0, 0)));
        assert_eq!(parse_label("10h"), Some((1, 9)));
        assert_eq!(parse_label("TH"), Some((1, 9)));
        assert_eq!(parse_label("QD"), Some((2, 11)));
        assert_eq!(parse_label("1S"), None);
        assert_eq!(parse_label("A"), None);
        let cols = columns(&labels()).unwrap();
        assert_eq!(cols[2].of_kind.iter().filter(|&&c| c == 1).count(), 26);
        assert_eq!(cols[1].of_kind[51], 12, "KC is a king");
    }
}
