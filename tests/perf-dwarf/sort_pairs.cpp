// sort_pairs.cpp - std::sort of std::pair<std::string, int> with a lambda comparator, and
// a std::map, for the fold invariants test.  With the lambda in the template arguments
// g++ gives the sort's functions no DW_AT_linkage_name, so addr2line names them by
// memory (the first question about a function takes its ELF symbol, later ones its
// DW_AT_name): the recursive __introsort_loop shows either name depending on the order
// of the questions.  Usage: sort_pairs [MILLISECONDS]  (default 300) of CPU time, not
// wall time: a loaded machine stretches the run, the recording keeps its samples.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <utility>
#include <vector>
#include "../workloads/cpu_ms.h"

int main(int argc, char **argv)
{
	double ms = argc > 1 ? atof(argv[1]) : 300;
	double end = cpu_ms() + ms;
	unsigned seed = 12345;
	long sum = 0;
	while (cpu_ms() < end) {
		std::vector<std::pair<std::string, int>> v;
		std::map<std::string, int> m;
		for (int i = 0; i < 20000; i++) {
			seed = seed * 1103515245u + 12345u;
			v.emplace_back("k" + std::to_string(seed % 100000), (int)(seed >> 16));
		}
		std::sort(v.begin(), v.end(), [](const std::pair<std::string, int> &a,
						  const std::pair<std::string, int> &b) {
			return a.first < b.first || (a.first == b.first && a.second < b.second);
		});
		for (const auto &p : v)
			m[p.first] += p.second;
		sum += (long)m.size() + v[v.size() / 2].second;
	}
	std::printf("%ld\n", sum % 7);
	return 0;
}
