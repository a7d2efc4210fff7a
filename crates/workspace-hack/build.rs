//! Nothing to build: the manifest's build dependencies only set features for the procedural
//! macros every build shares.

fn main() {}
