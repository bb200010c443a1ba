package users

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/auth"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

const columns = `id, username, name, role, email, phone, active, last_login_at, created_at, updated_at`

// Store reads and writes users.
type Store struct {
	db *sqlx.DB
}

// NewStore returns a Store.
func NewStore(db *sqlx.DB) *Store { return &Store{db: db} }

// Filter narrows a user list.
type Filter struct {
	Q      string
	Role   perm.Role
	Active *bool
}

// List returns one page of users matching f.
func (s *Store) List(ctx context.Context, f Filter, p httpx.Paging) ([]api.User, int, error) {
	const q = `SELECT ` + columns + `, count(*) OVER () AS total FROM users
		WHERE ($1 = '' OR username ILIKE '%' || $1 || '%' OR name ILIKE '%' || $1 || '%' OR email ILIKE '%' || $1 || '%')
		  AND ($2 = '' OR role = $2)
		  AND ($3::boolean IS NULL OR active = $3)
		ORDER BY lower(name), id LIMIT $4 OFFSET $5`
	rows, err := s.db.QueryxContext(ctx, q, f.Q, f.Role, f.Active, p.PerPage, p.Offset())
	if err != nil {
		return nil, 0, fmt.Errorf("users: list: %w", err)
	}
	defer rows.Close()
	out := []api.User{}
	total := 0
	for rows.Next() {
		var u api.User
		if err := rows.Scan(&u.ID, &u.Username, &u.Name, &u.Role, &u.Email, &u.Phone, &u.Active, &u.LastLoginAt,
			&u.CreatedAt, &u.UpdatedAt, &total); err != nil {
			return nil, 0, fmt.Errorf("users: scan: %w", err)
		}
		out = append(out, u)
	}
	return out, total, rows.Err()
}

// Get returns one user.
func (s *Store) Get(ctx context.Context, q sqlx.QueryerContext, id int64) (api.User, error) {
	var u api.User
	err := sqlx.GetContext(ctx, q, &u, `SELECT `+columns+` FROM users WHERE id = $1`, id)
	return u, pg.Error(err, "entity.user")
}

// Create stores a new user.
func (s *Store) Create(ctx context.Context, actor audit.Actor, in CreateInput) (api.User, error) {
	in.normalize()
	if err := in.Validate(); err != nil {
		return api.User{}, err
	}
	hash, err := auth.HashPassword(in.Password)
	if err != nil {
		return api.User{}, err
	}
	var u api.User
	err = pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		const q = `INSERT INTO users (username, name, role, email, phone, password_hash)
			VALUES ($1, $2, $3, $4, $5, $6) RETURNING ` + columns
		if err := tx.GetContext(ctx, &u, q, in.Username, in.Name, in.Role, in.Email, in.Phone, hash); err != nil {
			if pg.IsUnique(err, "users_username_key") {
				return &apperr.Error{Code: apperr.Invalid, Msg: apperr.M("Nama pengguna sudah dipakai."),
					Fields: apperr.Fields{"username": apperr.M("Nama pengguna sudah dipakai.")}}
			}
			return fmt.Errorf("users: create: %w", err)
		}
		return audit.Record(ctx, tx, actor, "user.create", "user", id(u.ID),
			map[string]any{"username": u.Username, "role": u.Role})
	})
	return u, err
}

// Update changes the present fields of user id. Deactivating ends the
// user's sessions. Nobody may deactivate or demote themselves, and the last
// active admin stays.
func (s *Store) Update(ctx context.Context, actor audit.Actor, userID int64, in UpdateInput) (api.User, error) {
	if err := in.Validate(); err != nil {
		return api.User{}, err
	}
	var u api.User
	err := pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
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
		if userID == actor.ID && (!after.Active || after.Role != before.Role) {
			return apperr.New(apperr.Conflict, "Anda tidak dapat menonaktifkan atau mengubah peran akun Anda sendiri.")
		}
		if before.Role == perm.Admin && before.Active && (after.Role != perm.Admin || !after.Active) {
			if err := lastAdminGuard(ctx, tx, userID); err != nil {
				return err
			}
		}
		const q = `UPDATE users SET username = $2, name = $3, role = $4, email = $5, phone = $6, active = $7, updated_at = now()
			WHERE id = $1 RETURNING ` + columns
		if err := tx.GetContext(ctx, &u, q, userID, after.Username, after.Name, after.Role, after.Email, after.Phone, after.Active); err != nil {
			if pg.IsUnique(err, "users_username_key") {
				return &apperr.Error{Code: apperr.Invalid, Msg: apperr.M("Nama pengguna sudah dipakai."),
					Fields: apperr.Fields{"username": apperr.M("Nama pengguna sudah dipakai.")}}
			}
			return fmt.Errorf("users: update: %w", err)
		}
		if before.Active && !after.Active {
			if err := auth.EndSessions(ctx, tx, userID, nil); err != nil {
				return err
			}
		}
		return audit.Record(ctx, tx, actor, "user.update", "user", id(userID), map[string]any{"before": before, "after": u})
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
func (s *Store) Delete(ctx context.Context, actor audit.Actor, userID int64) (DeleteResult, error) {
	if userID == actor.ID {
		return DeleteResult{}, apperr.New(apperr.Conflict, "Anda tidak dapat menghapus akun Anda sendiri.")
	}
	var res DeleteResult
	err := pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		u, err := s.getForUpdate(ctx, tx, userID)
		if err != nil {
			return err
		}
		if u.Role == perm.Admin && u.Active {
			if err := lastAdminGuard(ctx, tx, userID); err != nil {
				return err
			}
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
				return audit.Record(ctx, tx, actor, "user.delete", "user", id(userID), map[string]any{"username": u.Username})
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
		return audit.Record(ctx, tx, actor, "user.deactivate", "user", id(userID), map[string]any{"username": u.Username})
	})
	return res, err
}

// ResetPassword sets another user's password and ends their sessions.
func (s *Store) ResetPassword(ctx context.Context, actor audit.Actor, userID int64, in ResetPasswordInput) error {
	if userID == actor.ID {
		return &apperr.Error{Code: apperr.Invalid,
			Msg:    apperr.M("Anda tidak dapat mengatur ulang kata sandi akun Anda sendiri di sini; gunakan halaman Profil."),
			Fields: apperr.Fields{"password": apperr.M("Gunakan halaman Profil untuk mengganti kata sandi Anda sendiri.")}}
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
	return pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		u, err := s.getForUpdate(ctx, tx, userID)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE users SET password_hash = $2, updated_at = now() WHERE id = $1`, userID, hash); err != nil {
			return fmt.Errorf("users: reset password: %w", err)
		}
		if err := auth.EndSessions(ctx, tx, userID, nil); err != nil {
			return err
		}
		return audit.Record(ctx, tx, actor, "user.password.reset", "user", id(userID), map[string]any{"username": u.Username})
	})
}

func (s *Store) getForUpdate(ctx context.Context, tx *sqlx.Tx, userID int64) (api.User, error) {
	var u api.User
	err := tx.GetContext(ctx, &u, `SELECT `+columns+` FROM users WHERE id = $1 FOR UPDATE`, userID)
	return u, pg.Error(err, "entity.user")
}

// lastAdminGuard refuses to remove the last active admin. Locking the admin
// rows serialises two admins demoting each other at once.
func lastAdminGuard(ctx context.Context, tx *sqlx.Tx, except int64) error {
	var ids []int64
	if err := tx.SelectContext(ctx, &ids, `SELECT id FROM users WHERE role = 'admin' AND active AND id <> $1 FOR UPDATE`, except); err != nil {
		return fmt.Errorf("users: admin guard: %w", err)
	}
	if len(ids) == 0 {
		return apperr.New(apperr.Conflict, "Harus ada setidaknya satu admin aktif.")
	}
	return nil
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

var _ = sql.ErrNoRows
