//go:build race

package violationtype_test

// raceDetector is true in a -race build: the heap measurements skip there
// (instrumented, the largest import took a minute instead of 3 s) and
// `make test-go` runs them again without it.
const raceDetector = true
