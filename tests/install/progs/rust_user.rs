// rust_user.rs - libtephra from Rust through a plain extern "C" block (no bindgen, no
// crate), built by tests/install/rust.test.sh with rustc and `pkg-config --libs tephra`.
// The same three-function guest as trace_user.c; the profile worked out by hand from
// include/tephra/trace.h: _start 3+1, main 5+2, work 10.  The folded lines come through
// the callback into a Rust String.
use std::ffi::CStr;
use std::os::raw::{c_char, c_int, c_void};

#[repr(C)]
struct TraceSymbol {
    start: u64,
    size: u64,
    name: *const c_char,
    binding: c_int,
}

enum Trace {}

const TEPHRA_CALL: c_int = 0;
const TEPHRA_RETURN: c_int = 2;
const TEPHRA_SYM_GLOBAL: c_int = 2;

type FoldedFn = extern "C" fn(*mut c_void, *const c_char, usize, u64) -> c_int;

#[link(name = "tephra")]
extern "C" {
    fn tephra_version(major: *mut c_int, minor: *mut c_int, patch: *mut c_int) -> *const c_char;
    fn tephra_trace_new(syms: *const TraceSymbol, nsyms: usize, opts: *const c_void) -> *mut Trace;
    fn tephra_trace_charge(t: *mut Trace, pc: u64, count: u64);
    fn tephra_trace_transfer(t: *mut Trace, from: u64, to: u64, kind: c_int) -> c_int;
    fn tephra_trace_each_folded(t: *mut Trace, f: FoldedFn, ctx: *mut c_void) -> c_int;
    fn tephra_trace_free(t: *mut Trace);
}

extern "C" fn collect(ctx: *mut c_void, stack: *const c_char, len: usize, count: u64) -> c_int {
    let out = unsafe { &mut *(ctx as *mut String) };
    let bytes = unsafe { std::slice::from_raw_parts(stack as *const u8, len) };
    out.push_str(&format!("{} {}\n", String::from_utf8_lossy(bytes), count));
    0
}

fn main() {
    let version = unsafe { CStr::from_ptr(tephra_version(std::ptr::null_mut(), std::ptr::null_mut(), std::ptr::null_mut())) };
    println!("version {}", version.to_str().unwrap());
    let names = [b"_start\0".as_ptr(), b"main\0".as_ptr(), b"work\0".as_ptr()];
    let syms = [
        TraceSymbol { start: 0x1000, size: 0x10, name: names[0] as *const c_char, binding: TEPHRA_SYM_GLOBAL },
        TraceSymbol { start: 0x1010, size: 0x20, name: names[1] as *const c_char, binding: TEPHRA_SYM_GLOBAL },
        TraceSymbol { start: 0x1030, size: 0x10, name: names[2] as *const c_char, binding: TEPHRA_SYM_GLOBAL },
    ];
    let mut folded = String::new();
    unsafe {
        let t = tephra_trace_new(syms.as_ptr(), syms.len(), std::ptr::null());
        assert!(!t.is_null());
        tephra_trace_charge(t, 0x1000, 3);
        tephra_trace_transfer(t, 0x1008, 0x1010, TEPHRA_CALL);
        tephra_trace_charge(t, 0x1010, 5);
        tephra_trace_transfer(t, 0x1020, 0x1030, TEPHRA_CALL);
        tephra_trace_charge(t, 0x1030, 10);
        tephra_trace_transfer(t, 0x103c, 0x1024, TEPHRA_RETURN);
        tephra_trace_charge(t, 0x1024, 2);
        tephra_trace_transfer(t, 0x1028, 0x100c, TEPHRA_RETURN);
        tephra_trace_charge(t, 0x100c, 1);
        let rc = tephra_trace_each_folded(t, collect, &mut folded as *mut String as *mut c_void);
        assert_eq!(rc, 0);
        tephra_trace_free(t);
    }
    print!("{}", folded);
    if folded != "_start 4\n_start;main 7\n_start;main;work 10\n" {
        eprintln!("rust_user: the profile differs from the hand-worked one");
        std::process::exit(1);
    }
}
