package followup_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/server/internal/followup"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

const settingPath = "/api/v1/settings/attendance-follow-up"
const prefPath = "/api/v1/preferences/violation-source"

func setting(t *testing.T, c *apitest.Client) api.AttendanceFollowUp {
	t.Helper()
	var out api.AttendanceFollowUp
	c.Do("GET", settingPath, nil).Want(http.StatusOK).JSON(&out)
	return out
}

func TestSetting(t *testing.T) {
	env := apitest.New(t)
	admin := env.As(perm.Admin)

	t.Run("OKDefaults", func(t *testing.T) {
		s := setting(t, env.As(perm.BK))
		if s.UpdatedAt != nil {
			t.Errorf("never saved, yet updated_at %v", s.UpdatedAt)
		}
		s.UpdatedAt = nil
		if s != followup.Defaults() || s.Owner != api.FollowUpHomeroomTeacher || s.AbsentStreakDays != 3 || s.LateTimes != 5 || s.LateSchoolDays != 10 {
			t.Errorf("defaults %+v", s)
		}
	})
	t.Run("OKSaveAudited", func(t *testing.T) {
		in := api.AttendanceFollowUp{Owner: api.FollowUpCounselor, AbsentStreakDays: 4, LateTimes: 3, LateSchoolDays: 3}
		var out api.AttendanceFollowUp
		admin.Do("PUT", settingPath, in).Want(http.StatusOK).JSON(&out)
		if out.UpdatedAt == nil {
			t.Fatal("no updated_at")
		}
		if got := setting(t, admin); got.Owner != in.Owner || got.AbsentStreakDays != 4 || got.LateTimes != 3 || got.LateSchoolDays != 3 {
			t.Errorf("stored %+v", got)
		}
		var raw []byte
		if err := env.DB.Get(&raw, `SELECT details FROM audit_log WHERE action = 'settings.attendance_follow_up.update' AND entity_id = $1`, followup.Key); err != nil {
			t.Fatal(err)
		}
		var d struct{ Before, After api.AttendanceFollowUp }
		if err := json.Unmarshal(raw, &d); err != nil {
			t.Fatal(err)
		}
		if d.Before.Owner != api.FollowUpHomeroomTeacher || d.After.Owner != api.FollowUpCounselor || d.After.AbsentStreakDays != 4 {
			t.Errorf("audit %+v", d)
		}
	})
	t.Run("ErrFields", func(t *testing.T) {
		before := setting(t, admin)
		cases := []struct {
			body  map[string]any
			field string
			code  string
		}{
			{map[string]any{"owner": "bk", "absent_streak_days": 3, "late_times": 5, "late_school_days": 10}, "owner", "followup.owner"},
			{map[string]any{"owner": "counselor", "absent_streak_days": 1, "late_times": 5, "late_school_days": 10}, "absent_streak_days", "request.field_range"},
			{map[string]any{"owner": "counselor", "absent_streak_days": 21, "late_times": 5, "late_school_days": 10}, "absent_streak_days", "request.field_range"},
			{map[string]any{"owner": "counselor", "absent_streak_days": 3, "late_times": 1, "late_school_days": 10}, "late_times", "request.field_range"},
			{map[string]any{"owner": "counselor", "absent_streak_days": 3, "late_times": 31, "late_school_days": 10}, "late_times", "request.field_range"},
			{map[string]any{"owner": "counselor", "absent_streak_days": 3, "late_times": 5, "late_school_days": 31}, "late_school_days", "request.field_range"},
			{map[string]any{"owner": "counselor", "absent_streak_days": 3, "late_times": 6, "late_school_days": 5}, "late_school_days", "followup.late_window_short"},
			// Missing fields are zero: out of range, never a silent default.
			{map[string]any{"owner": "counselor"}, "late_school_days", "request.field_range"},
		}
		for _, c := range cases {
			e := admin.Do("PUT", settingPath, c.body).Want(http.StatusUnprocessableEntity).Err()
			if got := e.Error.FieldCodes[c.field].Code; got != c.code {
				t.Errorf("%v: %s has %q, want %q (%+v)", c.body, c.field, got, c.code, e.Error.FieldCodes)
			}
		}
		// A number too large for an int is the JSON's type error, named.
		admin.Do("PUT", settingPath, map[string]any{"owner": "counselor", "absent_streak_days": 1e30}).Want(http.StatusBadRequest)
		if after := setting(t, admin); *after.UpdatedAt != *before.UpdatedAt || after.Owner != before.Owner {
			t.Errorf("a refused save changed the setting: %+v", after)
		}
	})
	t.Run("ErrPermission", func(t *testing.T) {
		// A counselor may see it (settings.view), not change it.
		bk := env.As(perm.BK)
		bk.Do("PUT", settingPath, followup.Defaults()).Want(http.StatusForbidden)
		env.As(perm.WaliKelas).Do("GET", settingPath, nil).Want(http.StatusForbidden)
		env.Anonymous().Do("GET", settingPath, nil).Want(http.StatusUnauthorized)
	})
}

func pref(t *testing.T, c *apitest.Client) api.ViolationSourcePreference {
	t.Helper()
	var out api.ViolationSourcePreference
	c.Do("GET", prefPath, nil).Want(http.StatusOK).JSON(&out)
	return out
}

func TestPreference(t *testing.T) {
	env := apitest.New(t)
	admin := env.As(perm.Admin)
	bk, other := env.As(perm.BK), env.As(perm.BK)
	wali := env.As(perm.WaliKelas)

	t.Run("OKRoleDefaults", func(t *testing.T) {
		for _, c := range []struct {
			c    *apitest.Client
			want string
		}{{bk, api.SourceBehaviour}, {wali, api.SourceAttendance}, {env.As(perm.KepalaSekolah), api.SourceBehaviour}, {env.As(perm.Staff), api.SourceBehaviour}} {
			if p := pref(t, c.c); p != (api.ViolationSourcePreference{Source: c.want, Default: c.want}) {
				t.Errorf("%s: %+v, want %s", c.c.Role, p, c.want)
			}
		}
		// The counselors follow up attendance: their default is all.
		admin.Do("PUT", settingPath, api.AttendanceFollowUp{Owner: api.FollowUpCounselor, AbsentStreakDays: 3, LateTimes: 5, LateSchoolDays: 10}).Want(http.StatusOK)
		if p := pref(t, bk); p.Source != api.SourceAll || p.Default != api.SourceAll {
			t.Errorf("counselor under counselor follow-up: %+v", p)
		}
		if p := pref(t, wali); p.Source != api.SourceAttendance {
			t.Errorf("homeroom teacher under counselor follow-up: %+v", p)
		}
		admin.Do("PUT", settingPath, followup.Defaults()).Want(http.StatusOK)
	})
	t.Run("OKRememberedPerUser", func(t *testing.T) {
		var p api.ViolationSourcePreference
		bk.Do("PUT", prefPath, map[string]any{"source": "attendance"}).Want(http.StatusOK).JSON(&p)
		if p != (api.ViolationSourcePreference{Source: api.SourceAttendance, Default: api.SourceBehaviour, Saved: true}) {
			t.Errorf("saved %+v", p)
		}
		if p := pref(t, bk); p.Source != api.SourceAttendance || !p.Saved {
			t.Errorf("read back %+v", p)
		}
		if p := pref(t, other); p.Source != api.SourceBehaviour || p.Saved {
			t.Errorf("another counselor %+v", p)
		}
		bk.Do("PUT", prefPath, map[string]any{"source": "all"}).Want(http.StatusOK)
		if p := pref(t, bk); p.Source != api.SourceAll {
			t.Errorf("changed %+v", p)
		}
		// null: back to the role's default.
		bk.Do("PUT", prefPath, map[string]any{"source": nil}).Want(http.StatusOK).JSON(&p)
		if p != (api.ViolationSourcePreference{Source: api.SourceBehaviour, Default: api.SourceBehaviour}) {
			t.Errorf("forgotten %+v", p)
		}
	})
	t.Run("ErrSource", func(t *testing.T) {
		for _, bad := range []any{"manual", "semua", ""} {
			e := wali.Do("PUT", prefPath, map[string]any{"source": bad}).Want(http.StatusUnprocessableEntity).Err()
			if e.Error.FieldCodes["source"].Code != "followup.source" {
				t.Errorf("%v: %+v", bad, e.Error)
			}
		}
		wali.Do("PUT", prefPath, map[string]any{"source": 3}).Want(http.StatusBadRequest)
		env.Anonymous().Do("GET", prefPath, nil).Want(http.StatusUnauthorized)
	})
}
