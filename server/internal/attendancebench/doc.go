// Package attendancebench holds the attendance benchmarks of `make bench`:
// a school year of attendance (about 3 million rows) generated in the
// benchmark's own database, a whole school day pushed through the journal
// API against the bare SQL upsert of the same rows, a class-form save, and
// the recaps and calendars read with the full year present. It has no code
// outside its tests. See docs/attendance.md, "Benchmarks".
package attendancebench
