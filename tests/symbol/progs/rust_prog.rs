// Rust test program: generic and trait methods in a module, burning CPU.
// A volatile read, not std::hint::black_box, keeps the loop honest: black_box is stable
// only since rustc 1.66 and Debian 12 has 1.63.
mod shapes {
    pub trait Area { fn area(&self) -> f64; }
    pub struct Square(pub f64);
    impl Area for Square {
        #[inline(never)]
        fn area(&self) -> f64 { let mut s = 0.0; for i in 0..2000 { s += unsafe { std::ptr::read_volatile(&self.0) } * (i as f64).sqrt(); } s }
    }
    #[inline(never)]
    pub fn total<T: Area>(items: &[T]) -> f64 { items.iter().map(|x| x.area()).sum() }
}

fn main() {
    let n: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(3000);
    let v: Vec<shapes::Square> = (0..100).map(|i| shapes::Square(i as f64)).collect();
    let mut t = 0.0;
    for _ in 0..n { t += shapes::total(&v); }
    println!("{}", t);
}
