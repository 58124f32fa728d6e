// cxxnames.cc - demangled C++ names fold as stackcollapse-perf.pl folds perf's:
// argument lists cut off, "(anonymous namespace)" kept.  Expected:
//   main;ns::S::run;work 2002   main;(anonymous namespace)::helper;work 4002
//   main;void ns::twice<long>;work 6002 (the demangler gives templates their return type)
#include "work.h"

namespace ns {
struct S {
	__attribute__((noinline)) void run(int n) { work(n); }
};
template <typename T> __attribute__((noinline)) void twice(T n) { work(n * 2); }
}

namespace {
__attribute__((noinline)) void helper(long n) { work(n); }
}

int main()
{
	ns::S s;
	s.run(1000);
	helper(2000);
	ns::twice<long>(1500);
	return 0;
}
