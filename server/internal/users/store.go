package users

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/auth"
	"github.com/tatib/tatib/server/internal/erasure"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

const columns = `id, username, name, role, email, phone, active, last_login_at, created_at, updated_at`

// userFields and userFrom read a user with the class they are homeroom
// teacher of (at most one: classes_homeroom_teacher_key).
const (
	userFields = `u.id, u.username, u.name, u.role, u.email, u.phone, u.active, u.last_login_at, u.created_at, u.updated_at,
		c.id AS class_id, c.name AS class_name, u.nip`
	userFrom   = ` FROM users u LEFT JOIN classes c ON c.homeroom_teacher_id = u.id`
	userSelect = `SELECT ` + userFields + userFrom
)

// User is an account as the users screens show it: with the class its
// homeroom teacher looks after.
type User = api.UserWithClass

// ClassRef names the class a user is homeroom teacher of.
type ClassRef = api.UserClass

type scanner interface{ Scan(dest ...any) error }

func scanUser(row scanner, extra ...any) (User, error) {
	var u User
	var classID sql.NullInt64
	var className sql.NullString
	dest := append([]any{&u.ID, &u.Username, &u.Name, &u.Role, &u.Email, &u.Phone, &u.Active, &u.LastLoginAt,
		&u.CreatedAt, &u.UpdatedAt, &classID, &className, &u.NIP}, extra...)
	if err := row.Scan(dest...); err != nil {
		return User{}, err
	}
	if classID.Valid {
		u.HomeroomClass = &ClassRef{ID: classID.Int64, Name: className.String}
	}
	return u, nil
}

// Store reads and writes users.
type Store struct {
	db *sqlx.DB
}

// NewStore returns a Store.
func NewStore(db *sqlx.DB) *Store { return &Store{db: db} }

// Caller is who asks for a change: the audit actor, whether they are an
// admin by role, and the roles they may give and look after.
type Caller struct {
	audit.Actor
	Admin bool
	// Roles are the roles whose permissions are all among the caller's
	// own (every role but admin for an admin): a caller cannot give, nor
	// take over through a password reset, more than they have.
	Roles map[perm.Role]bool
}

// Filter narrows a user list.
type Filter struct {
	Q      string
	Role   perm.Role
	Active *bool
}

// List returns one page of users matching f. The list is the whole
// school's, whoever asks: users.view is administrative (docs/decisions.md).
func (s *Store) List(ctx context.Context, f Filter, p httpx.Paging) ([]User, int, error) {
	const q = `SELECT ` + userFields + `, count(*) OVER () AS total` + userFrom + `
		WHERE ($1 = '' OR u.username ILIKE '%' || $1 || '%' OR u.name ILIKE '%' || $1 || '%' OR u.email ILIKE '%' || $1 || '%')
		  AND ($2 = '' OR u.role = $2)
		  AND ($3::boolean IS NULL OR u.active = $3)
		ORDER BY lower(u.name), u.id LIMIT $4 OFFSET $5`
	rows, err := s.db.QueryContext(ctx, q, f.Q, f.Role, f.Active, p.PerPage, p.Offset())
	if err != nil {
		return nil, 0, fmt.Errorf("users: list: %w", err)
	}
	defer rows.Close()
	out := []User{}
	total := 0
	for rows.Next() {
		u, err := scanUser(rows, &total)
		if err != nil {
			return nil, 0, fmt.Errorf("users: scan: %w", err)
		}
		out = append(out, u)
	}
	return out, total, rows.Err()
}

// Get returns one user.
func (s *Store) Get(ctx context.Context, q sqlx.QueryerContext, userID int64) (User, error) {
	u, err := scanUser(q.QueryRowxContext(ctx, userSelect+` WHERE u.id = $1`, userID))
	return u, pg.Error(err, "entity.user")
}

// Create stores a new user. Only an admin creates an admin; anyone else
// only gives roles within their own permissions.
func (s *Store) Create(ctx context.Context, c Caller, in CreateInput) (User, error) {
	normalizeCreate(&in)
	if err := validateCreate(in); err != nil {
		return User{}, err
	}
	if err := c.mayHandle(in.Role); err != nil {
		return User{}, err
	}
	hash, err := auth.HashPassword(in.Password)
	if err != nil {
		return User{}, err
	}
	var u User
	err = inTx(ctx, s.db, func(tx *sqlx.Tx) error {
		const q = `INSERT INTO users (username, name, role, email, phone, password_hash, nip)
			VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ` + columns
		u.NIP = in.NIP
		if err := tx.GetContext(ctx, &u.User, q, in.Username, in.Name, in.Role, in.Email, in.Phone, hash, in.NIP); err != nil {
			if pg.IsUnique(err, "users_username_key") {
				return apperr.New(apperr.Invalid, "form.invalid").WithField("username", "users.username_taken")
			}
			return fmt.Errorf("users: create: %w", err)
		}
		return audit.Record(ctx, tx, c.Actor, "user.create", "user", id(u.ID),
			map[string]any{"username": u.Username, "role": u.Role})
	})
	return u, err
}

// Update changes the present fields of user id. Deactivating ends the
// user's sessions. Nobody may deactivate or demote themselves, the last
// active admin stays, only an admin touches an admin, and a homeroom
// teacher leaves their class only when the request releases it.
func (s *Store) Update(ctx context.Context, c Caller, userID int64, in UpdateInput) (User, error) {
	if err := validateUpdate(&in); err != nil {
		return User{}, err
	}
	var u User
	err := inTx(ctx, s.db, func(tx *sqlx.Tx) error {
		admins, err := lockAdmins(ctx, tx)
		if err != nil {
			return err
		}
		before, err := s.getForUpdate(ctx, tx, userID)
		if err != nil {
			return err
		}
		after := before
		if in.Username != nil {
			after.Username = *in.Username
		}
		if in.Name != nil {
			after.Name = *in.Name
		}
		if in.Role != nil {
			after.Role = *in.Role
		}
		if in.Email != nil {
			after.Email = *in.Email
		}
		if in.Phone != nil {
			after.Phone = *in.Phone
		}
		if in.Active != nil {
			after.Active = *in.Active
		}
		nip, err := s.nip(ctx, tx, userID)
		if err != nil {
			return err
		}
		if in.NIP != nil {
			nip = *in.NIP
		}
		if err := c.mayTouch(admins, before.Role, after.Role); err != nil {
			return err
		}
		if userID == c.ID && (!after.Active || after.Role != before.Role) {
			return apperr.New(apperr.Conflict, "users.own_role_or_active")
		}
		if before.Role == perm.Admin && before.Active && (after.Role != perm.Admin || !after.Active) {
			if err := lastAdminGuard(admins, userID); err != nil {
				return err
			}
		}
		if (before.Active && !after.Active) || (after.Role != before.Role && after.Role != perm.WaliKelas) {
			if err := leaveClass(ctx, tx, c.Actor, before, in.ReleaseClass, "user.update"); err != nil {
				return err
			}
		}
		const q = `UPDATE users SET username = $2, name = $3, role = $4, email = $5, phone = $6, active = $7, nip = $8, updated_at = now()
			WHERE id = $1`
		if _, err := tx.ExecContext(ctx, q, userID, after.Username, after.Name, after.Role, after.Email, after.Phone, after.Active, nip); err != nil {
			if pg.IsUnique(err, "users_username_key") {
				return apperr.New(apperr.Invalid, "form.invalid").WithField("username", "users.username_taken")
			}
			return fmt.Errorf("users: update: %w", err)
		}
		if before.Active && !after.Active {
			if err := auth.EndSessions(ctx, tx, userID, nil); err != nil {
				return err
			}
		}
		if u, err = s.Get(ctx, tx, userID); err != nil {
			return err
		}
		return audit.Record(ctx, tx, c.Actor, "user.update", "user", id(userID), map[string]any{"before": before, "after": u.User, "nip": u.NIP})
	})
	return u, err
}

// DeleteResult says what Delete did.
type DeleteResult struct {
	Deleted     bool `json:"deleted"`
	Deactivated bool `json:"deactivated"`
}

// Delete removes a user who has recorded nothing; a user whose id is
// referenced by recorded data (audit entries, and any later table that
// references users) is deactivated instead, so history keeps its author.
// A homeroom teacher's class is released only when releaseClass is set.
func (s *Store) Delete(ctx context.Context, c Caller, userID int64, releaseClass bool) (DeleteResult, error) {
	if userID == c.ID {
		return DeleteResult{}, apperr.New(apperr.Conflict, "users.own_delete")
	}
	var res DeleteResult
	err := inTx(ctx, s.db, func(tx *sqlx.Tx) error {
		res = DeleteResult{}
		admins, err := lockAdmins(ctx, tx)
		if err != nil {
			return err
		}
		u, err := s.getForUpdate(ctx, tx, userID)
		if err != nil {
			return err
		}
		if err := c.mayTouch(admins, u.Role, u.Role); err != nil {
			return err
		}
		if u.Role == perm.Admin && u.Active {
			if err := lastAdminGuard(admins, userID); err != nil {
				return err
			}
		}
		if err := leaveClass(ctx, tx, c.Actor, u, releaseClass, "user.delete"); err != nil {
			return err
		}
		var acted bool
		if err := tx.GetContext(ctx, &acted, `SELECT EXISTS (SELECT 1 FROM audit_log WHERE actor_id = $1)`, userID); err != nil {
			return fmt.Errorf("users: delete: %w", err)
		}
		if !acted {
			if _, err := tx.ExecContext(ctx, `SAVEPOINT del`); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx, `DELETE FROM users WHERE id = $1`, userID)
			var pe *pq.Error
			switch {
			case err == nil:
				res.Deleted = true
				if err := erasure.Record(ctx, tx, erasure.UserRemoved, map[string]any{"user_id": userID}); err != nil {
					return err
				}
				return audit.Record(ctx, tx, c.Actor, "user.delete", "user", id(userID), map[string]any{"username": u.Username})
			case errors.As(err, &pe) && pe.Code == "23503":
				if _, err := tx.ExecContext(ctx, `ROLLBACK TO SAVEPOINT del`); err != nil {
					return err
				}
			default:
				return fmt.Errorf("users: delete: %w", err)
			}
		}
		if _, err := tx.ExecContext(ctx, `UPDATE users SET active = false, updated_at = now() WHERE id = $1`, userID); err != nil {
			return fmt.Errorf("users: deactivate: %w", err)
		}
		if err := auth.EndSessions(ctx, tx, userID, nil); err != nil {
			return err
		}
		res.Deactivated = true
		if err := erasure.Record(ctx, tx, erasure.UserRemoved, map[string]any{"user_id": userID}); err != nil {
			return err
		}
		return audit.Record(ctx, tx, c.Actor, "user.deactivate", "user", id(userID), map[string]any{"username": u.Username})
	})
	return res, err
}

// ResetPassword sets another user's password and ends their sessions. A
// reset lets its author sign in as that person, so it follows the same
// rules as editing them: an admin's only by an admin.
func (s *Store) ResetPassword(ctx context.Context, c Caller, userID int64, in ResetPasswordInput) error {
	if userID == c.ID {
		return apperr.New(apperr.Invalid, "users.own_reset").WithField("password", "users.own_reset_field")
	}
	f := apperr.Fields{}
	auth.ValidateNewPassword(f, in.Password, in.PasswordConfirmation)
	if err := f.Err(); err != nil {
		return err
	}
	hash, err := auth.HashPassword(in.Password)
	if err != nil {
		return err
	}
	return inTx(ctx, s.db, func(tx *sqlx.Tx) error {
		admins, err := lockAdmins(ctx, tx)
		if err != nil {
			return err
		}
		u, err := s.getForUpdate(ctx, tx, userID)
		if err != nil {
			return err
		}
		if err := c.mayTouch(admins, u.Role, u.Role); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE users SET password_hash = $2, updated_at = now() WHERE id = $1`, userID, hash); err != nil {
			return fmt.Errorf("users: reset password: %w", err)
		}
		if err := auth.EndSessions(ctx, tx, userID, nil); err != nil {
			return err
		}
		return audit.Record(ctx, tx, c.Actor, "user.password.reset", "user", id(userID), map[string]any{"username": u.Username})
	})
}

// nip is the user's stored NIP (the row is locked by getForUpdate).
func (s *Store) nip(ctx context.Context, tx *sqlx.Tx, userID int64) (string, error) {
	var nip string
	if err := tx.GetContext(ctx, &nip, `SELECT nip FROM users WHERE id = $1`, userID); err != nil {
		return "", fmt.Errorf("users: nip: %w", err)
	}
	return nip, nil
}

func (s *Store) getForUpdate(ctx context.Context, tx *sqlx.Tx, userID int64) (api.User, error) {
	var u api.User
	err := tx.GetContext(ctx, &u, `SELECT `+columns+` FROM users WHERE id = $1 FOR UPDATE`, userID)
	return u, pg.Error(err, "entity.user")
}

// mayHandle refuses to give a role beyond the caller's reach.
func (c Caller) mayHandle(r perm.Role) error {
	if r == perm.Admin {
		if !c.Admin {
			return apperr.New(apperr.Forbidden, "users.admin_only")
		}
		return nil
	}
	if !c.Admin && !c.Roles[r] {
		return apperr.New(apperr.Forbidden, "users.role_beyond_own", "role", auth.RoleName(r))
	}
	return nil
}

// mayTouch refuses a change to a user of role before (now of role after)
// that the caller may not make. Whether the caller is an admin is read
// from the locked admin rows, so an admin demoted a moment ago no longer
// counts.
func (c Caller) mayTouch(admins []int64, before, after perm.Role) error {
	c.Admin = c.Admin && slices.Contains(admins, c.ID)
	if err := c.mayHandle(before); err != nil {
		return err
	}
	return c.mayHandle(after)
}

// lockAdmins locks every active admin row in id order and returns their
// ids. Every change that may touch an admin takes these locks first, in
// the same order, so two admins demoting each other at once queue instead
// of deadlocking.
func lockAdmins(ctx context.Context, tx *sqlx.Tx) ([]int64, error) {
	var ids []int64
	if err := tx.SelectContext(ctx, &ids, `SELECT id FROM users WHERE role = 'admin' AND active ORDER BY id FOR UPDATE`); err != nil {
		return nil, fmt.Errorf("users: lock admins: %w", err)
	}
	return ids, nil
}

// lastAdminGuard refuses to remove the last active admin.
func lastAdminGuard(admins []int64, except int64) error {
	for _, a := range admins {
		if a != except {
			return nil
		}
	}
	return apperr.New(apperr.Conflict, "users.last_admin")
}

// leaveClass handles a homeroom teacher who stops being one (role changed,
// deactivated, deleted): without release the change is refused naming the
// class, so no class silently points at someone who cannot look after it;
// with release the class is left without a homeroom teacher, audited.
func leaveClass(ctx context.Context, tx *sqlx.Tx, actor audit.Actor, u api.User, release bool, reason string) error {
	var class ClassRef
	err := tx.QueryRowxContext(ctx, `SELECT id, name FROM classes WHERE homeroom_teacher_id = $1 FOR UPDATE`, u.ID).Scan(&class.ID, &class.Name)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("users: homeroom class: %w", err)
	}
	if !release {
		return apperr.New(apperr.Conflict, "users.homeroom_class_assigned", "name", u.Name, "class", class.Name, "class_id", class.ID)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE classes SET homeroom_teacher_id = NULL, updated_at = now() WHERE id = $1`, class.ID); err != nil {
		return fmt.Errorf("users: release class: %w", err)
	}
	return audit.Record(ctx, tx, actor, "class.homeroom_teacher.update", "class", id(class.ID),
		map[string]any{"before": u.ID, "after": nil, "reason": reason,
			"teacher": map[string]any{"from": u.Name, "to": nil}})
}

// inTx runs fn in a transaction, again up to three times when PostgreSQL
// gives up on it (serialization failure, deadlock), then answers a
// conflict: a person may simply try again.
func inTx(ctx context.Context, db *sqlx.DB, fn func(tx *sqlx.Tx) error) error {
	for attempt := 1; ; attempt++ {
		err := pg.InTx(ctx, db, fn)
		var pe *pq.Error
		if !errors.As(err, &pe) || (pe.Code != "40001" && pe.Code != "40P01") {
			return err
		}
		if attempt == 3 {
			return apperr.New(apperr.Conflict, "users.busy")
		}
	}
}

// EnsureAdmin creates the admin user on first start. It returns the
// password it set when it generated one ("" when the user existed or the
// password came from the configuration).
func EnsureAdmin(ctx context.Context, db *sqlx.DB, password string) (created bool, generated string, err error) {
	var exists bool
	if err := db.GetContext(ctx, &exists, `SELECT EXISTS (SELECT 1 FROM users WHERE role = 'admin')`); err != nil {
		return false, "", fmt.Errorf("users: ensure admin: %w", err)
	}
	if exists {
		return false, "", nil
	}
	if password == "" {
		password = auth.RandomPassword(16)
		generated = password
	}
	hash, err := auth.HashPassword(password)
	if err != nil {
		return false, "", err
	}
	_, err = db.ExecContext(ctx, `INSERT INTO users (username, name, role, password_hash) VALUES ('admin', 'Administrator', 'admin', $1)
		ON CONFLICT DO NOTHING`, hash)
	if err != nil {
		return false, "", fmt.Errorf("users: ensure admin: %w", err)
	}
	return true, generated, nil
}

func id(n int64) string { return strconv.FormatInt(n, 10) }
