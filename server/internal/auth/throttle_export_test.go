package auth

import "time"

// PasswordChecks returns how many password checks s has run.
func PasswordChecks(s *Service) int64 { return s.checks.Load() }

// HoldPasswordChecks takes every password-check slot of s until release is
// called.
func HoldPasswordChecks(s *Service) (release func()) {
	for range cap(s.checkSlots) {
		s.checkSlots <- struct{}{}
	}
	return func() {
		for range cap(s.checkSlots) {
			<-s.checkSlots
		}
	}
}

// SetClock makes s read the time from now.
func SetClock(s *Service, now func() time.Time) { s.now = now }
