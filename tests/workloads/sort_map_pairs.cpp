// sort_map_pairs.cpp - the C++ template-heavy shape (bench/perf-cxx.sh,
// tests/perf-dwarf/a2l_index.test.sh): std::sort, std::stable_sort, std::map, std::set
// and std::unordered_map over std::pair<std::string, int> and a few other element
// types, all in this one compile unit, so that the unit's DWARF holds thousands of
// inlined subroutines (what makes naming inline frames costly).  Built -O2 -g by its
// users.  Usage: sort_map_pairs [MILLISECONDS]  (default 1000).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

using Pair = std::pair<std::string, int>;

static unsigned next_random(unsigned &seed)
{
	seed = seed * 1103515245u + 12345u;
	return seed >> 8;
}

static std::vector<Pair> make_pairs(unsigned &seed, int n)
{
	std::vector<Pair> v;
	v.reserve((size_t)n);
	for (int i = 0; i < n; i++)
		v.emplace_back("k" + std::to_string(next_random(seed) % 100000), (int)next_random(seed));
	return v;
}

template <typename Less>
static long sort_and_count(std::vector<Pair> v, Less less)
{
	std::sort(v.begin(), v.end(), less);
	std::map<std::string, int> m;
	for (const auto &p : v)
		m[p.first] += p.second;
	return (long)m.size() + v[v.size() / 2].second;
}

static long stable_pass(std::vector<Pair> v)
{
	std::stable_sort(v.begin(), v.end(),
			 [](const Pair &a, const Pair &b) { return a.second % 1000 < b.second % 1000; });
	std::set<Pair> s(v.begin(), v.end());
	return (long)s.size() + s.begin()->second;
}

static long hashed_pass(const std::vector<Pair> &v)
{
	std::unordered_map<std::string, std::vector<int>> h;
	for (const auto &p : v)
		h[p.first].push_back(p.second);
	long n = 0;
	for (const auto &e : h)
		n += (long)e.second.size() * (e.first.size() & 3);
	return n;
}

static long tuple_pass(unsigned &seed)
{
	std::vector<std::tuple<int, std::string, double>> t;
	for (int i = 0; i < 5000; i++) {
		std::ostringstream os;
		os << "t" << next_random(seed) % 5000;
		t.emplace_back((int)(next_random(seed) % 100), os.str(), next_random(seed) / 7.0);
	}
	std::sort(t.begin(), t.end());
	std::deque<std::string> d;
	for (const auto &e : t)
		if (std::get<0>(e) < 10)
			d.push_back(std::get<1>(e));
	std::sort(d.begin(), d.end(), std::greater<std::string>());
	return (long)d.size();
}

int main(int argc, char **argv)
{
	double ms = argc > 1 ? atof(argv[1]) : 1000;
	auto end = std::chrono::steady_clock::now() + std::chrono::microseconds((long)(ms * 1000));
	unsigned seed = 12345;
	long sum = 0;
	while (std::chrono::steady_clock::now() < end) {
		std::vector<Pair> v = make_pairs(seed, 20000);
		sum += sort_and_count(v, [](const Pair &a, const Pair &b) {
			return a.first < b.first || (a.first == b.first && a.second < b.second);
		});
		sum += sort_and_count(v, std::greater<Pair>());
		sum += stable_pass(v);
		sum += hashed_pass(v);
		sum += tuple_pass(seed);
	}
	std::printf("%ld\n", sum % 7);
	return 0;
}
