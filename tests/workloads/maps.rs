// maps.rs - the Rust workload of bench/perf-rust.sh: word counts in a HashMap, merged into
// a BTreeMap, through iterator chains and generic functions, so that stacks hold std's
// hashing, B-tree and iterator frames (many inlined) under the program's own functions.
// Usage: maps [MILLISECONDS of CPU time]  (default 300).
use std::collections::{BTreeMap, HashMap};
use std::hash::Hash;

// MILLISECONDS are of the process's CPU time, as cpu_ms.h explains for the C workloads.
#[repr(C)]
struct Timespec {
    tv_sec: i64,
    tv_nsec: i64,
}
extern "C" {
    fn clock_gettime(clock: i32, ts: *mut Timespec) -> i32;
}
const CLOCK_PROCESS_CPUTIME_ID: i32 = 2;

fn cpu_ms() -> f64 {
    let mut ts = Timespec { tv_sec: 0, tv_nsec: 0 };
    unsafe { clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    ts.tv_sec as f64 * 1e3 + ts.tv_nsec as f64 / 1e6
}

#[inline(never)]
fn words(seed: u64, n: usize) -> Vec<String> {
    let mut x = seed | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            format!("w{}", x % 5000)
        })
        .collect()
}

#[inline(never)]
fn count<K: Hash + Eq + Clone, I: Iterator<Item = K>>(items: I) -> HashMap<K, u64> {
    let mut m = HashMap::new();
    for k in items {
        *m.entry(k).or_insert(0) += 1;
    }
    m
}

#[inline(never)]
fn merge<K: Ord + Clone>(into: &mut BTreeMap<K, u64>, from: &HashMap<K, u64>) {
    for (k, v) in from.iter() {
        *into.entry(k.clone()).or_insert(0) += v;
    }
}

#[inline(never)]
fn top<K: Ord + Clone>(m: &BTreeMap<K, u64>, k: usize) -> Vec<(u64, K)> {
    let mut v: Vec<(u64, K)> = m.iter().map(|(k, c)| (*c, k.clone())).collect();
    v.sort_unstable_by(|a, b| b.cmp(a));
    v.truncate(k);
    v
}

#[inline(never)]
fn round(seed: u64, total: &mut BTreeMap<String, u64>) -> u64 {
    let w = words(seed, 20000);
    let counts = count(w.iter().cloned());
    merge(total, &counts);
    top(total, 10).iter().map(|(c, _)| c).sum()
}

fn main() {
    let ms: u64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(300);
    let end = cpu_ms() + ms as f64;
    let mut total = BTreeMap::new();
    let mut acc = 0u64;
    let mut seed = 1u64;
    while cpu_ms() < end {
        acc ^= round(seed, &mut total);
        seed += 1;
    }
    println!("{}", acc & 1);
}
