//! Write every target's seed inputs into a corpus folder for cargo-fuzz:
//! `cargo run -p arbiter-fuzz-targets --example write_seeds -- crates/fuzz/corpus`
//! (one subfolder per target, files `seed-N`).

use std::path::PathBuf;

use arbiter_fuzz_targets::seeds::seeds;
use arbiter_fuzz_targets::TARGETS;

fn main() -> std::io::Result<()> {
    let root = PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| "crates/fuzz/corpus".to_string()),
    );
    for (name, _) in TARGETS {
        let folder = root.join(name);
        std::fs::create_dir_all(&folder)?;
        let seeds = seeds(name);
        for (i, seed) in seeds.iter().enumerate() {
            std::fs::write(folder.join(format!("seed-{i}")), seed)?;
        }
        println!("{name}: {} seeds in {}", seeds.len(), folder.display());
    }
    Ok(())
}
