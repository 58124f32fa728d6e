// spin.rs - a workload for the perf oracle tests: Rust frames (v0/legacy mangled names,
// generics).  Usage: spin [MILLISECONDS]  (default 300).
use std::time::{Duration, Instant};

#[inline(never)]
fn mix<T: Copy + Into<u64>>(x: T, rounds: u32) -> u64 {
    let mut h: u64 = x.into();
    for _ in 0..rounds {
        h = h.wrapping_mul(0x9E3779B97F4A7C15).rotate_left(17);
    }
    h
}

#[inline(never)]
fn outer(i: u32) -> u64 {
    mix(i, 5000) ^ mix(i as u16, 3000)
}

fn main() {
    let ms: u64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(300);
    let end = Instant::now() + Duration::from_millis(ms);
    let mut acc = 0u64;
    let mut i = 0u32;
    // the clock is read rarely: frames in the vdso are kept out of the profile
    while Instant::now() < end {
        for _ in 0..64 {
            acc ^= outer(i);
            i = i.wrapping_add(1);
        }
    }
    println!("{}", acc & 1);
}
