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

// The permissions that let a role manage users or access rights are marked
// sensitive and say, in both languages, what they allow; the administrative
// lists a homeroom teacher might be given are marked school-wide.
func TestSensitiveAndSchoolWide(t *testing.T) {
	for _, n := range []Name{UsersManage, UsersResetPassword, RolesManage} {
		p, _ := Lookup(n)
		if !p.Sensitive || p.Allows == "" || p.AllowsEN == "" {
			t.Errorf("%s: not marked sensitive with an explanation: %+v", n, p)
		}
	}
	for _, n := range []Name{UsersView, AuditView} {
		if p, _ := Lookup(n); !p.SchoolWide {
			t.Errorf("%s: not marked school-wide", n)
		}
	}
	for _, p := range Catalogue {
		if !p.Sensitive && (p.Allows != "" || p.AllowsEN != "") {
			t.Errorf("%s: an explanation without the mark", p.Name)
		}
	}
	if !Sensitive(RolesManage) || Sensitive(StudentsView) || Sensitive("unknown") {
		t.Error("Sensitive()")
	}
}
