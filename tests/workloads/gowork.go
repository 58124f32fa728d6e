// gowork.go - a Go workload for tests/perf-dwarf/go.test.sh and bench/perf-go.sh: the
// main goroutine fills a map with formatted keys, sorts them and mixes the values, through
// functions kept out of line so that every stack reads
// main.mix <- main.hashKeys/main.work <- main.work <- main.main <- runtime.main <-
// runtime.goexit (plus the runtime's map, sort and strconv frames).  Built with Debian's
// golang-go: `go build -o gowork gowork.go` (GO111MODULE=off, no module needed).
// Usage: gowork [MILLISECONDS of CPU time]  (default 300).
package main

import (
	"fmt"
	"os"
	"sort"
	"strconv"
	"syscall"
)

// cpuMs is the process's CPU time, not the wall clock: the amount of work, hence the
// number of cpu-clock samples, does not depend on the machine's load (as cpu_ms.h).
func cpuMs() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e6
}

//go:noinline
func mix(x uint64, rounds int) uint64 {
	for i := 0; i < rounds; i++ {
		x = x*0x9E3779B97F4A7C15 ^ (x >> 29)
	}
	return x
}

//go:noinline
func hashKeys(n int, seed uint64) map[string]uint64 {
	m := make(map[string]uint64)
	for i := 0; i < n; i++ {
		m[strconv.FormatUint(mix(seed+uint64(i), 40), 36)] += uint64(i)
	}
	return m
}

//go:noinline
func sortedKeys(m map[string]uint64) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

//go:noinline
func work(seed uint64) uint64 {
	m := hashKeys(2000, seed)
	var acc uint64
	for _, k := range sortedKeys(m) {
		acc ^= mix(m[k], 400)
	}
	return acc
}

func main() {
	ms := 300.0
	if len(os.Args) > 1 {
		if v, err := strconv.Atoi(os.Args[1]); err == nil {
			ms = float64(v)
		}
	}
	end := cpuMs() + ms
	var acc, seed uint64
	for cpuMs() < end {
		acc ^= work(seed)
		seed++
	}
	fmt.Println(acc & 1)
}
