package school_test

import (
	"strings"
	"testing"

	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/shared/perm"
)

// The sign-in page shows the school's name, and nothing else of the
// profile, before anyone signs in.
func TestPublicSchoolName(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	env.As(perm.Admin).Do("PUT", "/api/v1/settings/school", map[string]any{"name": "SMP Negeri 2 Contoh", "principal_nip": "197203152000031002",
		"address": "Jl. Rahasia 1"}).Want(200)
	var out map[string]any
	res := env.Anonymous().Do("GET", "/api/v1/school/public", nil).Want(200).JSON(&out)
	if out["name"] != "SMP Negeri 2 Contoh" || len(out) != 2 || out["logo_url"] != nil {
		t.Errorf("public: %s", res.Body)
	}
	if strings.Contains(string(res.Body), "1972") || strings.Contains(string(res.Body), "Rahasia") {
		t.Errorf("public profile leaks: %s", res.Body)
	}
}

// A NIP typed in groups ("19720315 200003 1 002", with dots or dashes) is
// stored as its 18 digits.
func TestProfileNIPNormalised(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	admin := env.As(perm.Admin)
	for _, nip := range []string{"19720315 200003 1 002", "19720315.200003.1.002", "19720315-200003-1-002", "\t19720315\u00a0200003 1 002 "} {
		var p school.Profile
		admin.Do("PUT", "/api/v1/settings/school", map[string]any{"name": "SMA Contoh", "principal_nip": nip}).Want(200).JSON(&p)
		if p.PrincipalNIP != "197203152000031002" {
			t.Errorf("%q stored as %q", nip, p.PrincipalNIP)
		}
	}
	e := admin.Do("PUT", "/api/v1/settings/school", map[string]any{"name": "SMA Contoh", "principal_nip": "1972 0315"}).Want(422).Err()
	if e.Error.FieldCodes["principal_nip"].Code != "school.profile.nip" {
		t.Errorf("short NIP: %+v", e.Error.FieldCodes)
	}
}

// The letter's place and the BK coordinator's NIP are part of the profile:
// the NIP normalised and checked like the principal's, the city bounded.
func TestProfileCityAndBKNIP(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	admin := env.As(perm.Admin)
	var p school.Profile
	admin.Do("PUT", "/api/v1/settings/school", map[string]any{"name": "SMA Contoh", "city": "  Bandung ", "bk_coordinator_nip": "19800101 200501 2 003"}).Want(200).JSON(&p)
	if p.City != "Bandung" || p.BKCoordinatorNIP != "198001012005012003" {
		t.Errorf("saved %+v", p)
	}
	admin.Do("GET", "/api/v1/settings/school", nil).Want(200).JSON(&p)
	if p.City != "Bandung" || p.BKCoordinatorNIP != "198001012005012003" {
		t.Errorf("read back %+v", p)
	}
	e := admin.Do("PUT", "/api/v1/settings/school", map[string]any{"name": "SMA Contoh", "city": strings.Repeat("k", 101), "bk_coordinator_nip": "123"}).Want(422).Err()
	if e.Error.FieldCodes["bk_coordinator_nip"].Code != "school.profile.nip" || e.Error.FieldCodes["city"].Code != "school.profile.too_long" {
		t.Errorf("field codes %+v", e.Error.FieldCodes)
	}
}
