// registry.cpp - a member function template of a class template in nested namespaces,
// inlined into main with std::map's operator[] inlined into it, for the inline-truth
// test: its frame is the qualified name c++filt gives its linkage name
// (tb::bench::Registry<int>::upsert<double>(int, double)).  Usage: registry [N].
#include <cstdlib>
#include <map>
namespace tb { namespace bench {
template <class K> struct Registry {
	std::map<K, long> m;
	template <class V> inline void upsert(K k, V v) { m[k] += (long)v; }
};
} }
int main(int argc, char **argv)
{
	tb::bench::Registry<int> r;
	int n = argc > 1 ? atoi(argv[1]) : 3000000;
	unsigned s = 1;
	for (int i = 0; i < n; i++) { s = s * 1103515245u + 12345u; r.upsert(s % 5000, 1.5); }
	return (int)r.m.size() & 1;
}
