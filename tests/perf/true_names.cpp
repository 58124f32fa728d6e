// true_names.cpp - hot functions whose names stackcollapse-perf.pl mangles: two function
// objects whose handlers differ only after a '(' (std::function<double (double)> and
// std::function<double (long)>), a user-defined literal operator"" _w (quotes), and two
// overloads spin(int) and spin(double) that perf prints alike ("spin").
// Usage: true_names [ROUNDS]; the tests run it under a one-letter name.
#include <cstdlib>
#include <functional>

static volatile double sink;

__attribute__((noinline)) unsigned long long operator"" _w(unsigned long long n)
{
	double s = 0;
	for (unsigned long long i = 0; i < n * 1000; i++)
		s += (double)i;
	sink = s;
	return n;
}

__attribute__((noinline)) double spin(int n)
{
	double s = 0;
	for (int i = 0; i < n; i++)
		s += i * 0.5;
	return s;
}

__attribute__((noinline)) double spin(double n)
{
	double s = 0;
	for (int i = 0; i < (int)n; i++)
		s += i * 0.25;
	return s;
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 200;
	std::function<double (double)> by_double = [](double x) {
		double s = 0;
		for (int i = 0; i < (int)x; i++)
			s += i;
		return s;
	};
	std::function<double (long)> by_long = [](long x) {
		double s = 0;
		for (long i = 0; i < x; i++)
			s += (double)i * 0.5;
		return s;
	};
	for (long r = 0; r < rounds; r++) {
		sink = by_double(200000.0);
		sink = by_long(200000);
		sink = (double)(200_w);
		sink = spin(200000);
		sink = spin(200000.0);
	}
	return 0;
}
