fn main() {
    let d: u32 = std::env::args().nth(1).unwrap().parse().unwrap();
    let t = std::time::Instant::now();
    let n = volte::perft::perft_othello(&volte::board::Position::START, d);
    let s = t.elapsed().as_secs_f64();
    println!("{n} {s:.3}s {:.1} M/s", n as f64 / s / 1e6);
}
