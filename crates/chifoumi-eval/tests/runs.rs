//! Runs end to end: records that read back and replay exactly, interrupted runs that resume to
//! the same matches, arenas whose scores agree with their duels, reports whose figures follow
//! from what the players are.

use std::sync::atomic::{AtomicBool, Ordering};

use pjlab_chifoumi::{GameEnd, Match, Player, Rules};
use pjlab_chifoumi_eval::record::Records;
use pjlab_chifoumi_eval::report::{arena_stats, markdown, match_stats};
use pjlab_chifoumi_eval::{ArenaSpec, Played, RunKind, RunSpec, labels, play_all, show};

fn factory(spec: &str) -> Result<Box<dyn Player + Send>, pjlab_core::BoxError> {
    Ok(pjlab_chifoumi::parse_player(spec)?)
}

fn run(kind: RunKind, players: &[&str], matches: u32) -> RunSpec {
    let rules = Rules {
        games: 4,
        max_rounds: 40,
        ..Rules::default()
    };
    RunSpec {
        kind,
        players: labels(&players.iter().map(|s| s.to_string()).collect::<Vec<_>>()),
        matches,
        seed: 7,
        rules,
        arena: (kind == RunKind::Arena).then_some(ArenaSpec {
            turns: 300,
            sit_out: 20,
        }),
        sessions: vec![],
    }
}

/// Plays the whole run, raising the stop flag after `stop_after` matches (and resuming), or
/// straight through.
fn play(spec: &RunSpec, stop_after: Option<usize>, workers: usize) -> Records {
    let mut records = Records::new(spec.clone());
    let stop = AtomicBool::new(false);
    let todo = records.todo();
    let on_done = |records: &mut Records| {
        if Some(records.len()) == stop_after {
            stop.store(true, Ordering::SeqCst);
        }
    };
    play_all(
        spec,
        &todo,
        &factory,
        workers,
        &stop,
        &mut |played| match played {
            Played::Arena(a) => records.arenas.push(a),
            Played::Match(m) => {
                records.matches.push(m);
                on_done(&mut records);
            }
        },
    )
    .unwrap();
    if stop_after.is_some() {
        assert!(
            records.len() < spec.schedule().len(),
            "the stop flag stopped the run"
        );
        let rest = records.todo();
        let stop = AtomicBool::new(false);
        play_all(spec, &rest, &factory, workers, &stop, &mut |played| {
            if let Played::Match(m) = played {
                records.matches.push(m)
            }
        })
        .unwrap();
    }
    records.matches.sort_by_key(|m| m.spec.id);
    records.arenas.sort_by_key(|a| a.spec.id);
    records
}

#[test]
fn records_read_back_and_replay_exactly() {
    let spec = run(
        RunKind::Tournament,
        &["random", "greedy", "observer", "random"],
        4,
    );
    assert_eq!(
        spec.players[3], "random#2",
        "a repeated spec gets a label of its own"
    );
    let records = play(&spec, None, 2);
    assert_eq!(records.matches.len(), 6 * 4);
    let dir = tempfile::tempdir().unwrap();
    records.write(dir.path()).unwrap();
    let back = Records::read(dir.path()).unwrap();
    assert_eq!(back, records);
    // Each match replays from its seed and actions, and the replay gives the recorded games.
    let rules = spec.rules.clone();
    for m in &back.matches {
        let mut game = Match::new(&rules, m.spec.seed).unwrap();
        for (g, actions) in m.actions.iter().enumerate() {
            for &a in actions {
                game.play(a).unwrap();
            }
            assert!(game.game().is_over());
            assert_eq!(game.game().end(), Some(m.result.games[g].end));
            assert_eq!(game.game().bags(), m.result.games[g].bags);
            game.next_game();
        }
        assert_eq!(game.result().as_ref(), Some(&m.result));
    }
}

#[test]
fn an_interrupted_run_resumes_to_the_same_matches() {
    let spec = run(RunKind::Match, &["counter", "observer"], 30);
    let whole = play(&spec, None, 2);
    let resumed = play(&spec, Some(7), 2);
    assert_eq!(whole.matches, resumed.matches);
    // Seats swap every match and pairs of matches share a seed.
    let s = spec.schedule();
    assert_eq!(s[0].seats, vec![0, 1]);
    assert_eq!(s[1].seats, vec![1, 0]);
    assert_eq!(s[0].seed, s[1].seed);
    assert_ne!(s[0].seed, s[2].seed);
}

#[test]
fn arena_scores_are_the_duels_won_minus_lost() {
    let spec = run(
        RunKind::Arena,
        &["random", "greedy", "avoider", "counter", "observer"],
        6,
    );
    let records = play(&spec, None, 2);
    assert_eq!(records.arenas.len(), 6);
    let mut duels = 0;
    for a in &records.arenas {
        assert_eq!(a.result.turns, 300);
        let mut score = vec![0i32; 5];
        for d in &a.result.duels {
            duels += 1;
            for seat in [d.duel.trigger, d.duel.target] {
                score[seat as usize] += d.duel.value_for(seat);
            }
            // A draw comes from the bag it was drawn from (an empty bag draws anything).
            for k in 0..2 {
                let bag = d.bags[k];
                assert!(bag.is_empty() || bag.count(d.duel.draws[k]) > 0);
            }
            // The avoider never calls a duel.
            assert_ne!(
                spec.players[a.spec.seats[d.duel.trigger as usize]],
                "avoider"
            );
        }
        assert_eq!(score, a.result.scores);
    }
    assert!(duels > 0, "the arenas had duels");
    let dir = tempfile::tempdir().unwrap();
    records.write(dir.path()).unwrap();
    assert_eq!(Records::read(dir.path()).unwrap(), records);
    let stats = arena_stats(&records);
    let total: f64 = stats.iter().flat_map(|s| s.0.iter()).sum();
    assert_eq!(total, 0.0, "the arena is zero-sum");
    assert!(markdown(&records).contains("| avoider | 6 |"));
}

#[test]
fn report_figures_follow_from_the_players() {
    let spec = run(
        RunKind::Tournament,
        &["focused:F", "avoider", "counter", "random"],
        6,
    );
    let records = play(&spec, None, 2);
    let (stats, cross) = match_stats(&records);
    let index = |name: &str| spec.players.iter().position(|p| p == name).unwrap();
    let avoider = &stats[index("avoider")].duels;
    assert_eq!(avoider.triggered, 0, "the avoider never duels");
    assert_eq!(avoider.empty_bag, avoider.duels, "nor picks anything up");
    let focused = &stats[index("focused:F")].duels;
    assert!(focused.duels > 0);
    assert_eq!(
        focused.bag_sum[1] + focused.bag_sum[2],
        0,
        "focused:F holds only F"
    );
    assert!(focused.bag_sum[0] > 0);
    for (i, s) in stats.iter().enumerate() {
        assert_eq!(s.matches.games(), 3 * 6);
        for (j, row) in cross.iter().enumerate() {
            if i != j {
                // Zero-sum: i's wins against j are j's losses against i.
                assert_eq!(cross[i][j].wins, row[i].losses);
                assert_eq!(cross[i][j].draws, row[i].draws);
            }
        }
    }
    // Points a match are zero-sum too.
    let points: f64 = stats.iter().flat_map(|s| s.points.iter()).sum();
    assert_eq!(points, 0.0);
    let timeouts: u64 = stats.iter().map(|s| s.duels.timeouts).sum();
    let counted = records
        .matches
        .iter()
        .flat_map(|m| &m.result.games)
        .filter(|g| g.end == GameEnd::TimeOut)
        .count() as u64;
    assert_eq!(
        timeouts,
        2 * counted,
        "both players of a timed-out game count it"
    );
    let text = markdown(&records);
    for section in ["## Match scores", "## Cross table", "## Pairs", "## Duels"] {
        assert!(text.contains(section), "{text}");
    }
    // Each pair's row counts its matches from the records, from the first-named player's view.
    let pairs = &text[text.find("## Pairs").unwrap()..text.find("## Duels").unwrap()];
    let mut rows = 0;
    for line in pairs.lines().filter(|l| l.contains(" vs ")) {
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        let (a, b) = cells[0].split_once(" vs ").unwrap();
        let (a, b) = (index(a), index(b));
        let [mut w, mut d, mut l] = [0; 3];
        for m in &records.matches {
            let Some(seat) = m.spec.seats.iter().position(|&p| p == a) else {
                continue;
            };
            if m.spec.seats[1 - seat] != b {
                continue;
            }
            match m.result.result_for(seat) {
                1 => w += 1,
                0 => d += 1,
                _ => l += 1,
            }
        }
        assert_eq!(cells[1], (w + d + l).to_string(), "{line}");
        assert_eq!(cells[2], format!("{w}-{d}-{l}"), "{line}");
        rows += 1;
    }
    assert_eq!(rows, 6, "every pair of four players once: {pairs}");
}

#[test]
fn a_shown_game_steps_through_every_turn() {
    let spec = run(RunKind::Match, &["focused:C", "greedy"], 2);
    let records = play(&spec, None, 1);
    let m = &records.matches[1];
    let rules = spec.rules.clone();
    for game in 0..m.actions.len() {
        let names = ["focused:C".to_string(), "greedy".to_string()];
        let page = show::match_game_page(&rules, m.spec.seed, &m.actions, game, names).unwrap();
        assert!(page.walls.is_empty(), "the default map has no walls");
        let frames = page.frames;
        assert_eq!(frames.len(), m.actions[game].len() + 1);
        assert!(frames[..frames.len() - 1].iter().all(|f| f.end.is_none()));
        let last = frames.last().unwrap();
        assert!(last.end.is_some());
        let summary = m.result.games[game];
        assert_eq!(last.bags, summary.bags.map(|b| b.counts()));
        // Objects only vanish, one at most a turn, into the mover's bag.
        for w in frames.windows(2) {
            let gone = w[0].objects.len() - w[1].objects.len();
            assert!(gone <= 1);
            let gained: u16 = (0..2)
                .map(|p| w[1].bags[p].iter().sum::<u16>() - w[0].bags[p].iter().sum::<u16>())
                .sum();
            assert_eq!(gained as usize, gone);
        }
    }
    let names = || ["focused:<C>".to_string(), "greedy".to_string()];
    assert!(show::match_game_page(&rules, m.spec.seed, &m.actions, 99, names()).is_err());
    let page = show::match_game_page(&rules, m.spec.seed, &m.actions, 0, names()).unwrap();
    let html = show::html(&page);
    assert!(
        html.starts_with("<!DOCTYPE html>") && html.contains("focused:&lt;C&gt; against greedy")
    );
    // The page carries the frames as JSON that reads back whole.
    let data = html
        .split(r#"id="data">"#)
        .nth(1)
        .unwrap()
        .split("</script>")
        .next()
        .unwrap();
    let json: serde_json::Value = serde_json::from_str(&data.replace("<\\/", "</")).unwrap();
    assert_eq!(json["frames"].as_array().unwrap().len(), page.frames.len());
    assert_eq!(json["players"][1], "greedy");
}

/// The run kinds a Chifoumi run is not (the run directory's kinds are shared by every run) are
/// refused before a match is played.
#[test]
fn a_training_or_balance_kind_is_no_chifoumi_run() {
    assert!(
        run(RunKind::Match, &["random", "greedy"], 2)
            .check()
            .is_ok()
    );
    for kind in [RunKind::Training, RunKind::Balance] {
        let spec = run(kind, &["random", "greedy"], 2);
        let err = spec.check().unwrap_err().to_string();
        assert!(err.contains(kind.name()), "{err}");
        assert!(err.contains("a match, a tournament or an arena"), "{err}");
    }
}
