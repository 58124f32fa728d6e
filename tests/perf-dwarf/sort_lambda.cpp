// sort_lambda.cpp - std::sort with a lambda comparator at -O2: the sort's helpers and the
// lambda are inlined into the out-of-line __introsort_loop, and std::sort and __sort into
// main, for the inline-truth test.  Usage: sort_lambda [ROUNDS]  (default 200).
#include <algorithm>
#include <cstdlib>
#include <vector>
struct P { double k; int id; };
int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 200;
	std::vector<P> v(20000);
	unsigned s = 1;
	long sum = 0;
	for (int r = 0; r < n; r++) {
		for (auto &p : v) { s = s * 1103515245u + 12345u; p.k = (s >> 8) % 100000; p.id = (int)s; }
		std::sort(v.begin(), v.end(), [](const P &a, const P &b) { return a.k < b.k; });
		sum += v[0].id;
	}
	return (int)(sum & 1);
}
