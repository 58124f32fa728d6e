// templates.cpp - a workload for the perf oracle tests: C++ templates, a namespace, an
// anonymous namespace, a lambda and exceptions, so demangled names of every shape show up
// in the recorded stacks.  Usage: templates [MILLISECONDS of CPU time]  (default 300).
#include <cstdio>
#include <cstdlib>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "cpu_ms.h"

namespace work {
template <typename T> struct Accumulator {
	T total{};
	__attribute__((noinline)) void add(const std::vector<T> &v)
	{
		for (const T &x : v)
			total += x * x;
	}
};

template <typename K, typename V>
__attribute__((noinline)) V lookup_all(const std::map<K, V> &m, int rounds)
{
	V sum{};
	for (int r = 0; r < rounds; r++)
		for (const auto &kv : m)
			sum += kv.second;
	return sum;
}
} // namespace work

namespace {
__attribute__((noinline)) int may_throw(int i)
{
	// about as much work as the rest of the loop's body: a good share of the samples is
	// in this anonymous-namespace function by construction (it once got none)
	volatile int spin = 0;
	for (int k = 0; k < 1000; k++)
		spin = spin + k;
	if (i % 64 == 0)
		throw std::runtime_error("every 64th");
	return i;
}
} // namespace

int main(int argc, char **argv)
{
	double ms = argc > 1 ? atof(argv[1]) : 300;
	double end = cpu_ms() + ms;
	work::Accumulator<double> acc;
	std::vector<double> v(2000, 1.5);
	std::map<std::string, long> m;
	for (int i = 0; i < 200; i++)
		m["key" + std::to_string(i)] = i;
	long caught = 0, total = 0;
	auto body = [&](int i) {
		try {
			total += may_throw(i);
		} catch (const std::exception &) {
			caught++;
		}
	};
	int i = 0;
	// the clock is read rarely: its system call's frames stay out of the profile
	while (cpu_ms() < end) {
		for (int k = 0; k < 1024; k++) {
			acc.add(v);
			total += work::lookup_all(m, 4);
			body(i++);
		}
	}
	std::printf("%ld %ld %d\n", caught % 2, total % 2, (int)acc.total % 2);
	return 0;
}
