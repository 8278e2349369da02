// Package budget checks in tests that work grows linearly with its input,
// without a clock: it counts what the work allocates on an input of size n
// and on one of size 8n, and fails when the larger costs more than a linear
// share of the smaller, with room for buffers that double (up to twice the
// bytes at one size and not the other): a linear scanner costs at most 16
// times as much, a quadratic one 64 times. Run its checks from a test that
// is not parallel: the counts are the process's.
//
// It sees work that allocates: a scanner that goes quadratic without
// allocating (re-reading its input in place) passes it.
package budget

import (
	"runtime"
	"testing"
)

// Growth is the factor between the two input sizes.
const Growth = 8

// slack is how far past linear the larger input may go (buffers that
// double, maps that grow), and floor the allocation counts below which a
// check does not judge: a constant cost has no shape.
const (
	slack      = 2.5
	floorBytes = 64 << 10
	floorAlloc = 64
)

// Cost is what one call allocated.
type Cost struct{ Allocs, Bytes uint64 }

// Measure runs work once and returns what it allocated.
func Measure(work func()) Cost {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	work()
	runtime.ReadMemStats(&after)
	return Cost{Allocs: after.Mallocs - before.Mallocs, Bytes: after.TotalAlloc - before.TotalAlloc}
}

// Linear fails t when work on input(Growth*n) allocates more than slack
// times Growth times what it allocates on input(n), in count or in bytes.
func Linear(t testing.TB, n int, input func(n int) string, work func(string)) {
	t.Helper()
	small, large := input(n), input(Growth*n)
	work(small) // warm up: first-use tables and pools are not the input's
	a, b := Measure(func() { work(small) }), Measure(func() { work(large) })
	t.Logf("%d bytes: %d allocations, %d bytes allocated; %d bytes: %d, %d", len(small), a.Allocs, a.Bytes, len(large), b.Allocs, b.Bytes)
	if over(a.Allocs, b.Allocs, floorAlloc) {
		t.Errorf("%d allocations on %d bytes of input, %d on %d: more than linear", b.Allocs, len(large), a.Allocs, len(small))
	}
	if over(a.Bytes, b.Bytes, floorBytes) {
		t.Errorf("%d bytes allocated on %d bytes of input, %d on %d: more than linear", b.Bytes, len(large), a.Bytes, len(small))
	}
}

func over(small, large, floor uint64) bool {
	return large > floor && float64(large) > slack*Growth*float64(max(small, floor/Growth))
}
