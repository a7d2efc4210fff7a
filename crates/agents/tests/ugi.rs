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
    ] {
        assert!(build(bad, 0).is_err(), "{bad}");
    }
}
