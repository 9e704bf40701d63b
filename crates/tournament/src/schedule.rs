//! Who plays whom, and in which seats. A match is a list of encounters (every pair of bots in a
//! round-robin, the first bot against each other in a gauntlet; on the four-player board every
//! four bots, or two bots each playing a team), each played `games` times. Games are numbered
//! round by round, so a match cut short has played every encounter about equally often, and the
//! seats turn from one round to the next so each bot sits in each seat equally often.

/// How bots are paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pairing {
    /// Every bot meets every other.
    RoundRobin,
    /// The first bot meets each of the others; they do not meet each other.
    Gauntlet,
}

/// The bots of each encounter (indices into the bot list), in order: for `bots` bots at a
/// game of `seats` seats.
pub fn encounters(bots: usize, seats: usize, pairing: Pairing) -> Result<Vec<Vec<usize>>, String> {
    if bots < 2 {
        return Err("give at least two bots".into());
    }
    // Two bots on a board of four seats play a team each.
    let size = if seats == 4 && bots == 2 { 2 } else { seats };
    if bots < size {
        return Err(format!(
            "a table of this game seats {size} bots: give {size} or more (or two, each playing a team)"
        ));
    }
    let mut all = Vec::new();
    combinations(bots, size, &mut Vec::new(), 0, &mut all);
    if pairing == Pairing::Gauntlet {
        all.retain(|c| c.contains(&0));
    }
    Ok(all)
}

fn combinations(
    n: usize,
    k: usize,
    prefix: &mut Vec<usize>,
    from: usize,
    out: &mut Vec<Vec<usize>>,
) {
    if prefix.len() == k {
        out.push(prefix.clone());
        return;
    }
    for i in from..n {
        prefix.push(i);
        combinations(n, k, prefix, i + 1, out);
        prefix.pop();
    }
}

/// The bot in each seat for the `round`-th game (from 0) of an encounter. Two bots swap seats
/// every round (on four seats each holds a pair of opposite seats, a team); four bots take each
/// of the three partnerships for four rounds, turning one seat further each round, so in twelve
/// rounds every bot has sat in every seat three times and partnered every other bot four times.
pub fn seating(encounter: &[usize], seats: usize, round: u32) -> Vec<usize> {
    match (encounter, seats) {
        ([a, b], _) => {
            let (first, second) = if round.is_multiple_of(2) {
                (*a, *b)
            } else {
                (*b, *a)
            };
            (0..seats)
                .map(|j| if j.is_multiple_of(2) { first } else { second })
                .collect()
        }
        ([a, b, c, d], 4) => {
            // Seats 0 and 2 are one team, 1 and 3 the other.
            let partnered = match (round / 4) % 3 {
                0 => [*a, *b, *c, *d],
                1 => [*a, *c, *b, *d],
                _ => [*a, *b, *d, *c],
            };
            let turn = (round % 4) as usize;
            (0..4).map(|s| partnered[(s + turn) % 4]).collect()
        }
        _ => encounter.to_vec(),
    }
}

/// The seating of every game of a match, game k (from 1) at index k - 1.
pub fn games(encounters: &[Vec<usize>], seats: usize, games_each: u32) -> Vec<Vec<usize>> {
    let mut out = Vec::with_capacity(encounters.len() * games_each as usize);
    for round in 0..games_each {
        for e in encounters {
            out.push(seating(e, seats, round));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[test]
    fn round_robin_and_gauntlet_encounters() {
        let rr = encounters(4, 2, Pairing::RoundRobin).unwrap();
        assert_eq!(rr, [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]);
        let g = encounters(4, 2, Pairing::Gauntlet).unwrap();
        assert_eq!(g, [[0, 1], [0, 2], [0, 3]]);
        assert_eq!(encounters(2, 4, Pairing::RoundRobin).unwrap(), [[0, 1]]);
        assert_eq!(encounters(5, 4, Pairing::RoundRobin).unwrap().len(), 5);
        assert_eq!(encounters(5, 4, Pairing::Gauntlet).unwrap().len(), 4);
        assert!(encounters(3, 4, Pairing::RoundRobin)
            .unwrap_err()
            .contains("give 4 or more"));
        assert!(encounters(1, 2, Pairing::RoundRobin).is_err());
    }

    #[test]
    fn two_bots_alternate_seats_as_matches_always_did() {
        // Bot 0 takes the first seat in odd games (round 0, 2, …).
        let all = games(&[vec![0, 1]], 2, 4);
        assert_eq!(all, [[0, 1], [1, 0], [0, 1], [1, 0]]);
        assert_eq!(games(&[vec![0, 1]], 4, 2), [[0, 1, 0, 1], [1, 0, 1, 0]]);
    }

    #[test]
    fn every_pair_plays_each_colour_equally_in_a_round_robin() {
        let e = encounters(3, 2, Pairing::RoundRobin).unwrap();
        let all = games(&e, 2, 4);
        assert_eq!(all.len(), 12);
        let mut first: BTreeMap<usize, u32> = BTreeMap::new();
        for s in &all {
            *first.entry(s[0]).or_default() += 1;
        }
        assert_eq!(first.values().collect::<Vec<_>>(), [&4, &4, &4]);
        // Round by round: the first three games are the three encounters.
        assert_eq!(all[..3], [vec![0, 1], vec![0, 2], vec![1, 2]]);
    }

    #[test]
    fn four_bots_rotate_through_every_seat_and_partner() {
        let mut seat_count = BTreeMap::new();
        let mut partners = BTreeMap::new();
        for round in 0..12 {
            let s = seating(&[0, 1, 2, 3], 4, round);
            let mut sorted = s.clone();
            sorted.sort();
            assert_eq!(sorted, [0, 1, 2, 3], "each bot once: {s:?}");
            for (seat, bot) in s.iter().enumerate() {
                *seat_count.entry((seat, *bot)).or_insert(0) += 1;
            }
            for (x, y) in [(s[0], s[2]), (s[1], s[3])] {
                *partners.entry((x.min(y), x.max(y))).or_insert(0) += 1;
            }
        }
        assert_eq!(seat_count.len(), 16);
        assert!(seat_count.values().all(|&n| n == 3), "{seat_count:?}");
        assert_eq!(partners.len(), 6);
        assert!(partners.values().all(|&n| n == 4), "{partners:?}");
    }
}
