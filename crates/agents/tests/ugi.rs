//! The `ugi:` specs the agents' parser refuses. The client against a running engine is tested
//! beside the stub engine it drives, in the `pjlab-ugi-stub` crate.

use pjlab_agents::Agent;
use pjlab_pijersi::{PijersiKit, Position};

fn build(spec: &str, seed: u64) -> Result<Box<dyn Agent<Position>>, pjlab_agents::SpecError> {
    pjlab_agents::build::<PijersiKit>(spec, seed)
}

#[test]
fn bad_ugi_specs_are_refused() {
    for bad in [
        "ugi",
        "ugi:depth=3",
        "ugi:cmd=x,speed=3",
        "ugi:cmd=x,movetime=5",
        "ugi:cmd=",
        "ugi:cmd=,depth=2",
    ] {
        assert!(build(bad, 0).is_err(), "{bad}");
    }
    // One limit: a depth or a time a move, not both (either order).
    for both in [
        "ugi:cmd=x,depth=3,movetime=50ms",
        "ugi:cmd=x,movetime=50ms,depth=3",
    ] {
        let err = build(both, 0).err().expect("refused").to_string();
        assert!(err.contains("not both"), "{both}: {err}");
    }
    assert!(build("ugi:cmd=x,movetime=50ms", 0).is_ok());
    // `arg` is a list and may repeat; any other option given twice is refused.
    assert!(build("ugi:cmd=x,arg=a,arg=b,arg=a", 0).is_ok());
    for (twice, key) in [
        ("ugi:cmd=x,cmd=y", "cmd"),
        ("ugi:cmd=x,depth=2,arg=a,depth=2", "depth"),
        ("ugi:cmd=x,option.Hash=8,option.Hash=16", "option.Hash"),
    ] {
        let err = build(twice, 0).err().expect("refused").to_string();
        assert!(
            err.contains(&format!("option `{key}` more than once")),
            "{twice}: {err}"
        );
    }
}

#[test]
fn an_mcts_search_of_no_simulations_is_refused() {
    for bad in ["mcts:sims=0", "mcts:sims=-1", "mcts:sims=x"] {
        let err = build(bad, 0).err().expect("refused");
        assert!(err.to_string().contains("sims"), "{bad}: {err}");
    }
    assert!(build("mcts:sims=1", 0).is_ok());
}
