package studentsync_test

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/server/internal/audit"
	schoolsim "github.com/tatib/tatib/server/internal/sim/studentaffairs"
	"github.com/tatib/tatib/server/internal/studentsync"
	"github.com/tatib/tatib/shared/perm"
)

// syncTarget is what a school should wait at most for a whole-school sync
// of 1,200 students (15 pages of 100 over loopback); the benchmarks print
// their time as a ratio of it.
const syncTarget = 3 * time.Second

func benchSyncer(b *testing.B, students int) (*studentsync.Syncer, *apitest.Env) {
	env := apitest.New(b)
	sim := schoolsim.NewServer(schoolsim.Generate(schoolsim.Options{Seed: 7, Students: students, AcademicYearStart: 2026}), simToken)
	ts := httptest.NewServer(sim)
	b.Cleanup(ts.Close)
	admin := env.As(perm.Admin)
	admin.Do("PUT", "/api/v1/settings/student-affairs", map[string]any{"url": ts.URL, "token": simToken}).Want(200)
	return studentsync.NewSyncer(env.DB, env.Deps.Log), env
}

// BenchmarkSyncFirst1200 is a first sync: every department, class and
// student is new.
func BenchmarkSyncFirst1200(b *testing.B) {
	b.ReportAllocs()
	var total time.Duration
	for b.Loop() {
		b.StopTimer()
		s, _ := benchSyncer(b, 1200)
		b.StartTimer()
		start := time.Now()
		run, err := s.RunNow(context.Background(), audit.Actor{Name: "bench"}, studentsync.TriggerManual)
		total += time.Since(start)
		if err != nil || run.Status != studentsync.SyncSucceeded || run.Result.New != 1200 {
			b.Fatalf("%v %+v", err, run)
		}
	}
	b.ReportMetric(float64(total)/float64(b.N)/float64(syncTarget), "x-target")
}

// BenchmarkSyncUnchanged1200 is the daily case: nothing changed since the
// last sync.
func BenchmarkSyncUnchanged1200(b *testing.B) {
	s, _ := benchSyncer(b, 1200)
	ctx := context.Background()
	if _, err := s.RunNow(ctx, audit.Actor{Name: "bench"}, studentsync.TriggerManual); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	start := time.Now()
	for b.Loop() {
		run, err := s.RunNow(ctx, audit.Actor{Name: "bench"}, studentsync.TriggerManual)
		if err != nil || run.Status != studentsync.SyncSucceeded || run.Result.Unchanged != 1200 {
			b.Fatalf("%v %+v", err, run)
		}
	}
	b.ReportMetric(float64(time.Since(start))/float64(b.N)/float64(syncTarget), "x-target")
}

// BenchmarkStudentSearch is one page of the students list searched by name,
// as a homeroom teacher's and a counselor's screen asks for it.
func BenchmarkStudentSearch(b *testing.B) {
	s, env := benchSyncer(b, 1200)
	if _, err := s.RunNow(context.Background(), audit.Actor{Name: "bench"}, studentsync.TriggerManual); err != nil {
		b.Fatal(err)
	}
	bk := env.As(perm.BK)
	b.ReportAllocs()
	for b.Loop() {
		bk.Do("GET", "/api/v1/students?q=putri&page=1", nil).Want(200)
	}
}
