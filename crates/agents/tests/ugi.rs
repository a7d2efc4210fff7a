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
}

#[test]
fn an_mcts_search_of_no_simulations_is_refused() {
    for bad in ["mcts:sims=0", "mcts:sims=-1", "mcts:sims=x"] {
        let err = build(bad, 0).err().expect("refused");
        assert!(err.to_string().contains("sims"), "{bad}: {err}");
    }
    assert!(build("mcts:sims=1", 0).is_ok());
}
