//! `[[a,b,c],[d,e,f]]` lines on stdin → battle remainders on stdout (until the CLI's
//! `arbiter harness spacegoo battle` exists, and for differential tests against Python).

fn main() {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    if let Err(error) = arbiter_spacegoo::battle_harness(stdin.lock(), stdout.lock()) {
        eprintln!("{error}");
        std::process::exit(1);
    }
}
