package studentsync

import (
	"testing"
	"time"
)

func TestStudentFromMapLenient(t *testing.T) {
	m := map[string]any{"id": "42", "nisn": 1234567890.0, "nis": "77", "name": "  Budi   Santoso ", "gender": "Laki-laki",
		"date_of_birth": "2009-03-04T00:00:00.000000Z", "classroom": map[string]any{"id": 5.0, "level": "11", "name": "XI TKJ 2"},
		"department_name": "Teknik Komputer", "status": "Aktif", "guardian_name": "Slamet", "extra": []any{1}}
	s := studentFromMap(m)
	if s.ID != 42 || s.NISN != "1234567890" || s.NIS != "77" || s.FullName != "Budi Santoso" || s.Gender != "L" ||
		s.DateOfBirth != "2009-03-04" || s.Grade != 11 || s.ClassName != "XI TKJ 2" || s.ClassSourceID != 5 ||
		s.DeptCode != "TEKNIK KOMPUTER" || !s.Active || s.ParentName != "Slamet" {
		t.Fatalf("%+v", s)
	}
	if s := studentFromMap(map[string]any{"id": 1.0, "full_name": "X", "status": "graduated"}); s.Active {
		t.Error("graduated is active")
	}
}

func TestScheduledSlot(t *testing.T) {
	// 22:30 UTC on the 21st is 05:30 on the 22nd in Jakarta.
	now := time.Date(2026, 11, 21, 22, 31, 0, 0, time.UTC)
	slot, ok := scheduledSlot("05:30", now)
	if !ok || !slot.Equal(time.Date(2026, 11, 21, 22, 30, 0, 0, time.UTC)) {
		t.Fatalf("slot %v %v", slot, ok)
	}
	if _, ok := scheduledSlot("06:00", now); ok {
		t.Error("06:00 is not due at 05:31")
	}
}
