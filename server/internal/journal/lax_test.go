package journal

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tatib/tatib/server/internal/apperr"
)

// The fast path must accept and refuse exactly what the slow path does:
// every body is parsed both ways and the results compared.
func TestFastPathMatchesSlowPath(t *testing.T) {
	t.Parallel()
	bodies := []string{
		`{"token":"x","attendances":[{"source_student_id":123,"date":"2026-11-02","lesson_hour":3,"status":"alpha","notes":null}]}`,
		`{"entries":[{"student_id":"42","date":"2026-11-02","lesson_hour":"1","status":"H"}]}`,
		`{"attendances":[{"source_student_id":1,"date":"2026-11-02","lesson_hour":1,"status":"belum"},{"source_student_id":2,"date":"2026-11-02","lesson_hour":11,"status":"x"}]}`,
		`{"attendances":[{"source_student_id":1.5,"date":"2026-02-30","lesson_hour":0,"status":7,"notes":5}]}`,
		`{"attendances":[{"source_student_id":" 7 ","date":" 2026-11-02 ","lesson_hour":2,"status":" Terlambat ","notes":"  a\u00e9 "}]}`,
		`{"attendances":[{"source_student_id":1,"date":"2026-11-02","lesson_hour":2,"status":"H","notes":"bad\u0001"}]}`,
		`{"attendances":[{"source_student_id":1,"date":"2026-11-02","lesson_hour":2,"status":"H","notes":"` + strings.Repeat("n", 501) + `"}]}`,
		`{"attendances":[null,{}]}`,
		`{"attendances":[3,"x",[],{"source_student_id":1}]}`,
		`{"attendances":[],"entries":[]}`,
		`{"attendances":null}`,
		`{"attendances":{}}`,
		`{"token":5}`,
		`[1,2]`,
		`{"attendances":[{"source_student_id":-1,"student_id":4,"date":20261102,"lesson_hour":"a","status":null}]}`,
		`{"attendances":[{"STATUS":"A","Date":"2026-11-02","LESSON_HOUR":1,"Source_Student_Id":9}]}`,
		`{"attendances":[{"source_student_id":1,"date":"2026-11-02","lesson_hour":1e0,"status":"A"}]}`,
	}
	for _, b := range bodies {
		fast, ok := decodeFast([]byte(b))
		var fp *PushBody
		if ok {
			fp = &fast
		}
		fe, fn, ferr := parseBatch([]byte(b), 10, "", fp)
		se, sn, serr := parseBatch([]byte(b), 10, "", nil)
		if !reflect.DeepEqual(fe, se) || fn != sn || apperr.Key(ferr) != apperr.Key(serr) {
			t.Errorf("%s:\nfast %v %d %v\nslow %v %d %v", b, fe, fn, ferr, se, sn, serr)
			continue
		}
		fa, _ := apperr.As(ferr)
		sa, _ := apperr.As(serr)
		if fa != nil && !reflect.DeepEqual(fa.Fields, sa.Fields) {
			t.Errorf("%s: fields differ\nfast %v\nslow %v", b, fa.Fields, sa.Fields)
		}
	}
}

// The last day a push may carry is today in Jakarta, ten minutes ahead:
// 16:45 UTC on the 23rd is 23:45 in Jakarta (read as 23:55: the 24th is
// refused); 16:52 UTC reads as 00:02 on the 24th, so the 24th is taken.
func TestLatestDate(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ at, want string }{
		{"2026-11-23T16:45:00Z", "2026-11-23"},
		{"2026-11-23T16:52:00Z", "2026-11-24"},
		{"2026-11-23T23:30:00Z", "2026-11-24"},
	} {
		at, _ := time.Parse(time.RFC3339, c.at)
		if got := latestDate(at); got != c.want {
			t.Errorf("latestDate(%s) = %s, want %s", c.at, got, c.want)
		}
	}
}

// The scanner decodes what it accepts exactly as encoding/json does, and
// accepts the journal's usual body (else it would save nothing).
func TestScanMatchesDecoder(t *testing.T) {
	t.Parallel()
	usual := `{"token":"abc","attendances":[{"source_student_id":100001,"date":"2026-11-02","lesson_hour":1,"status":"hadir","notes":null},` +
		"\n\t" + `{"source_student_id":100002,"date":"2026-11-02","lesson_hour":2,"status":"sakit","notes":"Surat dokter"}]}`
	if _, ok := scanBatch([]byte(usual)); !ok {
		t.Fatal("the usual body was left to encoding/json")
	}
	bodies := []string{usual,
		`{}`, `{"attendances":[]}`, `{"entries":[{}]}`, `{"token":null,"token":"b","x":1.5e3,"y":true}`,
		`{"attendances":[{"source_student_id":"42","student_id":-7,"date":20261102,"lesson_hour":1.5,"status":false,"notes":"a","notes":null,"z":0}]}`,
		`{"attendances":[{"source_student_id":1e2,"lesson_hour":-0,"status":" Terlambat ","notes":"caf\u00e9 é"}]}`,
		`{"Token":"x","attendances":[]}`, `{"attendances":[{"Status":"A"}]}`, `{"attendances":[{"ſtatus":"A"}]}`,
		`{"attendances":[],"attendances":[]}`, `{"attendances":[null]}`, `{"attendances":[{"notes":{}}]}`,
		`{"attendances":[{"notes":"a\nb"}]}`, `{"attendances":[{"lesson_hour":01}]}`, `{"attendances":[{"lesson_hour":1.}]}`,
		`{"attendances":[{"lesson_hour":-}]}`, `{"attendances":[{"status":nul}]}`, `{"attendances":[{},]}`, `{"a":1,}`,
		`{"attendances":[{"status":"A"}]} x`, `{"attendances":[{"status":"A"}]`, "{\"attendances\":[{\"notes\":\"\xff\"}]}",
	}
	for _, b := range bodies {
		got, ok := scanBatch([]byte(b))
		if !ok {
			continue
		}
		var want PushBody
		if err := json.Unmarshal([]byte(b), &want); err != nil {
			t.Errorf("%s: scanned, but encoding/json refuses it: %v", b, err)
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\nscan %+v\njson %+v", b, got, want)
		}
	}
}

// The limits the document states are the ones the push checks.
func TestPushBodyTags(t *testing.T) {
	t.Parallel()
	body := reflect.TypeFor[PushBody]()
	for _, name := range []string{"Attendances", "Entries"} {
		f, _ := body.FieldByName(name)
		if tag := f.Tag.Get("jsonschema"); !strings.Contains(tag, "maxItems="+strconv.Itoa(MaxEntries)) {
			t.Errorf("PushBody.%s: jsonschema %q, want maxItems=%d", name, tag, MaxEntries)
		}
	}
	f, _ := reflect.TypeFor[PushEntry]().FieldByName("Notes")
	if tag := f.Tag.Get("jsonschema"); !strings.Contains(tag, "maxLength="+strconv.Itoa(MaxNotes)) {
		t.Errorf("PushEntry.Notes: jsonschema %q, want maxLength=%d", tag, MaxNotes)
	}
}
