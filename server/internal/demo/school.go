package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/auth"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/school"
	schoolsim "github.com/tatib/tatib/server/internal/sim/studentaffairs"
	"github.com/tatib/tatib/server/internal/studentsync"
	"github.com/tatib/tatib/shared/perm"
)

// Seed is the seed of the demo school; `tatib-sim student-affairs`
// serves the same school by default, so pointing the settings at the
// simulator and syncing finds every demo student unchanged.
const Seed = schoolsim.DemoSeed

// SchoolOptions shape the demo load.
type SchoolOptions struct {
	Seed     uint64 // default Seed
	Students int    // default 1200
	// Now fixes the academic year (tests); default time.Now().
	Now time.Time
}

// Account is one demo user and the password it was given.
type Account struct {
	Username string
	Name     string
	Role     perm.Role
	Password string
	Class    string
}

// SchoolResult says what the demo load did.
type SchoolResult struct {
	Loaded   bool
	Students int
	Classes  int
	Accounts []Account
}

// LoadSchool loads the generated demo school when the database has no
// students, no student-affairs connection and never had the demo: the
// students exactly as a sync from the simulator would leave them (same
// source ids), a homeroom teacher user per class, two BK users and one user
// of each other role, each with a random password printed once to out
// (never to the log). A second call does nothing.
func LoadSchool(ctx context.Context, db *sqlx.DB, log *slog.Logger, out io.Writer, o SchoolOptions) (SchoolResult, error) {
	if skip, err := demoSkip(ctx, db); err != nil || skip {
		return SchoolResult{}, err
	}
	if o.Seed == 0 {
		o.Seed = Seed
	}
	if o.Now.IsZero() {
		o.Now = time.Now()
	}
	start := time.Now()
	sch := schoolsim.Generate(schoolsim.Options{Seed: o.Seed, Students: o.Students, AcademicYearStart: schoolsim.CurrentAcademicYearStart(o.Now)})
	recs, err := demoRecords(sch)
	if err != nil {
		return SchoolResult{}, err
	}
	accounts := demoAccounts(sch)
	hashes, err := hashAll(accounts)
	if err != nil {
		return SchoolResult{}, err
	}

	res := SchoolResult{Loaded: true, Students: len(recs), Classes: len(sch.Classes)}
	err = pg.InTx(ctx, db, func(tx *sqlx.Tx) error {
		if err := studentsync.LockStudents(ctx, tx); err != nil {
			return err
		}
		// Another replica may have loaded it while this one generated.
		if skip, err := demoSkip(ctx, tx); err != nil || skip {
			res.Loaded = false
			return err
		}
		sr := studentsync.SyncResult{Fetched: len(recs), Complete: true}
		if err := studentsync.ApplyRecordsTx(ctx, tx, recs, &sr, time.Now()); err != nil {
			return err
		}
		var names, usernames, roles, hs, classes []string
		for i, a := range accounts {
			names, usernames, roles, hs, classes = append(names, a.Name), append(usernames, a.Username), append(roles, string(a.Role)),
				append(hs, hashes[i]), append(classes, a.Class)
		}
		var created []string
		const ins = `INSERT INTO users (username, name, role, password_hash)
			SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[])
			ON CONFLICT DO NOTHING RETURNING username`
		if err := tx.SelectContext(ctx, &created, ins, pq.Array(usernames), pq.Array(names), pq.Array(roles), pq.Array(hs)); err != nil {
			return fmt.Errorf("school: demo users: %w", err)
		}
		made := map[string]bool{}
		for _, u := range created {
			made[u] = true
		}
		for _, a := range accounts {
			if made[a.Username] {
				res.Accounts = append(res.Accounts, a)
			}
		}
		const assign = `UPDATE classes c SET homeroom_teacher_id = u.id
			FROM unnest($1::text[], $2::text[]) AS i(username, class_name)
			JOIN users u ON lower(u.username) = lower(i.username) AND u.role = 'wali_kelas'
			WHERE i.class_name <> '' AND c.name = i.class_name AND c.homeroom_teacher_id IS NULL
			  AND NOT EXISTS (SELECT 1 FROM classes x WHERE x.homeroom_teacher_id = u.id)`
		if _, err := tx.ExecContext(ctx, assign, pq.Array(usernames), pq.Array(classes)); err != nil {
			return fmt.Errorf("school: demo homeroom teachers: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO settings (key, value) VALUES ('school', $1) ON CONFLICT (key) DO NOTHING`,
			mustJSON(school.Profile{Name: sch.Name, Address: sch.Address, Phone: sch.Phone, PrincipalName: sch.Principal,
				PrincipalNIP: sch.PrincipalNIP, BKCoordinatorName: sch.BKCoordinator, AcademicYearStart: "07-01", LessonHoursPerDay: 10})); err != nil {
			return fmt.Errorf("school: demo profile: %w", err)
		}
		if err := school.MarkDemoTx(ctx, tx, map[string]any{"loaded_at": time.Now(), "seed": o.Seed, "students": len(recs)}); err != nil {
			return err
		}
		b, _ := json.Marshal(sr)
		if _, err := tx.ExecContext(ctx, `INSERT INTO student_syncs (status, trigger, phase, actor_name, finished_at, pages_done, pages_total, fetched, expected, result)
			VALUES ('succeeded', 'demo', 'done', 'demo', now(), 1, 1, $1, $1, $2)`, len(recs), string(b)); err != nil {
			return fmt.Errorf("school: demo sync row: %w", err)
		}
		return audit.Record(ctx, tx, audit.Actor{Name: "sistem (demo)"}, "demo.load", "school", "",
			map[string]any{"seed": o.Seed, "students": len(recs), "classes": len(sch.Classes), "users": len(res.Accounts)})
	})
	if err != nil || !res.Loaded {
		return SchoolResult{}, err
	}
	// Passwords go to out (the terminal) only, never into a log record
	// that may be collected and kept.
	log.Warn("loaded the demo school; its users' passwords are printed once to the terminal (TATIB_DEMO=0 turns the demo off)",
		"school", sch.Name, "students", res.Students, "classes", res.Classes, "users", len(res.Accounts), "took", time.Since(start).Round(time.Millisecond))
	if out != nil {
		printAccounts(out, sch.Name, res.Accounts)
	}
	return res, nil
}

// demoSkip reports whether the demo must not be loaded: students exist, a
// student-affairs connection is set (a real school), or the demo was
// loaded before (an application reset must not bring it back).
func demoSkip(ctx context.Context, q sqlx.QueryerContext) (bool, error) {
	var skip bool
	const stmt = `SELECT EXISTS (SELECT 1 FROM students)
		OR EXISTS (SELECT 1 FROM settings WHERE key = 'demo')
		OR EXISTS (SELECT 1 FROM settings WHERE key = 'student_affairs' AND coalesce(value->>'url', '') <> '')`
	if err := sqlx.GetContext(ctx, q, &skip, stmt); err != nil {
		return false, fmt.Errorf("school: demo check: %w", err)
	}
	return skip, nil
}

// demoRecords passes the generated students through the sync's own reader,
// so the demo stores exactly what a sync would.
func demoRecords(sch *schoolsim.School) ([]map[string]any, error) {
	b, err := json.Marshal(sch.Students)
	if err != nil {
		return nil, err
	}
	var items []map[string]any
	if err := json.Unmarshal(b, &items); err != nil {
		return nil, err
	}
	return items, nil
}

func demoAccounts(sch *schoolsim.School) []Account {
	var out []Account
	for _, c := range sch.Classes {
		out = append(out, Account{Username: "wali." + strings.ToLower(strings.ReplaceAll(c.Name, " ", "-")),
			Name: c.Homeroom, Role: perm.WaliKelas, Class: c.Name})
	}
	staff := func(i int) string { return sch.Staff[i%len(sch.Staff)].Name }
	out = append(out,
		Account{Username: "bk1", Name: sch.BKCoordinator, Role: perm.BK},
		Account{Username: "bk2", Name: staff(0), Role: perm.BK},
		Account{Username: "kepsek", Name: sch.Principal, Role: perm.KepalaSekolah},
		Account{Username: "waka", Name: staff(1), Role: perm.Waka},
		Account{Username: "ketuatim", Name: staff(2), Role: perm.KetuaTim},
		Account{Username: "staf", Name: staff(3), Role: perm.Staff},
		Account{Username: "tamu", Name: "Tamu Sekolah", Role: perm.Other},
	)
	for i := range out {
		out[i].Password = auth.RandomPassword(12)
	}
	return out
}

// hashAll hashes every password at bcrypt's default cost, in parallel: about
// 45 hashes take well under a second on a few cores instead of three.
func hashAll(accounts []Account) ([]string, error) {
	out := make([]string, len(accounts))
	errs := make([]error, len(accounts))
	sem := make(chan struct{}, max(2, runtime.NumCPU()))
	var wg sync.WaitGroup
	for i, a := range accounts {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			out[i], errs[i] = auth.HashPassword(a.Password)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

func printAccounts(out io.Writer, school string, accounts []Account) {
	fmt.Fprintf(out, "\n  Demo school loaded: %s. Its users (passwords shown once):\n\n", school)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  username\trole\tpassword\tclass")
	for _, a := range accounts {
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", a.Username, a.Role, a.Password, a.Class)
	}
	_ = tw.Flush()
	fmt.Fprintln(out)
}

// mustJSON is v as JSON text for a jsonb parameter (a string: a []byte
// would travel in binary format, see pg.OpenPool).
func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}
