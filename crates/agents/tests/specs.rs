//! Specs that name what the machine cannot give are refused with an error, not an abort.

use pjlab_pijersi::PijersiKit;

/// A transposition table larger than the address space was allocated by the engine, which
/// aborted the process (found by fuzzing the UGI session: `setoption name Hash value 65536`).
#[test]
fn a_table_that_cannot_be_reserved_is_refused_in_the_spec() {
    // 2^30 MiB (a pebibyte) exceeds any machine's address space; 2^50 MiB overflows the bytes.
    for mib in [1u64 << 30, 1 << 50] {
        let spec = format!("alphabeta:depth=1,tt={mib}");
        let e = pjlab_agents::build::<PijersiKit>(&spec, 0)
            .err()
            .unwrap_or_else(|| panic!("{spec} was accepted"))
            .to_string();
        assert!(
            e.contains("can reserve") && e.contains(&mib.to_string()),
            "{e}"
        );
    }
    assert!(pjlab_agents::build::<PijersiKit>("alphabeta:depth=1,tt=1", 0).is_ok());
}
