// Package api holds the wire types of Tatib's JSON API shared by the server,
// the desktop app and tools.
package api

import (
	"time"

	"github.com/tatib/tatib/shared/perm"
)

// Error codes of the API. Each maps to one HTTP status.
const (
	CodeInvalid              = "invalid"                // 422
	CodeBadRequest           = "bad_request"            // 400
	CodeUnauthorized         = "unauthorized"           // 401
	CodeForbidden            = "forbidden"              // 403
	CodeNotFound             = "not_found"              // 404
	CodeMethodNotAllowed     = "method_not_allowed"     // 405
	CodeConflict             = "conflict"               // 409
	CodeTooLarge             = "too_large"              // 413
	CodeUnsupportedMediaType = "unsupported_media_type" // 415
	CodeRequestTimeout       = "timeout"                // 408
	CodeRateLimited          = "rate_limited"           // 429
	CodeInternal             = "internal"               // 500
	CodeUnavailable          = "unavailable"            // 503
)

// ErrorBody is the body of every API error: {"error":{...}}.
type ErrorBody struct {
	Error ErrorDetail `json:"error"`
}

// ErrorDetail names the code, a message for people and field errors. The
// messages are rendered in the request's language (Accept-Language,
// Indonesian by default); MessageCode and FieldCodes carry the stable
// catalogue keys and their parameters for programs.
type ErrorDetail struct {
	Code        string               `json:"code" jsonschema:"enum=invalid,enum=bad_request,enum=unauthorized,enum=forbidden,enum=not_found,enum=method_not_allowed,enum=conflict,enum=too_large,enum=unsupported_media_type,enum=timeout,enum=rate_limited,enum=internal,enum=unavailable" jsonschema_description:"decides the HTTP status: invalid 422, bad_request 400, unauthorized 401, forbidden 403, not_found 404, method_not_allowed 405 (with Allow), conflict 409, too_large 413, unsupported_media_type 415 (a body that is not application/json or application/*+json), rate_limited 429 (with Retry-After), internal 500, unavailable 503 (the database cannot be reached; try again)"`
	Message     string               `json:"message" jsonschema_description:"for people, in the request's language (Accept-Language)"`
	MessageCode string               `json:"message_code,omitempty" jsonschema_description:"stable catalogue key of message"`
	Params      map[string]any       `json:"params,omitempty" jsonschema_description:"parameters of message_code"`
	Fields      map[string]string    `json:"fields,omitempty" jsonschema_description:"field (or query parameter) name to message"`
	FieldCodes  map[string]MessageID `json:"field_codes,omitempty"`
}

// MessageID is a stable message key with its parameters.
type MessageID struct {
	Code   string         `json:"code"`
	Params map[string]any `json:"params,omitempty"`
}

// User is a Tatib account.
type User struct {
	ID          int64      `json:"id" db:"id"`
	Username    string     `json:"username" db:"username"`
	Name        string     `json:"name" db:"name"`
	Role        perm.Role  `json:"role" db:"role" openapi:"Role"`
	Email       string     `json:"email" db:"email"`
	Phone       string     `json:"phone" db:"phone"`
	Active      bool       `json:"active" db:"active"`
	LastLoginAt *time.Time `json:"last_login_at" db:"last_login_at" jsonschema:"format=date-time"`
	CreatedAt   time.Time  `json:"created_at" db:"created_at" jsonschema:"format=date-time"`
	UpdatedAt   time.Time  `json:"updated_at" db:"updated_at" jsonschema:"format=date-time"`
}

// LoginRequest signs a user in.
type LoginRequest struct {
	Username string `json:"username"`
	Password string `json:"password"`
	// DeviceToken is the token of a device that signed in before: failures
	// from elsewhere do not lock it out. A browser sends it as the HttpOnly
	// cookie tatib_device instead; a client that keeps it itself (the
	// desktop app) sends it here, "" for "give me one", and gets it back in
	// LoginResponse.DeviceToken.
	DeviceToken *string `json:"device_token,omitempty"`
}

// Me is the signed-in user with the role's permission names.
type Me struct {
	User        User        `json:"user"`
	Permissions []perm.Name `json:"permissions"`
}

// LoginResponse answers a successful sign-in.
type LoginResponse struct {
	User        User        `json:"user"`
	Permissions []perm.Name `json:"permissions"`
	Token       string      `json:"token" jsonschema_description:"Send as Authorization: Bearer <token>"`
	ExpiresAt   time.Time   `json:"expires_at" jsonschema:"format=date-time"`
	// DeviceToken answers a request that carried device_token: this
	// device's token for the next sign-ins.
	DeviceToken string `json:"device_token,omitempty" jsonschema_description:"Only when the request carried device_token: this device's token for the next sign-ins."`
}

// PageMeta describes one page of a list.
type PageMeta struct {
	Page     int `json:"page"`
	PerPage  int `json:"per_page"`
	Total    int `json:"total"`
	LastPage int `json:"last_page"`
}

// Page is a list answer.
type Page[T any] struct {
	Data []T      `json:"data"`
	Meta PageMeta `json:"meta"`
}

// List is an unpaged list answer.
type List[T any] struct {
	Data []T `json:"data"`
}

// RoleInfo is a role with its current permission names.
type RoleInfo struct {
	Role        perm.Role   `json:"role" openapi:"Role"`
	Label       string      `json:"label"`
	Locked      bool        `json:"locked"`
	Permissions []perm.Name `json:"permissions"`
}
