// Package demo loads the demo school (TATIB_DEMO, on by default) through
// the features' exported functions: its students and users, a semester of
// violations, then the journal's attendance of the last school days. Each
// part loads once, into a database without real data.
package demo

import (
	"context"
	"os"

	"github.com/tatib/tatib/server/internal/app"
)

// Load loads the demo school and its data; boot calls it after the real
// start-up steps when the demo is on. The users' passwords go to the
// terminal (stderr).
func Load(ctx context.Context, d app.Deps) error {
	if err := Types(ctx, d); err != nil {
		return err
	}
	if _, err := LoadSchool(ctx, d.DB, d.Log, os.Stderr, SchoolOptions{}); err != nil {
		return err
	}
	if _, err := LoadViolations(ctx, d.DB, d.Log, ViolationOptions{}); err != nil {
		return err
	}
	_, err := LoadAttendance(ctx, d.DB, d.Log, AttendanceOptions{})
	return err
}
