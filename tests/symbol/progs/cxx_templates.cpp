// Test program: C++ namespaces, templates, overloads, exceptions; burns CPU in each.
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <vector>

namespace geo {
template <typename T> struct Grid {
	std::vector<T> cells;
	explicit Grid(size_t n) : cells(n) {}
	__attribute__((noinline)) T sum(int rounds) const {
		T s = 0;
		for (int r = 0; r < rounds; r++)
			for (const T &c : cells)
				s += c * (T)r;
		return s;
	}
};
__attribute__((noinline)) long scale(long v, int k) { return v * k + (v >> 3); }
__attribute__((noinline)) double scale(double v, int k) { return v * k + v / 3.0; }
} // namespace geo

__attribute__((noinline)) static long thrower(long n) {
	if (n % 7 == 3)
		throw std::runtime_error("odd");
	return n * 2;
}

int main(int argc, char **argv) {
	int rounds = argc > 1 ? atoi(argv[1]) : 2000;
	geo::Grid<long> gl(20000);
	geo::Grid<double> gd(20000);
	for (size_t i = 0; i < gl.cells.size(); i++) { gl.cells[i] = (long)i; gd.cells[i] = (double)i; }
	long a = gl.sum(rounds);
	double b = gd.sum(rounds);
	long c = 0;
	for (long i = 0; i < rounds * 2000L; i++) {
		c += geo::scale(i, 3) + (long)geo::scale((double)i, 2);
		try { c += thrower(i); } catch (const std::exception &) { c--; }
	}
	printf("%ld %f %ld\n", a, b, c);
	return 0;
}
