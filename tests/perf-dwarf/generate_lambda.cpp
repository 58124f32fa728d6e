// A lambda called through std::generate_n, as in KDAB perfparser's cpp-inlining test
// program: at -O2 both are inlined into main, so perf 6.1 prints
// `generate_n<..., main(int, char**)::<lambda()> >+0x.. (inlined)` above `main+0x..`.
// Fixed work (no clock): the sample count depends on CPU time only.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? std::atoi(argv[1]) : 300;
	std::mt19937 engine(42);
	std::uniform_real_distribution<double> dist;
	std::vector<double> values(1 << 16);
	double sum = 0;
	for (int r = 0; r < rounds; r++) {
		std::generate_n(values.begin(), values.size(), [&] { return dist(engine); });
		sum += values[r % values.size()];
	}
	std::printf("%f\n", sum);
	return 0;
}
