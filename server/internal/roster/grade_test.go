package roster

import "testing"

func TestParseGrade(t *testing.T) {
	for in, want := range map[string]int{
		"1": 1, "I": 1, "6": 6, "VI": 6, "7": 7, "VII": 7, "Kelas 8": 8, "kelas VIII": 8, "IX": 9, "X": 10, "10": 10,
		"XI": 11, "XII": 12, "12": 12, "7A": 7, "VII-B": 7, "10-IPA": 10, "XII.IPA": 12,
		"13": 0, "0": 0, "XIII": 0, "": 0, "A1": 0, "TKJ": 0,
	} {
		if got := ParseGrade(in); got != want {
			t.Errorf("ParseGrade(%q) = %d, want %d", in, got, want)
		}
	}
	for g, want := range map[int]string{1: "I", 4: "IV", 7: "VII", 9: "IX", 10: "X", 12: "XII", 13: ""} {
		if got := gradeLabel(g); got != want {
			t.Errorf("gradeLabel(%d) = %q, want %q", g, got, want)
		}
	}
}
