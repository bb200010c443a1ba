package auth

import (
	"crypto/rand"
	"fmt"
	"sync"

	"golang.org/x/crypto/bcrypt"
)

// MinPasswordLength is the spec's minimum for a reset password, applied to
// every password.
const MinPasswordLength = 6

// PasswordCost is the bcrypt cost of new hashes. Tests lower it (apitest)
// because bcrypt under the race detector is slow; production keeps the
// default.
var PasswordCost = bcrypt.DefaultCost

// HashPassword returns the bcrypt hash of pw.
func HashPassword(pw string) (string, error) {
	b, err := bcrypt.GenerateFromPassword([]byte(pw), PasswordCost)
	if err != nil {
		return "", fmt.Errorf("auth: hash password: %w", err)
	}
	return string(b), nil
}

// CheckPassword reports whether pw matches hash.
func CheckPassword(hash, pw string) bool {
	return bcrypt.CompareHashAndPassword([]byte(hash), []byte(pw)) == nil
}

// dummyHash is compared against when the user does not exist, so a wrong
// username takes as long as a wrong password.
func dummyHash() string {
	dummyOnce.Do(func() { dummy, _ = HashPassword("tatib-no-such-user") })
	return dummy
}

var (
	dummyOnce sync.Once
	dummy     string
)

// RandomPassword returns a readable random password of n characters.
func RandomPassword(n int) string {
	const alphabet = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"
	b := make([]byte, n)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b)
}
