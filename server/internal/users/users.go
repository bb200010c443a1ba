// Package users manages Tatib accounts: list, create, edit, deactivate or
// delete, and the admin's password reset.
package users

import (
	"net/mail"
	"regexp"
	"strings"
	"unicode"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/auth"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

// CreateInput is a new user, as POST /users reads it.
type CreateInput = api.UserCreate

// UpdateInput changes a user, as PATCH /users/{id} reads it; absent fields
// stay as they are.
type UpdateInput = api.UserUpdate

// ResetPasswordInput is an admin's password reset for another user.
type ResetPasswordInput struct {
	Password             string `json:"password"`
	PasswordConfirmation string `json:"password_confirmation"`
}

var (
	usernameRE = regexp.MustCompile(`^[a-zA-Z0-9._-]{3,50}$`)
	phoneRE    = regexp.MustCompile(`^\+?[0-9 ()-]{6,20}$`)
)

func normalizeCreate(in *CreateInput) {
	in.Username = strings.TrimSpace(in.Username)
	in.Name = strings.TrimSpace(in.Name)
	in.Email = strings.TrimSpace(in.Email)
	in.Phone = strings.TrimSpace(in.Phone)
	in.NIP = normalizeNIP(in.NIP)
}

// validateCreate checks a new user field by field.
func validateCreate(in CreateInput) error {
	f := apperr.Fields{}
	validateUsername(f, in.Username)
	validateName(f, in.Name)
	validateRole(f, in.Role)
	validateContact(f, in.Email, in.Phone)
	validateNIP(f, in.NIP)
	switch {
	case in.Password == "":
		f.Add("password", "users.password_required")
	case len([]rune(in.Password)) < auth.MinPasswordLength:
		f.Add("password", "users.password_too_short", "min", auth.MinPasswordLength)
	case len(in.Password) > 72:
		f.Add("password", "users.password_too_long", "max", 72)
	}
	return f.Err()
}

// validateUpdate checks the fields that are present (trimmed in place).
func validateUpdate(in *UpdateInput) error {
	f := apperr.Fields{}
	if in.Username != nil {
		*in.Username = strings.TrimSpace(*in.Username)
		validateUsername(f, *in.Username)
	}
	if in.Name != nil {
		*in.Name = strings.TrimSpace(*in.Name)
		validateName(f, *in.Name)
	}
	if in.Role != nil {
		validateRole(f, *in.Role)
	}
	email, phone := "", ""
	if in.Email != nil {
		*in.Email = strings.TrimSpace(*in.Email)
		email = *in.Email
	}
	if in.Phone != nil {
		*in.Phone = strings.TrimSpace(*in.Phone)
		phone = *in.Phone
	}
	validateContact(f, email, phone)
	if in.NIP != nil {
		*in.NIP = normalizeNIP(*in.NIP)
		validateNIP(f, *in.NIP)
	}
	return f.Err()
}

var nipRE = regexp.MustCompile(`^[0-9]{18}$`)

// normalizeNIP drops the spaces, dots and dashes people type to group a
// NIP's 18 digits ("19800101 200501 2 003"), as the school profile does.
func normalizeNIP(v string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || r == '.' || r == '-' {
			return -1
		}
		return r
	}, v)
}

func validateNIP(f apperr.Fields, nip string) {
	if nip != "" && !nipRE.MatchString(nip) {
		f.Add("nip", "users.nip_invalid")
	}
}

func validateUsername(f apperr.Fields, u string) {
	switch {
	case u == "":
		f.Add("username", "users.username_required")
	case !usernameRE.MatchString(u):
		f.Add("username", "users.username_format")
	}
}

func validateName(f apperr.Fields, n string) {
	switch {
	case n == "":
		f.Add("name", "users.name_required")
	case len([]rune(n)) > 150:
		f.Add("name", "users.name_too_long", "max", 150)
	}
}

func validateRole(f apperr.Fields, r perm.Role) {
	if r == "" {
		f.Add("role", "users.role_required")
		return
	}
	if !r.Valid() {
		f.Add("role", "users.role_invalid")
	}
}

func validateContact(f apperr.Fields, email, phone string) {
	if email != "" {
		if a, err := mail.ParseAddress(email); err != nil || a.Address != email {
			f.Add("email", "users.email_invalid")
		}
	}
	if phone != "" && !phoneRE.MatchString(phone) {
		f.Add("phone", "users.phone_invalid")
	}
}
