//! Prints the generated program of each seed given on the command line:
//! `cargo run -p progen --example show -- 1 2 3` (`--simple` for
//! `Options::simple()`).

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let options = if args.iter().any(|a| a == "--simple") { progen::Options::simple() } else { progen::Options::full() };
    for seed in args.iter().filter_map(|a| a.parse::<u64>().ok()) {
        let p = progen::generate(seed, &options);
        println!("// seed {seed}\n{}", p.text);
    }
}
