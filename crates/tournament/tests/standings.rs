//! Standings: the worked examples of docs/tournaments.md, by hand, and the rules that
//! hold of every table of standings.

use arbiter_tournament::{
    standings, ByeRecord, Entrant, EntrantId, Format, GameRecord, HalfPoints, Standing, Tiebreak,
};

fn entrants(ids: &[EntrantId]) -> Vec<Entrant> {
    ids.iter()
        .map(|&id| Entrant {
            id,
            rating: 1500.0,
            active: true,
        })
        .collect()
}

fn game(round: u32, seats: &[EntrantId], ranks: &[u8]) -> GameRecord {
    GameRecord {
        round,
        seats: seats.to_vec(),
        ranks: Some(ranks.to_vec()),
        forfeit: false,
    }
}

fn tiebreak(standing: &Standing, name: &str) -> i64 {
    standing
        .tiebreaks
        .iter()
        .find(|t| t.name == name)
        .unwrap_or_else(|| panic!("no {name} in {standing:?}"))
        .value
}

const A: EntrantId = 1;
const B: EntrantId = 2;
const C: EntrantId = 3;
const D: EntrantId = 4;

/// The Swiss example: round 1 A–B drawn, C beat D; round 2 A beat C, B beat D.
fn swiss_example() -> Vec<GameRecord> {
    vec![
        game(1, &[A, B], &[1, 1]),
        game(1, &[C, D], &[1, 2]),
        game(2, &[A, C], &[1, 2]),
        game(2, &[D, B], &[2, 1]),
    ]
}

#[test]
fn swiss_example_buchholz_and_sonneborn_berger() {
    let table = standings(
        Format::Swiss,
        2,
        &entrants(&[D, C, B, A]),
        &swiss_example(),
        &[],
    );
    let order: Vec<EntrantId> = table.iter().map(|s| s.entrant).collect();
    assert_eq!(order, vec![A, B, C, D]);
    let ranks: Vec<u32> = table.iter().map(|s| s.rank).collect();
    assert_eq!(ranks, vec![1, 2, 3, 4]);
    // Points: A 1.5, B 1.5, C 1, D 0.
    let points: Vec<HalfPoints> = table.iter().map(|s| s.points).collect();
    assert_eq!(
        points,
        vec![HalfPoints(3), HalfPoints(3), HalfPoints(2), HalfPoints(0)]
    );
    // Buchholz, in half-points: A met B (1.5) and C (1): 2.5. B met A (1.5) and D (0):
    // 1.5. C met D and A: 1.5. D met C and B: 2.5. A is ahead of B on it.
    let buchholz: Vec<i64> = table
        .iter()
        .map(|s| tiebreak(s, Tiebreak::BUCHHOLZ))
        .collect();
    assert_eq!(buchholz, vec![5, 3, 3, 5]);
    // Sonneborn-Berger, in quarter points: A drew B (½ × 1.5) and beat C (1 × 1): 1.75.
    // B drew A (½ × 1.5) and beat D (1 × 0): 0.75. C beat D (0) and lost to A: 0.
    let sb: Vec<i64> = table
        .iter()
        .map(|s| tiebreak(s, Tiebreak::SONNEBORN_BERGER))
        .collect();
    assert_eq!(sb, vec![7, 3, 0, 0]);
    let names: Vec<&str> = table[0].tiebreaks.iter().map(|t| t.name).collect();
    assert_eq!(names, vec!["buchholz", "sonneborn_berger", "wins"]);
    assert_eq!(table[0].tiebreaks[0].to_string(), "2.5");
    assert_eq!(table[0].tiebreaks[1].to_string(), "1.75");
    let a = &table[0];
    assert_eq!((a.played, a.wins, a.draws, a.losses), (2, 1, 1, 0));
}

/// The pools example: four entrants at one table twice. Round 1 (seats W X Y Z): W, X
/// and Y share first place, Z is fourth. Round 2 (same seats): Z first, Y second, X
/// third, W fourth.
#[test]
fn pools_example_placements() {
    let (w, x, y, z) = (11, 12, 13, 14);
    let games = vec![
        game(1, &[w, x, y, z], &[1, 1, 1, 4]),
        game(2, &[w, x, y, z], &[4, 3, 2, 1]),
    ];
    let table = standings(Format::Swiss, 4, &entrants(&[w, x, y, z]), &games, &[]);
    let order: Vec<EntrantId> = table.iter().map(|s| s.entrant).collect();
    assert_eq!(order, vec![y, x, z, w]);
    // Points: W 2 + 0, X 2 + 1, Y 2 + 2, Z 0 + 3 (in points).
    let points: Vec<u32> = table.iter().map(|s| s.points.0).collect();
    assert_eq!(points, vec![8, 6, 6, 4]);
    // X and Z tie on 3 points; X's places were 1 and 3 (sum 4), Z's 4 and 1 (sum 5):
    // lower is better, so X ranks second.
    let placements: Vec<i64> = table
        .iter()
        .map(|s| tiebreak(s, Tiebreak::PLACEMENTS))
        .collect();
    assert_eq!(placements, vec![3, 4, 5, 5]);
    // Everyone met the same three twice, so Buchholz is all points but one's own, twice:
    // (24 - own) × 2 half-points.
    let buchholz: Vec<i64> = table
        .iter()
        .map(|s| tiebreak(s, Tiebreak::BUCHHOLZ))
        .collect();
    assert_eq!(buchholz, vec![32, 36, 36, 40]);
    let ranks: Vec<u32> = table.iter().map(|s| s.rank).collect();
    assert_eq!(ranks, vec![1, 2, 3, 4]);
    // Shared first place is a draw; finishing behind anyone is a loss.
    let y_line = &table[0];
    assert_eq!((y_line.wins, y_line.draws, y_line.losses), (0, 1, 1));
    let z_line = &table[2];
    assert_eq!((z_line.wins, z_line.draws, z_line.losses), (1, 0, 1));
}

#[test]
fn forfeits_score_but_meet_nobody_and_running_games_count_for_nothing() {
    let mut games = swiss_example();
    games.push(GameRecord {
        round: 3,
        seats: vec![A, D],
        ranks: Some(vec![2, 1]),
        forfeit: true,
    });
    games.push(GameRecord {
        round: 3,
        seats: vec![B, C],
        ranks: None,
        forfeit: false,
    });
    let table = standings(Format::Swiss, 2, &entrants(&[A, B, C, D]), &games, &[]);
    let d = table.iter().find(|s| s.entrant == D).unwrap();
    assert_eq!(d.points, HalfPoints(2));
    assert_eq!((d.played, d.forfeits), (2, 1));
    // D's Buchholz still counts only C (1) and B (1.5): the forfeit met nobody.
    assert_eq!(tiebreak(d, Tiebreak::BUCHHOLZ), 5);
    let a = table.iter().find(|s| s.entrant == A).unwrap();
    // Nor is D among A's opponents: A's Buchholz is still B's and C's points.
    assert_eq!(tiebreak(a, Tiebreak::BUCHHOLZ), 5);
    assert_eq!((a.played, a.forfeits, a.losses), (2, 1, 0));
    // But D's forfeit win counts in the Buchholz of those D played: B's is now A's 1.5
    // and D's 1.
    let b = table.iter().find(|s| s.entrant == B).unwrap();
    assert_eq!(tiebreak(b, Tiebreak::BUCHHOLZ), 3 + 2);
    assert_eq!(b.played, 2);
}

#[test]
fn byes_shared_ranks_and_withdrawn_entrants() {
    let mut field = entrants(&[A, B, C]);
    field[2].active = false;
    field[0].rating = 1400.0;
    let byes = [ByeRecord {
        round: 1,
        entrant: A,
    }];
    let games = [game(1, &[B, C], &[1, 1])];
    let table = standings(Format::Swiss, 2, &field, &games, &byes);
    // A: a bye (1 point). B and C: a draw each (½), equal in every tie-break: they share
    // second place; B's rating breaks the order. C withdrew but is still ranked.
    let lines: Vec<(EntrantId, u32, u32)> = table
        .iter()
        .map(|s| (s.entrant, s.rank, s.points.0))
        .collect();
    assert_eq!(lines, vec![(A, 1, 2), (B, 2, 1), (C, 2, 1)]);
    assert_eq!(table[0].byes, 1);
    assert_eq!(table[0].played, 0);
    assert_eq!(tiebreak(&table[0], Tiebreak::BUCHHOLZ), 0);
}

#[test]
fn arena_prefers_fewer_games_for_the_same_points() {
    let (p, q, x, y, z, w) = (6, 2, 3, 4, 5, 1);
    let games = [
        game(1, &[p, x], &[1, 2]),
        game(1, &[q, y], &[1, 1]),
        game(1, &[z, q], &[1, 1]),
        game(1, &[x, w], &[1, 2]),
    ];
    let mut field = entrants(&[w, x, y, z, q, p]);
    field[4].rating = 1600.0;
    let table = standings(Format::Arena, 2, &field, &games, &[]);
    let names: Vec<&str> = table[0].tiebreaks.iter().map(|t| t.name).collect();
    assert_eq!(names, vec!["buchholz", "games_played"]);
    // P, Q and X have 1 point and a Buchholz of 1 (P met X; Q met Y and Z, ½ each; X
    // met P and W). P took one game for it, Q and X two: P first, then Q and X share
    // second place, Q listed first on rating.
    let lines: Vec<(EntrantId, u32, u32, i64)> = table
        .iter()
        .map(|s| {
            (
                s.entrant,
                s.rank,
                s.points.0,
                tiebreak(s, Tiebreak::BUCHHOLZ),
            )
        })
        .collect();
    assert_eq!(&lines[..3], &[(p, 1, 2, 2), (q, 2, 2, 2), (x, 2, 2, 2)]);
    for line in &table {
        assert_eq!(
            tiebreak(line, Tiebreak::GAMES_PLAYED),
            i64::from(line.played)
        );
    }
}

#[test]
fn standings_serialize_and_read_back() {
    let table = standings(
        Format::Swiss,
        2,
        &entrants(&[A, B, C, D]),
        &swiss_example(),
        &[],
    );
    let text = serde_json::to_string(&table[0]).unwrap();
    assert!(text.contains(r#""points":3"#), "{text}");
    assert!(text.contains(r#"{"name":"buchholz","value":5}"#), "{text}");
    let back: Standing = serde_json::from_str(&text).unwrap();
    assert_eq!(back, table[0]);
    let unknown = r#"{"name":"median","value":1}"#;
    assert!(serde_json::from_str::<Tiebreak>(unknown).is_err());
    assert_eq!(
        serde_json::to_string(&Format::RoundRobin).unwrap(),
        r#""round_robin""#
    );
}
