package perm

import (
	"strings"
	"testing"
)

func TestCatalogue(t *testing.T) {
	seen := map[Name]bool{}
	for _, p := range Catalogue {
		if seen[p.Name] {
			t.Errorf("%s listed twice", p.Name)
		}
		seen[p.Name] = true
		if p.Name == Public || p.Name == Authenticated {
			t.Errorf("%s is a route marker, not a permission", p.Name)
		}
		if !strings.HasPrefix(string(p.Name), p.Group+".") && !strings.Contains(string(p.Name), ".") {
			t.Errorf("%s: name is not group.operation", p.Name)
		}
		if p.Label == "" || p.LabelEN == "" || p.Group == "" {
			t.Errorf("%s: label or group missing", p.Name)
		}
		for _, r := range p.DefaultRoles {
			if !r.Valid() || r == Admin {
				t.Errorf("%s: default role %q (admin has everything by role)", p.Name, r)
			}
		}
	}
}

func TestRoles(t *testing.T) {
	want := "admin bk wali_kelas staff other kepala_sekolah waka ketua_tim"
	var got []string
	for _, r := range Roles {
		got = append(got, string(r))
		if RoleLabels[r] == "" {
			t.Errorf("%s has no label", r)
		}
	}
	if strings.Join(got, " ") != want {
		t.Fatalf("roles %v", got)
	}
	for _, bad := range []Role{"", "Admin", "guru", "superuser"} {
		if bad.Valid() {
			t.Errorf("%q valid", bad)
		}
	}
	if len(Defaults(Admin)) != len(Catalogue) {
		t.Error("admin lacks a permission")
	}
}
