package worker_test

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tatib/tatib/server/internal/parentmsg"
	"github.com/tatib/tatib/server/internal/parentmsg/worker"
	"github.com/tatib/tatib/server/internal/parentmsg/worker/outboxtest"
	"github.com/tatib/tatib/server/internal/pg/pgtest"
	"github.com/tatib/tatib/server/internal/sim/wa"
)

const benchMessages = 1000

// BenchmarkWorkerThroughput sends 1,000 queued messages through a local
// Fonnte simulator with the worker (claim, send, record, commit: one
// transaction per message) at 2 (the default) and 8 at once, and reports
// messages per second. Beside it, the floor from the same run: the bare
// HTTP posts of the same 1,000 messages to the same simulator, as many at
// once, without any database; x-floor is how many times slower the worker
// is.
func BenchmarkWorkerThroughput(b *testing.B) {
	for _, conc := range []int{2, 8} {
		b.Run("concurrency="+strconv.Itoa(conc), func(b *testing.B) {
			f := newFixture(b, nil, nil)
			f.queue(b, benchMessages)
			w := &worker.Worker{DB: f.db, Concurrency: conc}
			client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: conc}}
			ctx := context.Background()
			var workerSecs, floorSecs float64
			runs := 0
			for b.Loop() {
				runs++
				b.StopTimer()
				outboxtest.Must(b, dbExec(f.db, `UPDATE parent_messages SET status = 'queued', attempts = 0, next_attempt_at = now() - interval '1 second'`))
				outboxtest.Must(b, dbExec(f.db, `DELETE FROM parent_message_attempts`))
				f.sim.Reset()
				b.StartTimer()
				start := time.Now()
				n, err := w.RunOnce(ctx)
				if err != nil || n != benchMessages {
					b.Fatalf("sent %d: %v", n, err)
				}
				workerSecs += time.Since(start).Seconds()

				var next atomic.Int64
				var wg sync.WaitGroup
				start = time.Now()
				for range conc {
					wg.Add(1)
					go func() {
						defer wg.Done()
						for i := next.Add(1); i <= benchMessages; i = next.Add(1) {
							resp, err := client.PostForm(f.base+wasim.FonntePath, url.Values{"target": {"6281234567890"},
								"message": {"Yth. Bapak/Ibu, pesan uji nomor " + strconv.FormatInt(i, 10)}})
							if err != nil {
								b.Error(err)
								return
							}
							resp.Body.Close()
						}
					}()
				}
				wg.Wait()
				floorSecs += time.Since(start).Seconds()
			}
			perSec := float64(benchMessages*runs) / workerSecs
			floor := float64(benchMessages*runs) / floorSecs
			b.ReportMetric(perSec, "msgs/s")
			b.ReportMetric(floor, "floor-msgs/s")
			b.ReportMetric(floor/perSec, "x-floor")
		})
	}
}

// BenchmarkRecordWithMessaging records one 10-point violation 500 times
// through violation.RecordTx with parent messaging configured (its message
// rendered and queued in the same transaction) and 500 times in a second
// database without a gateway (nothing queued), alternating, over 100
// students each. It reports the p50 and p99 of both and their ratio: the
// outbox's added cost to recording a violation.
func BenchmarkRecordWithMessaging(b *testing.B) {
	on := newFixture(b, nil, nil)
	off := newFixture(b, pgtest.New(b), func(s *parentmsg.Settings) { s.Gateway = parentmsg.Gateway{} })
	students := func(f *fixture) []int64 {
		out := make([]int64, 100)
		for i := range out {
			out[i] = f.school.Student(b, "Siswa "+strconv.Itoa(i), "Orang Tua "+strconv.Itoa(i), "08123456"+strconv.Itoa(1000+i))
		}
		return out
	}
	onStudents, offStudents := students(on), students(off)
	const n = 500
	var with, without []time.Duration
	at := time.Now().Add(-time.Hour)
	for b.Loop() {
		with, without = with[:0], without[:0]
		for i := range n {
			start := time.Now()
			on.school.Record(b, onStudents[i%100], at, false, on.school.T10)
			with = append(with, time.Since(start))
			start = time.Now()
			off.school.Record(b, offStudents[i%100], at, false, off.school.T10)
			without = append(without, time.Since(start))
		}
	}
	var queued int
	outboxtest.Must(b, on.db.Get(&queued, `SELECT count(*) FROM parent_messages WHERE event = 'violation'`))
	if queued == 0 {
		b.Fatal("messaging on queued nothing")
	}
	p := func(d []time.Duration, q float64) float64 {
		s := slices.Clone(d)
		slices.Sort(s)
		return float64(s[int(q*float64(len(s)-1))]) / float64(time.Millisecond)
	}
	b.ReportMetric(p(with, 0.50), "on-p50-ms")
	b.ReportMetric(p(with, 0.99), "on-p99-ms")
	b.ReportMetric(p(without, 0.50), "off-p50-ms")
	b.ReportMetric(p(without, 0.99), "off-p99-ms")
	b.ReportMetric(p(with, 0.50)/p(without, 0.50), "x-off-p50")
	b.ReportMetric(p(with, 0.99)/p(without, 0.99), "x-off-p99")
}
