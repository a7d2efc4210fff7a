//! Measures raw random playouts: `cargo run --release -p pjlab-chifoumi --example bench`.

use std::time::Instant;

fn main() {
    let steps = 20_000_000;
    let mut rates = Vec::new();
    for seed in 0..5 {
        let start = Instant::now();
        let games = pjlab_chifoumi::bench::random_steps(steps, seed);
        let secs = start.elapsed().as_secs_f64();
        rates.push(steps as f64 / secs);
        println!(
            "seed {seed}: {steps} steps, {games} games, {:.3e} steps/s",
            steps as f64 / secs
        );
    }
    rates.sort_by(f64::total_cmp);
    println!("median {:.3e} steps/s", rates[rates.len() / 2]);
}
