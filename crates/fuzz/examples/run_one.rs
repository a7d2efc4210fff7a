//! Runs one fuzz target on one input file, with the panic's whole message (to reproduce a
//! finding that the corpus test or cargo-fuzz reported).
//!
//!   cargo run --release -p pjlab-fuzz --example run_one -- TARGET FILE

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(target), Some(file)) = (args.next(), args.next()) else {
        eprintln!("usage: run_one TARGET FILE");
        std::process::exit(2);
    };
    let data = std::fs::read(&file).unwrap_or_else(|e| panic!("{file}: {e}"));
    pjlab_fuzz::run(&target, &data);
    println!("{target}: {file}: no fault");
}
