// gosort.go - sort.Ints, which the Go compiler inlines into main.sorter, for the
// inline-truth test (llvm-symbolizer and go tool pprof: main.sorter;sort.Ints (inline)).
// Usage: gosort [ROUNDS]  (default 100).
package main

import (
	"fmt"
	"os"
	"sort"
	"strconv"
)

func sorter(v []int, rounds int) int {
	s := uint32(1)
	sum := 0
	for r := 0; r < rounds; r++ {
		for i := range v {
			s = s*1103515245 + 12345
			v[i] = int(s >> 8)
		}
		sort.Ints(v)
		sum += v[0]
	}
	return sum
}

func main() {
	n := 100
	if len(os.Args) > 1 {
		n, _ = strconv.Atoi(os.Args[1])
	}
	fmt.Println(sorter(make([]int, 20000), n))
}
