package demo

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/server/internal/schoolday"
	journalsim "github.com/tatib/tatib/server/internal/sim/journal"
	"github.com/tatib/tatib/server/internal/violation"
	"github.com/tatib/tatib/shared/api"
)

// keyDemoViolations marks, in settings, that the demo violations were
// loaded: they never come back once loaded, even when every violation is
// deleted later.
const keyDemoViolations = "demo_violations"

// demoMonths is how far back the demo violations reach.
const demoMonths = 4

// ViolationOptions shape the demo violations.
type ViolationOptions struct {
	Seed uint64 // default Seed
	// Now fixes "today" (tests); default time.Now().
	Now time.Time
}

// ViolationResult says what the demo violations load did.
type ViolationResult struct {
	Loaded     bool
	Violations int
	Handlings  int
	Letters    int
	Took       time.Duration
}

// LoadViolations gives the demo school a semester of violations when the demo
// school is loaded (the `demo` settings key), no violation exists, no
// student-affairs connection is set and the demo violations were never
// loaded. Each recording goes through RecordTx, so points, the point audit
// and the warning letters follow the rules of a real recording; handling
// records, verifications and the letters' later statuses are written with
// set-based statements. Everything is one transaction; the same seed and
// day give the same data. A second call does nothing.
func LoadViolations(ctx context.Context, db *sqlx.DB, log *slog.Logger, o ViolationOptions) (ViolationResult, error) {
	if o.Seed == 0 {
		o.Seed = Seed
	}
	if o.Now.IsZero() {
		o.Now = time.Now()
	}
	start := time.Now()
	var res ViolationResult
	loaded, err := Once(ctx, db, keyDemoViolations, "violations", func(tx *sqlx.Tx) (any, error) {
		g, err := newDemoGen(ctx, tx, o)
		if err != nil || g == nil {
			return nil, err
		}
		if err := g.load(ctx, tx, &res); err != nil {
			return nil, err
		}
		marker := map[string]any{"seed": o.Seed, "violations": res.Violations, "handlings": res.Handlings, "letters": res.Letters}
		return marker, audit.Record(ctx, tx, audit.Actor{Name: "sistem (demo)"}, "demo.violations", "violation", "", marker)
	})
	res.Loaded = loaded
	if err != nil || !res.Loaded {
		return ViolationResult{}, err
	}
	res.Took = time.Since(start)
	log.Info("loaded the demo violations", "violations", res.Violations, "handlings", res.Handlings, "letters", res.Letters,
		"took", res.Took.Round(time.Millisecond))
	return res, nil
}

type demoStudent struct {
	ID           int64  `db:"id"`
	SourceID     int64  `db:"source_id"`
	Name         string `db:"full_name"`
	Parent       string `db:"parent_name"`
	Homeroom     int64  `db:"homeroom"`
	HomeroomName string `db:"homeroom_name"`
}

type demoUser struct {
	ID   int64  `db:"id"`
	Name string `db:"name"`
}

type demoType struct {
	ID     int64  `db:"id"`
	Name   string `db:"name"`
	Points int    `db:"points"`
	hint   demoHint
}

// demoRecording is one planned recording and, once recorded, its
// violations.
type demoRecording struct {
	student  *demoStudent
	types    []demoType
	at       time.Time
	location string
	text     string
	recorder demoUser
	homeroom bool // recorded by the student's homeroom teacher
	ids      []int64
}

type demoGen struct {
	seed      uint64
	rng       *rand.Rand
	now       time.Time // Jakarta
	today     time.Time // Jakarta midnight
	days      []time.Time
	spDays    []time.Time // the days SP students' violations fall on: one academic year
	students  []demoStudent
	bk        []demoUser
	types     []demoType
	handlings map[string]int64 // lower-case handling type name → id
	fallback  int64            // any active handling type
}

func newDemoGen(ctx context.Context, tx *sqlx.Tx, o ViolationOptions) (*demoGen, error) {
	g := &demoGen{seed: o.Seed, rng: rand.New(rand.NewPCG(o.Seed, o.Seed^0xd3a0f1e5)), now: schoolday.In(o.Now), handlings: map[string]int64{}}
	g.today = schoolday.DateOf(g.now).Start()
	const qs = `SELECT s.id, COALESCE(s.source_id, 0) AS source_id, s.full_name, s.parent_name, COALESCE(u.id, 0) AS homeroom, COALESCE(u.name, '') AS homeroom_name
		FROM students s JOIN classes c ON c.id = s.class_id
		LEFT JOIN users u ON u.id = c.homeroom_teacher_id AND u.active
		WHERE s.active ORDER BY s.source_id, s.id`
	if err := tx.SelectContext(ctx, &g.students, qs); err != nil {
		return nil, fmt.Errorf("violation: demo students: %w", err)
	}
	if err := tx.SelectContext(ctx, &g.bk, `SELECT id, name FROM users WHERE role = 'bk' AND active ORDER BY username`); err != nil {
		return nil, fmt.Errorf("violation: demo users: %w", err)
	}
	if len(g.bk) == 0 {
		g.bk = []demoUser{{Name: "sistem (demo)"}}
	}
	// The heaviest types (drugs, weapons, threatening a teacher) stay out
	// of the demo: one of them alone would be a whole letter.
	if err := tx.SelectContext(ctx, &g.types, `SELECT id, name, points FROM violation_types
		WHERE active AND NOT is_system AND points BETWEEN 1 AND 75 ORDER BY id`); err != nil {
		return nil, fmt.Errorf("violation: demo types: %w", err)
	}
	var hts []demoUser
	if err := tx.SelectContext(ctx, &hts, `SELECT id, name FROM handling_types WHERE active ORDER BY sort_order, id`); err != nil {
		return nil, fmt.Errorf("violation: demo handling types: %w", err)
	}
	if len(g.students) == 0 || len(g.types) == 0 || len(hts) == 0 {
		return nil, nil
	}
	for i := range g.types {
		g.types[i].hint = hintFor(g.types[i].Name)
	}
	g.fallback = hts[0].ID
	for _, h := range hts {
		g.handlings[strings.ToLower(h.Name)] = h.ID
	}

	profile, err := school.LoadProfile(ctx, tx)
	if err != nil {
		return nil, fmt.Errorf("violation: demo profile: %w", err)
	}
	from := g.today.AddDate(0, -demoMonths, 0)
	yearStart := profile.YearStartOf(schoolday.DateOf(g.today)).Start()
	// Today counts once the first lesson has begun.
	last := g.today
	if g.now.Sub(g.today) < 8*time.Hour {
		last = g.today.AddDate(0, 0, -1)
	}
	var before, after []time.Time
	for d := from; !d.After(last); d = d.AddDate(0, 0, 1) {
		if d.Weekday() == time.Sunday {
			continue
		}
		g.days = append(g.days, d)
		if d.Before(yearStart) {
			before = append(before, d)
		} else {
			after = append(after, d)
		}
	}
	// A student's points count per academic year: the SP students'
	// violations stay inside one, the current one unless it began only
	// days ago.
	g.spDays = after
	if len(after) < 20 && len(before) > len(after) {
		g.spDays = before
	}
	if len(g.days) == 0 || len(g.spDays) == 0 {
		return nil, nil
	}
	return g, nil
}

// Student kinds: how many points a student collects.
const (
	kindNone = iota
	kindFew
	kindSP1
	kindSP2
	kindSP3
)

// demoDeliveredAfter is how long a demo letter stays open: a student's
// letter is delivered once a recording comes this much later, so the next
// level starts a new letter; a level reached sooner raises the open one
// ("SP 1–2"), as at a school where the letter had not gone out yet.
const demoDeliveredAfter = 10 * 24 * time.Hour

func (g *demoGen) load(ctx context.Context, tx *sqlx.Tx, res *ViolationResult) error {
	recs := g.plan()
	openSince := map[int64]time.Time{}
	for _, rc := range recs {
		if since, ok := openSince[rc.student.ID]; ok && rc.at.Sub(since) >= demoDeliveredAfter {
			// Its times and history are written with the others' (letters).
			if _, err := tx.ExecContext(ctx, `UPDATE warning_letters SET status = 'delivered'
				WHERE student_id = $1 AND status IN ('draft', 'printed', 'signed')`, rc.student.ID); err != nil {
				return fmt.Errorf("violation: demo delivery: %w", err)
			}
			delete(openSince, rc.student.ID)
		}
		in := violation.Record{StudentID: rc.student.ID, OccurredAt: rc.at, Location: rc.location, Description: rc.text,
			Source: api.SourceManual, RecordedByName: rc.recorder.Name, Now: g.now}
		for _, t := range rc.types {
			in.Items = append(in.Items, violation.Item{TypeID: t.ID})
		}
		if rc.recorder.ID != 0 {
			in.RecordedBy = &rc.recorder.ID
		}
		if rc.homeroom {
			in.Scope = violation.Scope{HomeroomID: rc.recorder.ID}
		}
		f := apperr.Fields{}
		if in.Validate(f); len(f) > 0 {
			return fmt.Errorf("violation: demo recording: %w", &apperr.Error{Code: apperr.Invalid, Msg: apperr.M("violation.invalid"), Fields: f})
		}
		r, err := violation.RecordTx(ctx, tx, in, audit.Actor{ID: rc.recorder.ID, Name: rc.recorder.Name})
		if err != nil {
			return fmt.Errorf("violation: demo recording: %w", err)
		}
		rc.ids = r.ViolationIDs
		res.Violations += len(r.ViolationIDs)
		if _, ok := openSince[rc.student.ID]; !ok && len(r.Letters) > 0 {
			openSince[rc.student.ID] = rc.at
		}
	}
	created, err := g.backdate(ctx, tx, recs)
	if err != nil {
		return err
	}
	if res.Handlings, err = g.handle(ctx, tx, recs, created); err != nil {
		return err
	}
	if err := g.verify(ctx, tx, recs, created); err != nil {
		return err
	}
	res.Letters, err = g.letters(ctx, tx, recs)
	return err
}

// demoChronicMost is the most points a chronic absentee of the demo's
// attendance gets from behaviour: their ten days' attendance alone comes
// to at most 134 (eight alpha days, two days late and skipping hours), so
// that they never reach SP 3.
const demoChronicMost = 15

// plan picks each student's kind, their violations, days and times, and
// returns the recordings in the order they happened. The students whose
// letters come from behaviour (exactly one at SP 3, about n/300 at SP 2,
// n/55 at SP 1) are punctual in the demo's attendance
// (journalsim.HabitOf), so that the attendance loaded after them never
// raises one to a higher level; the demo promises exactly one SP 3.
func (g *demoGen) plan() []*demoRecording {
	n := len(g.students)
	kinds := make([]int, n)
	nSP2, nSP1 := max(1, n/300), max(2, n/55)
	sp, few := 0, n*45/100-nSP2-nSP1-1
	for _, p := range g.rng.Perm(n) {
		punctual := journalsim.HabitOf(g.seed, g.students[p].SourceID).Punctual
		switch {
		case punctual && sp == 0:
			kinds[p] = kindSP3
		case punctual && sp <= nSP2:
			kinds[p] = kindSP2
		case punctual && sp <= nSP2+nSP1:
			kinds[p] = kindSP1
		case few > 0:
			kinds[p], few = kindFew, few-1
			continue
		default:
			continue
		}
		sp++
	}
	var recs []*demoRecording
	for i := range g.students {
		var items []demoType
		days := g.days
		switch kinds[i] {
		case kindNone:
			continue
		case kindFew:
			count := 1
			switch r := g.rng.Float64(); {
			case r < 0.3:
				count = 2
			case r < 0.45:
				count = 3 + g.rng.IntN(3)
			}
			most := 49
			if journalsim.HabitOf(g.seed, g.students[i].SourceID).OftenAbsent {
				most = demoChronicMost
			}
			items = g.items(count, 1, most, [3]float64{0.8, 0.2, 0})
		case kindSP1:
			items, days = g.items(1, 50, 99, [3]float64{0.45, 0.4, 0.15}), g.spDays
		case kindSP2:
			items, days = g.items(1, 100, 149, [3]float64{0.4, 0.4, 0.2}), g.spDays
		case kindSP3:
			items, days = g.items(1, 150, 199, [3]float64{0.35, 0.4, 0.25}), g.spDays
		}
		recs = append(recs, g.recordings(&g.students[i], items, days)...)
	}
	slices.SortStableFunc(recs, func(a, b *demoRecording) int {
		if c := a.at.Compare(b.at); c != 0 {
			return c
		}
		return int(a.student.ID - b.student.ID)
	})
	return recs
}

// items picks at least count violation types, as many as it takes for
// their points to add up to at least least, never past most; mix weighs light (≤10 points), medium (≤30) and
// heavy types.
func (g *demoGen) items(count, least, most int, mix [3]float64) []demoType {
	var out []demoType
	total := 0
	for len(out) < count || total < least {
		room := most - total
		class := 2
		switch r := g.rng.Float64(); {
		case r < mix[0]:
			class = 0
		case r < mix[0]+mix[1]:
			class = 1
		}
		var pool, fits []demoType
		for _, t := range g.types {
			if t.Points > room {
				continue
			}
			fits = append(fits, t)
			if pointClass(t.Points) == class {
				pool = append(pool, t)
			}
		}
		if len(pool) == 0 {
			pool = fits
		}
		if len(pool) == 0 {
			break
		}
		t := pool[g.rng.IntN(len(pool))]
		out = append(out, t)
		total += t.Points
	}
	return out
}

// pointClass is 0 for a light type, 1 for a medium one, 2 for a heavy one.
func pointClass(points int) int {
	switch {
	case points <= 10:
		return 0
	case points <= 30:
		return 1
	}
	return 2
}

// recordings groups a student's violation types into recordings (now and
// then two at once) on distinct school days, in order.
func (g *demoGen) recordings(st *demoStudent, items []demoType, days []time.Time) []*demoRecording {
	var groups [][]demoType
	for i := 0; i < len(items); i++ {
		if i+1 < len(items) && items[i].ID != items[i+1].ID && g.rng.Float64() < 0.12 {
			groups = append(groups, []demoType{items[i], items[i+1]})
			i++
			continue
		}
		groups = append(groups, []demoType{items[i]})
	}
	picked := make([]time.Time, len(groups))
	order := g.rng.Perm(len(days))
	for i := range picked {
		picked[i] = days[order[i%len(order)]]
	}
	slices.SortFunc(picked, func(a, b time.Time) int { return a.Compare(b) })
	out := make([]*demoRecording, len(groups))
	for i, types := range groups {
		h := types[0].hint
		day := picked[i]
		if h.monday {
			for day.Weekday() != time.Monday {
				day = day.AddDate(0, 0, -1)
			}
			if day.Before(days[0]) {
				day = day.AddDate(0, 0, 7)
			}
		}
		at := day.Add(time.Duration(h.slot.pick(g.rng)) * time.Minute)
		if limit := g.now.Add(-10 * time.Minute); at.After(limit) {
			at = limit
		}
		rc := &demoRecording{student: st, types: types, at: at, location: h.locations[g.rng.IntN(len(h.locations))],
			text: h.texts[g.rng.IntN(len(h.texts))], recorder: g.bk[g.rng.IntN(len(g.bk))]}
		if st.Homeroom != 0 && g.rng.Float64() < 0.4 {
			rc.recorder, rc.homeroom = demoUser{ID: st.Homeroom, Name: st.HomeroomName}, true
		}
		out[i] = rc
	}
	return out
}

// clamp keeps a demo time at or before now.
func (g *demoGen) clamp(t time.Time) time.Time {
	if t.After(g.now) {
		return g.now
	}
	return t
}

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// backdate sets each violation's created_at a few minutes after it
// happened (the recorder wrote it down) and its point-audit entries to
// that time, so the lists and the point history read like a semester.
func (g *demoGen) backdate(ctx context.Context, tx *sqlx.Tx, recs []*demoRecording) (map[int64]time.Time, error) {
	created := map[int64]time.Time{}
	var ids []int64
	var ats []string
	for _, rc := range recs {
		at := g.clamp(rc.at.Add(time.Duration(2+g.rng.IntN(40)) * time.Minute))
		for _, id := range rc.ids {
			created[id] = at
			ids, ats = append(ids, id), append(ats, stamp(at))
		}
	}
	const qv = `UPDATE violations v SET created_at = u.at::timestamptz, updated_at = u.at::timestamptz
		FROM unnest($1::bigint[], $2::text[]) AS u(id, at) WHERE v.id = u.id`
	if _, err := tx.ExecContext(ctx, qv, pq.Array(ids), pq.Array(ats)); err != nil {
		return nil, fmt.Errorf("violation: demo times: %w", err)
	}
	const qa = `UPDATE point_audit p SET at = v.created_at FROM violations v
		WHERE v.id = p.violation_id AND v.id = ANY($1)`
	if _, err := tx.ExecContext(ctx, qa, pq.Array(ids)); err != nil {
		return nil, fmt.Errorf("violation: demo point audit times: %w", err)
	}
	// Their notifications too: a semester is not news. Only the last few
	// days stay unread, so the bell shows what a school would see.
	const qn = `UPDATE notifications n SET created_at = v.created_at,
		    read_at = CASE WHEN v.created_at < now() - interval '3 days' THEN v.created_at + interval '2 hours' END
		FROM violations v WHERE v.id = n.violation_id AND v.id = ANY($1)`
	if _, err := tx.ExecContext(ctx, qn, pq.Array(ids)); err != nil {
		return nil, fmt.Errorf("violation: demo notification times: %w", err)
	}
	return created, nil
}

// nextSchoolDay is the school day (Monday to Saturday) after day.
func nextSchoolDay(day time.Time) time.Time {
	day = day.AddDate(0, 0, 1)
	if day.Weekday() == time.Sunday {
		day = day.AddDate(0, 0, 1)
	}
	return day
}

// handlingsFor are the handling types a violation of so many points gets,
// first step first.
func handlingsFor(points int) []string {
	switch {
	case points <= 5:
		return []string{"teguran lisan", "teguran tertulis"}
	case points <= 10:
		return []string{"teguran tertulis", "pembinaan bk"}
	case points <= 20:
		return []string{"pembinaan bk", "panggilan orang tua", "tugas sosial"}
	case points <= 30:
		return []string{"pembinaan bk", "panggilan orang tua"}
	}
	return []string{"panggilan orang tua", "home visit", "skorsing"}
}

var handlingNotes = map[string][]string{
	"teguran lisan":       {"Siswa ditegur secara lisan dan berjanji tidak mengulangi.", "Ditegur saat itu juga; siswa langsung memperbaiki."},
	"teguran tertulis":    {"Siswa menerima teguran tertulis dan menandatangani surat pernyataan.", "Teguran tertulis diberikan; salinan disimpan di map BK."},
	"pembinaan bk":        {"Konseling individu di ruang BK; siswa menyadari kesalahannya dan menyusun rencana perbaikan.", "Pembinaan BK: siswa bercerita tentang masalah di rumah, dijadwalkan konseling lanjutan."},
	"panggilan orang tua": {"Orang tua hadir ke sekolah; disepakati pengawasan bersama di rumah dan di sekolah.", "Orang tua dipanggil dan menandatangani surat pernyataan bersama siswa."},
	"home visit":          {"Kunjungan ke rumah siswa bersama wali kelas; orang tua mendukung pembinaan.", "Home visit: siswa tinggal bersama nenek, orang tua bekerja di luar kota."},
	"skorsing":            {"Skorsing tiga hari; siswa mengerjakan tugas dari rumah dan wajib lapor setelah kembali."},
	"tugas sosial":        {"Membersihkan musala dan halaman sekolah selama tiga hari sepulang sekolah."},
}

// handle gives most older violations handling records (with participants)
// and resolves many of them; recent ones are more often still open. It
// returns the number of handling records.
func (g *demoGen) handle(ctx context.Context, tx *sqlx.Tx, recs []*demoRecording, created map[int64]time.Time) (int, error) {
	type handling struct {
		violation int64
		typeID    int64
		on        time.Time
		notes     string
		followUp  string
		by        demoUser
		at        time.Time
		people    []api.HandlingParticipant
	}
	var hs []handling
	var vIDs, vBy []int64
	var vStatus, vAt, vUpdated []string
	for _, rc := range recs {
		st := rc.student
		for i, id := range rc.ids {
			t := rc.types[i]
			age := int(g.today.Sub(schoolday.DateOf(rc.at).Start()).Hours() / 24)
			// A counselor takes up most cases within days: the open
			// queue is the last week's, and a few older ones.
			resolved, open := 0.2, 0.4
			switch {
			case age >= 28:
				resolved, open = 0.88, 0.11
			case age >= 7:
				resolved, open = 0.65, 0.3
			}
			status := api.HandlingUnhandled
			switch r := g.rng.Float64(); {
			case r < resolved:
				status = api.HandlingResolved
			case r < resolved+open:
				status = api.HandlingInProgress
			}
			if status == api.HandlingUnhandled {
				continue
			}
			steps := handlingsFor(t.Points)
			n := 1
			if g.rng.Float64() < 0.25 {
				n = 2
			}
			on := schoolday.DateOf(rc.at).Start()
			if t.Points > 5 || g.rng.Float64() < 0.3 {
				for k := g.rng.IntN(3); k > 0; k-- {
					on = nextSchoolDay(on)
				}
			}
			last, added := created[id], 0
			for k := 0; k < n && !on.After(g.today); k++ {
				name := steps[min(k, len(steps)-1)]
				typeID, ok := g.handlings[name]
				if !ok {
					typeID = g.fallback
				}
				by := g.bk[g.rng.IntN(len(g.bk))]
				role := "Guru BK"
				if name == "teguran lisan" && st.Homeroom != 0 && g.rng.Float64() < 0.5 {
					by, role = demoUser{ID: st.Homeroom, Name: st.HomeroomName}, "Wali Kelas"
				}
				people := []api.HandlingParticipant{{UserID: idPtr(by.ID), Name: by.Name, Role: role}}
				if role == "Guru BK" && name != "teguran lisan" && st.Homeroom != 0 {
					people = append(people, api.HandlingParticipant{UserID: idPtr(st.Homeroom), Name: st.HomeroomName, Role: "Wali Kelas"})
				}
				if name == "panggilan orang tua" || name == "home visit" || name == "skorsing" {
					parent := st.Parent
					if parent == "" {
						parent = "Orang tua/wali " + st.Name
					}
					people = append(people, api.HandlingParticipant{Name: parent, Role: "Orang Tua"})
				}
				people = append(people, api.HandlingParticipant{Name: st.Name, Role: "Siswa"})
				notes := handlingNotes[name]
				if len(notes) == 0 {
					notes = []string{"Pembinaan oleh wali kelas dan guru BK."}
				}
				at := on.Add(time.Duration(9*60+g.rng.IntN(300)) * time.Minute)
				if at.Before(last) {
					at = last.Add(time.Duration(5+g.rng.IntN(60)) * time.Minute)
				}
				at = g.clamp(at)
				h := handling{violation: id, typeID: typeID, on: on, notes: notes[g.rng.IntN(len(notes))], by: by, at: at, people: people}
				if status == api.HandlingInProgress && g.rng.Float64() < 0.5 {
					h.followUp = on.AddDate(0, 0, 7).Format(time.DateOnly)
				}
				hs = append(hs, h)
				last, added = at, added+1
				on = on.AddDate(0, 0, 3+g.rng.IntN(8))
				if on.Weekday() == time.Sunday {
					on = nextSchoolDay(on)
				}
			}
			if added == 0 {
				continue // the first meeting would be after today
			}
			handledAt, handledBy := "", int64(0)
			if status == api.HandlingResolved {
				at := g.clamp(last.Add(time.Duration(10+g.rng.IntN(120)) * time.Minute))
				by := g.bk[g.rng.IntN(len(g.bk))]
				handledAt, handledBy, last = stamp(at), by.ID, at
			}
			vIDs, vStatus, vAt, vBy, vUpdated = append(vIDs, id), append(vStatus, status), append(vAt, handledAt),
				append(vBy, handledBy), append(vUpdated, stamp(last))
		}
	}
	if len(hs) == 0 {
		return 0, nil
	}
	var ids []int64
	if err := tx.SelectContext(ctx, &ids, `SELECT nextval(pg_get_serial_sequence('handlings', 'id')) FROM generate_series(1, $1)`, len(hs)); err != nil {
		return 0, fmt.Errorf("violation: demo handling ids: %w", err)
	}
	viol, types, by := make([]int64, len(hs)), make([]int64, len(hs)), make([]int64, len(hs))
	on, notes, follow, byName, at := make([]string, len(hs)), make([]string, len(hs)), make([]string, len(hs)), make([]string, len(hs)), make([]string, len(hs))
	var pHandling, pUser []int64
	var pName, pRole []string
	for i, h := range hs {
		viol[i], types[i], by[i] = h.violation, h.typeID, h.by.ID
		on[i], notes[i], follow[i], byName[i], at[i] = h.on.Format(time.DateOnly), h.notes, h.followUp, h.by.Name, stamp(h.at)
		for _, p := range h.people {
			u := int64(0)
			if p.UserID != nil {
				u = *p.UserID
			}
			pHandling, pUser, pName, pRole = append(pHandling, ids[i]), append(pUser, u), append(pName, p.Name), append(pRole, p.Role)
		}
	}
	const qh = `INSERT INTO handlings (id, violation_id, handling_type_id, handled_on, notes, follow_up_on, created_by, created_by_name, created_at)
		SELECT u.id, u.violation_id, u.type_id, u.handled_on::date, u.notes, NULLIF(u.follow_up, '')::date, NULLIF(u.by, 0), u.by_name, u.at::timestamptz
		FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::bigint[], $8::text[], $9::text[])
		AS u(id, violation_id, type_id, handled_on, notes, follow_up, by, by_name, at)`
	if _, err := tx.ExecContext(ctx, qh, pq.Array(ids), pq.Array(viol), pq.Array(types), pq.Array(on), pq.Array(notes),
		pq.Array(follow), pq.Array(by), pq.Array(byName), pq.Array(at)); err != nil {
		return 0, fmt.Errorf("violation: demo handlings: %w", err)
	}
	const qp = `INSERT INTO handling_participants (handling_id, user_id, name, role)
		SELECT u.h, NULLIF(u.u, 0), u.n, u.r FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[]) WITH ORDINALITY AS u(h, u, n, r, i)
		ORDER BY u.i`
	if _, err := tx.ExecContext(ctx, qp, pq.Array(pHandling), pq.Array(pUser), pq.Array(pName), pq.Array(pRole)); err != nil {
		return 0, fmt.Errorf("violation: demo handling participants: %w", err)
	}
	const qv = `UPDATE violations v SET handling_status = u.status, handled_at = NULLIF(u.at, '')::timestamptz,
		handled_by = NULLIF(u.by, 0), updated_at = u.updated::timestamptz
		FROM unnest($1::bigint[], $2::text[], $3::text[], $4::bigint[], $5::text[]) AS u(id, status, at, by, updated)
		WHERE v.id = u.id`
	if _, err := tx.ExecContext(ctx, qv, pq.Array(vIDs), pq.Array(vStatus), pq.Array(vAt), pq.Array(vBy), pq.Array(vUpdated)); err != nil {
		return 0, fmt.Errorf("violation: demo handling status: %w", err)
	}
	return len(hs), nil
}

func idPtr(id int64) *int64 {
	if id == 0 {
		return nil
	}
	return &id
}

// verify marks about one violation in ten, recorded at least two days
// ago, verified by a counselor the next school day.
func (g *demoGen) verify(ctx context.Context, tx *sqlx.Tx, recs []*demoRecording, created map[int64]time.Time) error {
	var ids, by []int64
	var ats []string
	for _, rc := range recs {
		for _, id := range rc.ids {
			if g.today.Sub(schoolday.DateOf(rc.at).Start()) < 48*time.Hour || g.rng.Float64() >= 0.1 || g.bk[0].ID == 0 {
				continue
			}
			at := nextSchoolDay(schoolday.DateOf(created[id]).Start()).Add(time.Duration(7*60+30+g.rng.IntN(240)) * time.Minute)
			ids, by, ats = append(ids, id), append(by, g.bk[g.rng.IntN(len(g.bk))].ID), append(ats, stamp(g.clamp(at)))
		}
	}
	const q = `UPDATE violations v SET verified_by = u.by, verified_at = u.at::timestamptz
		FROM unnest($1::bigint[], $2::bigint[], $3::text[]) AS u(id, by, at) WHERE v.id = u.id`
	if _, err := tx.ExecContext(ctx, q, pq.Array(ids), pq.Array(by), pq.Array(ats)); err != nil {
		return fmt.Errorf("violation: demo verify: %w", err)
	}
	return nil
}

// letters dates each letter RecordTx issued to the recording that drafted
// it (and each raise to the recording that raised it), and moves the older
// ones on: of the letters in issue order, the oldest are delivered, then
// signed, then printed, the newest still drafts (each status at least once
// when there are four letters); a letter the student has a later one after
// was delivered (load). It returns the number of letters.
func (g *demoGen) letters(ctx context.Context, tx *sqlx.Tx, recs []*demoRecording) (int, error) {
	var vids []int64
	for _, rc := range recs {
		vids = append(vids, rc.ids...)
	}
	var ls []struct {
		ID       int64     `db:"id"`
		Issued   time.Time `db:"issued"`
		Followed bool      `db:"followed"`
	}
	const q = `SELECT w.id, v.created_at AS issued,
		    EXISTS (SELECT 1 FROM warning_letters x WHERE x.student_id = w.student_id AND x.id > w.id) AS followed
		FROM warning_letters w
		JOIN warning_letter_events e ON e.letter_id = w.id AND e.status = 'draft'
		JOIN violations v ON v.id = e.violation_id
		WHERE v.id = ANY($1) ORDER BY v.created_at, w.id`
	if err := tx.SelectContext(ctx, &ls, q, pq.Array(vids)); err != nil {
		return 0, fmt.Errorf("violation: demo letters: %w", err)
	}
	const qr = `UPDATE warning_letter_events e SET at = v.created_at FROM violations v
		WHERE e.status = 'raised' AND v.id = e.violation_id AND v.id = ANY($1)`
	if _, err := tx.ExecContext(ctx, qr, pq.Array(vids)); err != nil {
		return 0, fmt.Errorf("violation: demo raised letters: %w", err)
	}
	n := len(ls)
	if n == 0 {
		return 0, nil
	}
	nDraft, nPrinted, nSigned := max(1, n/4), max(1, n*15/100), max(1, n/5)
	steps := []string{api.LetterPrinted, api.LetterSigned, api.LetterDelivered}
	var ids, by []int64
	var status, issued, printed, signed, delivered []string
	var eLetter, eActor []int64
	var eStatus, eAt, eName []string
	for i, l := range ls {
		reached := 3 // delivered
		switch fromNewest := n - 1 - i; {
		case l.Followed:
		case fromNewest < nDraft:
			reached = 0
		case fromNewest < nDraft+nPrinted:
			reached = 1
		case fromNewest < nDraft+nPrinted+nSigned:
			reached = 2
		}
		who := g.bk[g.rng.IntN(len(g.bk))]
		times := [3]string{}
		at := schoolday.In(l.Issued)
		for k := 0; k < reached; k++ {
			at = g.clamp(nextSchoolDay(schoolday.DateOf(at).Start()).Add(time.Duration(7*60+30+g.rng.IntN(300)) * time.Minute))
			if k == 2 {
				for d := g.rng.IntN(3); d > 0; d-- {
					at = g.clamp(nextSchoolDay(schoolday.DateOf(at).Start()).Add(time.Duration(7*60+30+g.rng.IntN(300)) * time.Minute))
				}
			}
			times[k] = stamp(at)
			eLetter, eActor, eStatus, eAt, eName = append(eLetter, l.ID), append(eActor, who.ID), append(eStatus, steps[k]),
				append(eAt, times[k]), append(eName, who.Name)
		}
		st := api.LetterDraft
		if reached > 0 {
			st = steps[reached-1]
		}
		ids, by, status, issued = append(ids, l.ID), append(by, who.ID), append(status, st), append(issued, stamp(l.Issued))
		printed, signed, delivered = append(printed, times[0]), append(signed, times[1]), append(delivered, times[2])
	}
	const qu = `UPDATE warning_letters w SET status = u.status, issued_at = u.issued::timestamptz, created_at = u.issued::timestamptz,
		updated_at = COALESCE(NULLIF(u.delivered, ''), NULLIF(u.signed, ''), NULLIF(u.printed, ''), u.issued)::timestamptz,
		printed_at = NULLIF(u.printed, '')::timestamptz, printed_by = CASE WHEN u.printed <> '' THEN NULLIF(u.by, 0) END,
		signed_at = NULLIF(u.signed, '')::timestamptz, signed_by = CASE WHEN u.signed <> '' THEN NULLIF(u.by, 0) END,
		delivered_at = NULLIF(u.delivered, '')::timestamptz, delivered_by = CASE WHEN u.delivered <> '' THEN NULLIF(u.by, 0) END
		FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[])
		AS u(id, status, issued, printed, signed, delivered, by)
		WHERE w.id = u.id`
	if _, err := tx.ExecContext(ctx, qu, pq.Array(ids), pq.Array(status), pq.Array(issued), pq.Array(printed), pq.Array(signed),
		pq.Array(delivered), pq.Array(by)); err != nil {
		return 0, fmt.Errorf("violation: demo letter status: %w", err)
	}
	const qd = `UPDATE warning_letter_events e SET at = u.issued::timestamptz
		FROM unnest($1::bigint[], $2::text[]) AS u(id, issued) WHERE e.letter_id = u.id AND e.status = 'draft'`
	if _, err := tx.ExecContext(ctx, qd, pq.Array(ids), pq.Array(issued)); err != nil {
		return 0, fmt.Errorf("violation: demo letter events: %w", err)
	}
	const qe = `INSERT INTO warning_letter_events (letter_id, status, at, actor_id, actor_name)
		SELECT u.id, u.status, u.at::timestamptz, NULLIF(u.actor, 0), u.name
		FROM unnest($1::bigint[], $2::text[], $3::text[], $4::bigint[], $5::text[]) WITH ORDINALITY AS u(id, status, at, actor, name, i)
		ORDER BY u.i`
	if _, err := tx.ExecContext(ctx, qe, pq.Array(eLetter), pq.Array(eStatus), pq.Array(eAt), pq.Array(eActor), pq.Array(eName)); err != nil {
		return 0, fmt.Errorf("violation: demo letter events: %w", err)
	}
	return n, nil
}

// demoSlot is a span of the school day, in minutes after midnight.
type demoSlot struct{ from, to int }

func (s demoSlot) pick(r *rand.Rand) int { return s.from + r.IntN(s.to-s.from) }

var (
	slotGate    = demoSlot{7 * 60, 7*60 + 25}
	slotLesson  = demoSlot{7*60 + 30, 13*60 + 50}
	slotBreak   = demoSlot{9*60 + 45, 10*60 + 15}
	slotLate    = demoSlot{10*60 + 15, 10*60 + 35}
	slotCeremon = demoSlot{7 * 60, 7*60 + 50}
	slotHome    = demoSlot{13*60 + 30, 14 * 60}
)

// demoHint is where, when and how a kind of violation happens.
type demoHint struct {
	locations []string
	slot      demoSlot
	monday    bool // the flag ceremony
	texts     []string
}

// demoHints are matched, in order, against the lower-case type name.
var demoHints = []struct {
	words []string
	hint  demoHint
}{
	{[]string{"atribut"}, demoHint{[]string{"Gerbang sekolah", "Gerbang sekolah", "Kelas"}, slotGate, false, []string{
		"Tidak memakai dasi dan ikat pinggang saat pemeriksaan pagi.", "Tidak memakai badge sekolah pada seragam.",
		"Memakai kaus kaki pendek berwarna, tidak sesuai ketentuan.", "Tidak memakai topi dan dasi; beralasan tertinggal di rumah."}}},
	{[]string{"rambut"}, demoHint{[]string{"Gerbang sekolah", "Kelas"}, slotGate, false, []string{
		"Rambut melewati kerah; sudah diingatkan minggu lalu.", "Rambut diwarnai cokelat terang.",
		"Rambut panjang tidak dirapikan saat pemeriksaan kerapian."}}},
	{[]string{"terlambat masuk kelas"}, demoHint{[]string{"Kelas", "Kantin"}, slotLate, false, []string{
		"Masuk kelas 15 menit setelah bel istirahat berakhir; beralasan antre di kantin.",
		"Baru kembali ke kelas setelah pelajaran dimulai, tanpa alasan yang jelas."}}},
	{[]string{"buku"}, demoHint{[]string{"Kelas"}, slotLesson, false, []string{
		"Tidak membawa buku paket Matematika sesuai jadwal.", "Tidak membawa buku catatan Bahasa Indonesia untuk ketiga kalinya."}}},
	{[]string{"tugas", " pr"}, demoHint{[]string{"Kelas"}, slotLesson, false, []string{
		"Tidak mengumpulkan tugas Fisika yang diberikan seminggu sebelumnya.", "Tidak mengerjakan PR Bahasa Inggris untuk kedua kalinya."}}},
	{[]string{"sepatu"}, demoHint{[]string{"Gerbang sekolah"}, slotGate, false, []string{
		"Memakai sepatu kets berwarna merah.", "Memakai sandal ke sekolah dengan alasan sepatu basah."}}},
	{[]string{"sampah"}, demoHint{[]string{"Kantin", "Lapangan", "Kelas"}, slotBreak, false, []string{
		"Membuang bungkus makanan di bawah meja kantin.", "Membuang botol minuman di pinggir lapangan, tidak ke tempat sampah."}}},
	{[]string{"makan atau minum"}, demoHint{[]string{"Kelas"}, slotLesson, false, []string{
		"Makan jajanan saat pelajaran berlangsung.", "Minum es teh di kelas saat guru menjelaskan."}}},
	{[]string{"upacara"}, demoHint{[]string{"Kantin", "Kelas", "Toilet"}, slotCeremon, true, []string{
		"Berada di kantin saat upacara bendera berlangsung.", "Bersembunyi di kelas saat upacara bendera hari Senin."}}},
	{[]string{"kegaduhan", "mengganggu ketertiban"}, demoHint{[]string{"Kelas"}, slotLesson, false, []string{
		"Membuat kegaduhan saat guru menjelaskan di depan kelas.", "Bermain musik dari ponsel dengan keras saat jam kosong."}}},
	{[]string{"aksesoris", "perhiasan"}, demoHint{[]string{"Gerbang sekolah", "Kelas"}, slotGate, false, []string{
		"Memakai gelang dan kalung berlebihan.", "Memakai cincin besar dan beberapa gelang karet."}}},
	{[]string{"keluar kelas"}, demoHint{[]string{"Kantin", "Toilet", "Parkiran"}, slotLesson, false, []string{
		"Ditemukan di kantin pada jam pelajaran tanpa izin guru.", "Keluar kelas dengan alasan ke toilet dan tidak kembali selama satu jam pelajaran."}}},
	{[]string{"ponsel"}, demoHint{[]string{"Kelas"}, slotLesson, false, []string{
		"Bermain gim di ponsel saat pelajaran Bahasa Indonesia.", "Menonton video di ponsel saat guru menjelaskan."}}},
	{[]string{"piket"}, demoHint{[]string{"Kelas"}, slotHome, false, []string{
		"Tidak melaksanakan piket kelas sesuai jadwal dan langsung pulang."}}},
	{[]string{"bolos"}, demoHint{[]string{"Kantin", "Parkiran", "Toilet"}, slotLesson, false, []string{
		"Tidak mengikuti jam pelajaran ke-5 dan ke-6; ditemukan di kantin.", "Meninggalkan pelajaran praktik; ditemukan di parkiran."}}},
	{[]string{"meninggalkan sekolah"}, demoHint{[]string{"Gerbang sekolah", "Parkiran"}, demoSlot{10 * 60, 13 * 60}, false, []string{
		"Keluar lewat gerbang samping saat istirahat dan tidak kembali.", "Pulang sebelum jam pelajaran berakhir tanpa surat izin piket."}}},
	{[]string{"tanda tangan"}, demoHint{[]string{"Kelas"}, slotLesson, false, []string{
		"Surat izin yang diserahkan ternyata bertanda tangan palsu; dikonfirmasi lewat telepon kepada orang tua."}}},
	{[]string{"berbohong"}, demoHint{[]string{"Kelas", "Gerbang sekolah"}, slotLesson, false, []string{
		"Mengaku sudah izin kepada guru piket, ternyata tidak.", "Mengaku sakit untuk keluar kelas, ternyata ke kantin."}}},
	{[]string{"mencontek"}, demoHint{[]string{"Kelas"}, slotLesson, false, []string{
		"Membawa catatan kecil saat ulangan harian Kimia.", "Melihat jawaban teman lewat ponsel saat ulangan."}}},
	{[]string{"kasar"}, demoHint{[]string{"Kelas", "Kantin", "Lapangan"}, slotBreak, false, []string{
		"Berkata kasar kepada teman saat bermain futsal di jam olahraga.", "Mengumpat teman di kantin hingga terjadi keributan kecil."}}},
	{[]string{"tidak sopan"}, demoHint{[]string{"Kelas"}, slotLesson, false, []string{
		"Membantah guru dengan nada tinggi saat ditegur.", "Meninggalkan kelas saat ditegur guru dan membanting pintu."}}},
	{[]string{"coret"}, demoHint{[]string{"Toilet", "Kelas"}, slotLesson, false, []string{
		"Mencoret dinding toilet dengan spidol.", "Mencoret meja kelas dengan tip-ex."}}},
	{[]string{"merokok"}, demoHint{[]string{"Toilet", "Kantin", "Parkiran"}, slotBreak, false, []string{
		"Merokok di toilet siswa lantai dua.", "Merokok di belakang kantin saat jam istirahat."}}},
	{[]string{"rokok"}, demoHint{[]string{"Gerbang sekolah", "Parkiran", "Kelas"}, slotGate, false, []string{
		"Kedapatan membawa rokok elektrik di tas saat razia pagi.", "Membawa sebungkus rokok di saku jaket."}}},
	{[]string{"seragam"}, demoHint{[]string{"Gerbang sekolah", "Kelas"}, slotGate, false, []string{
		"Celana seragam dikecilkan di bagian bawah.", "Rok seragam dipendekkan di atas lutut."}}},
	{[]string{"pacaran"}, demoHint{[]string{"Kantin", "Lapangan", "Parkiran"}, slotBreak, false, []string{
		"Berduaan di belakang gedung praktik saat istirahat; sudah pernah ditegur."}}},
	{[]string{"kegiatan wajib"}, demoHint{[]string{"Lapangan"}, slotHome, false, []string{
		"Tidak mengikuti kerja bakti tanpa keterangan.", "Tidak hadir pada latihan Pramuka wajib tanpa keterangan."}}},
	{[]string{"kendaraan"}, demoHint{[]string{"Parkiran", "Gerbang sekolah"}, slotGate, false, []string{
		"Membawa sepeda motor ke sekolah tanpa SIM.", "Memarkir sepeda motor di luar pagar; tidak memiliki SIM."}}},
	{[]string{"berkelahi", "tawuran"}, demoHint{[]string{"Lapangan", "Kantin", "Parkiran"}, slotBreak, false, []string{
		"Berkelahi dengan siswa kelas lain di lapangan setelah pertandingan futsal.", "Saling pukul dengan teman di kantin karena saling ejek."}}},
	{[]string{"media sosial"}, demoHint{[]string{"Kelas"}, slotLesson, false, []string{
		"Mengunggah foto teman dengan ejekan di grup kelas."}}},
	{[]string{"perundungan"}, demoHint{[]string{"Kelas", "Kantin", "Toilet"}, slotBreak, false, []string{
		"Mengejek dan mendorong teman sekelas berulang kali.", "Memaksa adik kelas menyerahkan uang jajan di toilet."}}},
	{[]string{"berjudi"}, demoHint{[]string{"Kelas", "Kantin"}, slotBreak, false, []string{
		"Bermain judi daring lewat ponsel di kelas saat jam kosong."}}},
	{[]string{"merusak"}, demoHint{[]string{"Toilet", "Kelas"}, slotLesson, false, []string{
		"Merusak kunci pintu toilet dengan sengaja.", "Menendang pintu kelas hingga engselnya lepas."}}},
	{[]string{"dokumen", "dokter"}, demoHint{[]string{"Kelas"}, slotLesson, false, []string{
		"Menyerahkan surat keterangan dokter palsu untuk izin tidak masuk."}}},
}

var defaultHint = demoHint{[]string{"Kelas", "Kantin", "Lapangan"}, slotLesson, false, []string{
	"Dicatat oleh guru piket saat berkeliling.", "Dilaporkan oleh guru mata pelajaran."}}

func hintFor(name string) demoHint {
	n := " " + strings.ToLower(name)
	for _, h := range demoHints {
		for _, w := range h.words {
			if strings.Contains(n, w) {
				return h.hint
			}
		}
	}
	return defaultHint
}
