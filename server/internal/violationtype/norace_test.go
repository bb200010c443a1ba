//go:build !race

package violationtype_test

const raceDetector = false
