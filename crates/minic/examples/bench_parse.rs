//! Times `minic::parse` on the given files (`cargo run --release -p minic --example bench_parse -- FILE...`).
fn main() {
    let files: Vec<String> = std::env::args().skip(1).collect();
    let sources: Vec<String> = files.iter().map(|f| std::fs::read_to_string(f).expect("readable")).collect();
    let lines: usize = sources.iter().map(|s| s.lines().count()).sum();
    let rounds = 50;
    let t = std::time::Instant::now();
    let cpu = cpu_time_ns();
    for _ in 0..rounds {
        for s in &sources {
            std::hint::black_box(minic::parse(s));
        }
    }
    let wall = t.elapsed().as_secs_f64() * 1000.0 / rounds as f64;
    let per100 = |ms: f64| ms / (lines as f64 / 100.0);
    println!("{} files, {lines} lines: wall {wall:.3} ms per round ({:.4} ms per 100 lines)", sources.len(), per100(wall));
    if let (Some(a), Some(b)) = (cpu, cpu_time_ns()) {
        let ms = (b - a) as f64 / 1e6 / rounds as f64;
        println!("  on-CPU {ms:.3} ms per round ({:.4} ms per 100 lines)", per100(ms));
    }
}

/// This thread's time on a CPU (Linux), unaffected by other processes.
fn cpu_time_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}
