package notify_test

import (
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/tatib/tatib/server/internal/apitest"
	wire "github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

// BenchmarkFanOut: 1,000 WebSockets (100 users × 10 sessions' sockets, a
// school's staff with several tabs and devices each) spread over two
// replicas in this process sharing one database; violations recorded
// through the API at 20 a second for 10 seconds, alternately on each
// replica. Prints the delivery latency (from the start of the recording
// request to the message read on the socket, so it includes the recording
// itself: the recording's own time is printed beside it as the floor),
// messages lost (must be 0) and the heap.
func BenchmarkFanOut(b *testing.B) {
	const (
		rate          = 20
		seconds       = 10
		socketsByUser = 10
	)
	s := newSchool(b)
	rb := newReplica(b, s.URL)
	e := s.A.Env
	// 2 admins (one records), 8 BK, 5 leaders, 60 homeroom teachers (one
	// class each), 25 staff (no violations.view: they get nothing).
	var users []*apitest.Client
	see := map[int64]bool{} // sees every violation
	add := func(role perm.Role, n int) []*apitest.Client {
		var out []*apitest.Client
		for range n {
			c := e.As(role)
			users = append(users, c)
			out = append(out, c)
			if role != perm.WaliKelas && role != perm.Staff {
				see[c.UserID] = true
			}
		}
		return out
	}
	admins := add(perm.Admin, 2)
	add(perm.BK, 8)
	add(perm.Waka, 2)
	add(perm.KepalaSekolah, 1)
	add(perm.KetuaTim, 2)
	walis := add(perm.WaliKelas, 60)
	add(perm.Staff, 25)
	recorder := admins[0]
	var students []int64
	homeroom := map[int64]int64{} // student → homeroom teacher
	for i, w := range walis {
		class := s.id(`INSERT INTO classes (name, grade, department_id, homeroom_teacher_id)
			VALUES ($1, 10, (SELECT id FROM departments LIMIT 1), $2) RETURNING id`, fmt.Sprintf("X B%d", i), w.UserID)
		st := s.id(`INSERT INTO students (source_id, full_name, nisn, nis, class_id) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
			10000+i, fmt.Sprintf("Siswa %d", i), fmt.Sprintf("%010d", 7000000+i), fmt.Sprint(5000+i), class)
		students = append(students, st)
		homeroom[st] = w.UserID
	}

	type arrival struct {
		violation int64
		at        time.Time
	}
	type socket struct {
		user     int64
		conn     *websocket.Conn
		mu       sync.Mutex
		arrivals []arrival
	}
	var sockets []*socket
	replicas := []*replica{s.A, rb}
	var wg sync.WaitGroup
	for i, u := range users {
		for j := range socketsByUser {
			r := replicas[(i*socketsByUser+j)%2]
			conn, _, err := dial(b, r, u.Token, "")
			if err != nil {
				b.Fatal(err)
			}
			so := &socket{user: u.UserID, conn: conn}
			sockets = append(sockets, so)
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					_, msg, err := conn.ReadMessage()
					if err != nil {
						return
					}
					at := time.Now()
					var m wire.WSMessage
					if json.Unmarshal(msg, &m) != nil || m.Type != wire.WSNotification {
						continue
					}
					id, _ := strconv.ParseInt(strings.TrimPrefix(m.URL, "/violations/"), 10, 64)
					so.mu.Lock()
					so.arrivals = append(so.arrivals, arrival{id, at})
					so.mu.Unlock()
				}
			}()
		}
	}
	b.Logf("%d sockets: %d on A, %d on B", len(sockets), replicaSockets(s.A), replicaSockets(rb))

	type recording struct {
		student int64
		id      int64
		start   time.Time
		took    time.Duration
	}
	recs := make([]recording, rate*seconds)
	recorderB := rb.Env.Login(usernameOf(b, s, recorder.UserID), "rahasia123")
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	b.ResetTimer()
	tick := time.NewTicker(time.Second / rate)
	var rw sync.WaitGroup
	for i := range recs {
		<-tick.C
		rw.Add(1)
		go func() {
			defer rw.Done()
			c := recorder
			if i%2 == 1 {
				c = recorderB
			}
			st := students[i%len(students)]
			start := time.Now()
			id := record(b, c, st, s.TypeID)
			recs[i] = recording{student: st, id: id, start: start, took: time.Since(start)}
		}()
	}
	tick.Stop()
	rw.Wait()
	time.Sleep(2 * time.Second) // the last deliveries
	b.StopTimer()
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	openA, openB := replicaSockets(s.A), replicaSockets(rb)

	startOf := map[int64]recording{}
	for _, r := range recs {
		startOf[r.id] = r
	}
	var lat, after, rec []time.Duration
	lost, dup, expected := 0, 0, 0
	for _, so := range sockets {
		so.mu.Lock()
		got := map[int64]int{}
		for _, a := range so.arrivals {
			got[a.violation]++
			if r, ok := startOf[a.violation]; ok && got[a.violation] == 1 {
				lat = append(lat, a.at.Sub(r.start))
				// From the recording's answer (committed by then); a
				// message may even arrive before the answer: 0.
				after = append(after, max(0, a.at.Sub(r.start.Add(r.took))))
			}
		}
		so.mu.Unlock()
		for _, r := range recs {
			if see[so.user] || homeroom[r.student] == so.user {
				expected++
				switch got[r.id] {
				case 0:
					lost++
				case 1:
				default:
					dup += got[r.id] - 1
				}
			}
		}
	}
	for _, r := range recs {
		rec = append(rec, r.took)
	}
	for _, so := range sockets {
		so.conn.Close()
	}
	wg.Wait()
	slices.Sort(lat)
	slices.Sort(rec)
	slices.Sort(after)
	pct := func(d []time.Duration, p float64) time.Duration {
		if len(d) == 0 {
			return 0
		}
		return d[min(len(d)-1, int(float64(len(d))*p))]
	}
	b.ReportMetric(float64(pct(lat, 0.5).Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(pct(lat, 0.99).Microseconds())/1000, "p99-ms")
	b.ReportMetric(float64(pct(after, 0.99).Microseconds())/1000, "p99-after-commit-ms")
	b.ReportMetric(float64(lost), "lost")
	fmt.Printf("notify fan-out: %d sockets over 2 replicas (%d users × %d), %d violations at %d/s, %d deliveries expected\n",
		len(sockets), len(users), socketsByUser, len(recs), rate, expected)
	fmt.Printf("  delivery latency from the recording request's start: p50 %v  p99 %v  max %v  (target p99 < 100ms)\n",
		pct(lat, 0.5).Round(time.Microsecond), pct(lat, 0.99).Round(time.Microsecond), pct(lat, 1).Round(time.Microsecond))
	fmt.Printf("  from the recording's answer (after its commit): p50 %v  p99 %v  max %v\n",
		pct(after, 0.5).Round(time.Microsecond), pct(after, 0.99).Round(time.Microsecond), pct(after, 1).Round(time.Microsecond))
	fmt.Printf("  floor, the recording request alone: p50 %v  p99 %v\n", pct(rec, 0.5).Round(time.Microsecond), pct(rec, 0.99).Round(time.Microsecond))
	fmt.Printf("  lost %d  duplicates %d\n", lost, dup)
	if la, err := os.ReadFile("/proc/loadavg"); err == nil {
		fmt.Printf("  load average %s (on %d CPUs): figures on a busy machine are the machine's\n", strings.Join(strings.Fields(string(la))[:3], " "), runtime.NumCPU())
	}
	fmt.Printf("  heap in use %.1f MiB after the run with %d + %d sockets open (%.1f MiB before recording); both replicas and the 1,000 clients share this process, so the figure is all of them\n",
		float64(ms.HeapInuse)/(1<<20), openA, openB, float64(before.HeapInuse)/(1<<20))
	if lost > 0 {
		b.Errorf("%d messages lost", lost)
	}
}

func replicaSockets(r *replica) int { return r.Env.API.Hub.Sockets() }
