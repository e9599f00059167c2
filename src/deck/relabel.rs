//! A declared deck handed to a user's function and read back: the function
//! gets the deck's cards as labels (`AS`, `2S`, … six times over for
//! `shoe:decks=6`) and returns them rearranged; each returned card is
//! written as an item index of the deck, a kind's copies in turn, so that
//! the counts are those of the same deck shuffled by a built-in shuffle.
//! (The page and the npm package do the same in JavaScript, in their hot
//! loop.)

use super::Deck;
use std::collections::HashMap;

/// Reads decks of labels returned by a user's shuffle of a [`Deck`] as
/// item indices ([`Deck::relabel`]). Keeps its work space between decks.
#[derive(Debug, Clone)]
pub struct Relabel {
    /// The deck's labels by item index, as the function is handed them.
    labels: Vec<String>,
    /// Each label's kind.
    kind_of: HashMap<String, u32>,
    /// Each kind's item indices, its copies in turn.
    items_of: Vec<Vec<u32>>,
    /// How many of each kind the deck being read holds so far.
    held: Vec<u32>,
}

impl Deck {
    /// The reader of decks this deck's cards are returned in by a user's
    /// function.
    pub fn relabel(&self) -> Relabel {
        let mut items_of = vec![Vec::new(); self.kinds()];
        for (item, &kind) in self.kind_of.iter().enumerate() {
            items_of[kind as usize].push(item as u32);
        }
        let names = &self.kind_names;
        Relabel {
            labels: self
                .kind_of
                .iter()
                .map(|&k| names[k as usize].clone())
                .collect(),
            kind_of: names
                .iter()
                .enumerate()
                .map(|(k, name)| (name.clone(), k as u32))
                .collect(),
            items_of,
            held: vec![0; self.kinds()],
        }
    }
}

impl Relabel {
    /// The deck's cards by item index: what the function is handed.
    pub fn labels(&self) -> &[String] {
        &self.labels
    }

    /// Writes `deck`, the cards a function returned (`Err` with how the
    /// item is shown for one that is no label at all, such as a number),
    /// into `out` as item indices; fails, in words naming the card, when it
    /// is not the deck's cards rearranged: too few or too many, a card the
    /// deck does not hold, or more copies of one than the deck has.
    pub fn indices<'a>(
        &mut self,
        deck: impl ExactSizeIterator<Item = Result<&'a str, String>>,
        out: &mut Vec<u32>,
    ) -> Result<(), String> {
        let n = self.labels.len();
        if deck.len() != n {
            let (word, by) = if deck.len() < n {
                ("lost", n - deck.len())
            } else {
                ("added", deck.len() - n)
            };
            let cards = if deck.len() == 1 { "card" } else { "cards" };
            return Err(format!(
                "it returned {} {cards} instead of {n} (it {word} {by})",
                deck.len()
            ));
        }
        self.held.fill(0);
        out.clear();
        for (position, card) in deck.enumerate() {
            let card = card.map_err(|shown| {
                format!("{shown} at position {position} is not one of the deck's cards")
            })?;
            let Some(kind) = self.kind_of.get(card) else {
                return Err(format!(
                    "'{card}' at position {position} is not one of the deck's cards"
                ));
            };
            let (items, held) = (
                &self.items_of[*kind as usize],
                &mut self.held[*kind as usize],
            );
            let Some(&item) = items.get(*held as usize) else {
                return Err(format!(
                    "it holds more than {} of '{card}' (the deck has {})",
                    items.len(),
                    items.len()
                ));
            };
            *held += 1;
            out.push(item);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(relabel: &mut Relabel, cards: &[&str]) -> Result<Vec<u32>, String> {
        let mut out = Vec::new();
        relabel.indices(cards.iter().map(|c| Ok(*c)), &mut out)?;
        Ok(out)
    }

    #[test]
    fn cards_come_back_as_the_items_of_their_kind_in_turn() {
        let deck = Deck::parse("AABC").unwrap();
        let mut relabel = deck.relabel();
        assert_eq!(relabel.labels(), ["A", "A", "B", "C"]);
        // The first A returned is item 0, the second item 1.
        assert_eq!(
            read(&mut relabel, &["C", "A", "B", "A"]).unwrap(),
            [3, 0, 2, 1]
        );
        // The work space starts afresh for each deck.
        assert_eq!(
            read(&mut relabel, &["A", "A", "B", "C"]).unwrap(),
            [0, 1, 2, 3]
        );
        let shoe = Deck::parse("shoe:decks=2").unwrap();
        let mut relabel = shoe.relabel();
        let reversed: Vec<String> = relabel.labels().iter().rev().cloned().collect();
        let back: Vec<&str> = reversed.iter().map(String::as_str).collect();
        let items = read(&mut relabel, &back).unwrap();
        let mut sorted = items.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..104).collect::<Vec<u32>>(), "every item once");
        for (item, card) in items.iter().zip(&back) {
            assert_eq!(
                relabel.labels()[*item as usize],
                *card,
                "each card is an item of its kind"
            );
        }
    }

    #[test]
    fn a_deck_that_is_not_the_cards_is_named() {
        let mut relabel = Deck::parse("AABC").unwrap().relabel();
        let e = read(&mut relabel, &["A", "A", "B"]).unwrap_err();
        assert_eq!(e, "it returned 3 cards instead of 4 (it lost 1)");
        let e = read(&mut relabel, &["A", "A", "B", "C", "C"]).unwrap_err();
        assert_eq!(e, "it returned 5 cards instead of 4 (it added 1)");
        let e = read(&mut relabel, &["A", "A", "A", "C"]).unwrap_err();
        assert_eq!(e, "it holds more than 2 of 'A' (the deck has 2)");
        let e = read(&mut relabel, &["A", "D", "B", "C"]).unwrap_err();
        assert_eq!(e, "'D' at position 1 is not one of the deck's cards");
        let mut out = Vec::new();
        let e = relabel
            .indices(
                [Ok("A"), Err("7".to_string()), Ok("B"), Ok("C")].into_iter(),
                &mut out,
            )
            .unwrap_err();
        assert_eq!(e, "7 at position 1 is not one of the deck's cards");
    }
}
