package api

import "github.com/tatib/tatib/shared/perm"

// UserWithClass is an account as the users screens show it: with the
// class its homeroom teacher looks after.
type UserWithClass struct {
	User
	HomeroomClass *UserClass `json:"homeroom_class" jsonschema_description:"the class this user is homeroom teacher of"`
	// NIP is the teacher's civil-service number (18 digits) or "": a
	// warning letter prints it under the homeroom teacher's signature.
	NIP string `json:"nip" jsonschema_description:"18 digits or empty"`
}

// UserClass names the class a user is homeroom teacher of.
type UserClass struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// UserCreate is a new user (POST /users). Every text is trimmed before
// the checks.
type UserCreate struct {
	Username string    `json:"username" jsonschema:"required,pattern=^[a-zA-Z0-9._-]{3\\,50}$"`
	Name     string    `json:"name" jsonschema:"required,maxLength=150"`
	Role     perm.Role `json:"role" jsonschema:"required" openapi:"Role"`
	Email    string    `json:"email"`
	Phone    string    `json:"phone"`
	Password string    `json:"password" jsonschema:"required,minLength=6"`
	// NIP is optional: 18 digits, typed with or without spaces, dots or
	// dashes.
	NIP string `json:"nip" jsonschema:"pattern=^([0-9]{18})?$" jsonschema_description:"optional civil-service number, printed under the homeroom teacher's signature on a warning letter; spaces, dots and dashes are removed before the check"`
}

// UserUpdate changes a user (PATCH /users/{id}); absent fields stay as
// they are.
type UserUpdate struct {
	Username *string    `json:"username" jsonschema:"pattern=^[a-zA-Z0-9._-]{3\\,50}$"`
	Name     *string    `json:"name" jsonschema:"maxLength=150"`
	Role     *perm.Role `json:"role" openapi:"Role"`
	Email    *string    `json:"email"`
	Phone    *string    `json:"phone"`
	NIP      *string    `json:"nip" jsonschema:"pattern=^([0-9]{18})?$" jsonschema_description:"optional civil-service number, printed under the homeroom teacher's signature on a warning letter; spaces, dots and dashes are removed before the check"`
	Active   *bool      `json:"active"`
	// ReleaseClass lets a homeroom teacher who stops being one (another
	// role, deactivated) leave their class without a homeroom teacher;
	// without it such a change is refused naming the class.
	ReleaseClass bool `json:"release_class" jsonschema_description:"a homeroom teacher leaving the role or deactivated: leave their class without a homeroom teacher"`
}
