// spin.rs - a workload for the perf oracle tests: Rust frames (v0/legacy mangled names,
// generics).  Usage: spin [MILLISECONDS of CPU time]  (default 300).

// MILLISECONDS are of this thread's CPU time, as cpu_ms.h explains for the C workloads.
#[repr(C)]
struct Timespec {
    tv_sec: i64,
    tv_nsec: i64,
}
extern "C" {
    fn clock_gettime(clock: i32, ts: *mut Timespec) -> i32;
}
const CLOCK_THREAD_CPUTIME_ID: i32 = 3;

fn cpu_ms() -> f64 {
    let mut ts = Timespec { tv_sec: 0, tv_nsec: 0 };
    unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.tv_sec as f64 * 1e3 + ts.tv_nsec as f64 / 1e6
}

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
    let end = cpu_ms() + ms as f64;
    let mut acc = 0u64;
    let mut i = 0u32;
    // the clock is read rarely: its system call's frames stay out of the profile
    while cpu_ms() < end {
        for _ in 0..64 {
            acc ^= outer(i);
            i = i.wrapping_add(1);
        }
    }
    println!("{}", acc & 1);
}
