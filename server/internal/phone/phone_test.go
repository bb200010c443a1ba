package phone

import "testing"

func TestNormalize(t *testing.T) {
	cases := []struct {
		in   string
		want string
		p    Problem
	}{
		{"0812-3456-7890", "6281234567890", None},
		{"+62 812 3456 7890", "6281234567890", None},
		{"6281234567890", "6281234567890", None},
		{"81234567890", "6281234567890", None},
		{"(0812) 345.678", "62812345678", None},
		{"0062812345678", "62812345678", None},
		{"+60 12-345 6789", "60123456789", None},
		{"", "", Missing},
		{"   ", "", Missing},
		{"021-5551234", "", NotMobile},
		{"+62 21 5551234", "", NotMobile},
		{"0812", "", Invalid},
		{"08123456789012345", "", Invalid},
		{"0812abc4567", "", Invalid},
		{"08012345678", "", Invalid},
		{"+0812345678", "", Invalid},
		{"+1234", "", Invalid},
		{"０８１２３４５６７８９", "", Invalid},
		{"0812\u00a03456\u00a07890", "6281234567890", None},
	}
	for _, c := range cases {
		got, p := Normalize(c.in)
		if got != c.want || p != c.p {
			t.Errorf("Normalize(%q) = %q, %q; want %q, %q", c.in, got, p, c.want, c.p)
		}
	}
}

func TestMask(t *testing.T) {
	if got := Mask("6281234567890"); got != "62812•••••890" {
		t.Errorf("Mask = %q", got)
	}
	if got := Mask("123"); got != "•••" {
		t.Errorf("short Mask = %q", got)
	}
}
