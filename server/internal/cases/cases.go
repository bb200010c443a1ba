// Package cases records cases (kasus) as Permendikdasmen No. 6 Tahun 2026
// asks: one incident with students in roles and staff or outsiders, a team,
// a classification, and the stages identification → handling → conclusions
// → closed, each with an owner and a due date (docs/cases.md).
//
// What a reader sees of a case is decided in SQL (levelExpr): the team and
// admins see everything; a case manager outside the team sees the case
// without the names of victims, witnesses, reporters and outsiders, the
// description or the notes; a homeroom teacher sees only their own students
// in it and their roles. Every read is written to case_access_log.
package cases

import (
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/schoolday"
	"github.com/tatib/tatib/shared/api"
)

// Limits of a case.
const (
	MaxTitle        = 200
	MaxPlace        = 200
	MaxDescription  = 10000
	MaxNotes        = 5000
	MaxName         = 150
	MaxRelation     = 100
	MaxParticipants = 50
	MaxTeam         = 20
	MaxCategoryName = 100
	MaxStageDays    = 180
)

var studentRoles = map[string]bool{api.CaseRoleSuspect: true, api.CaseRoleVictim: true, api.CaseRoleWitness: true, api.CaseRoleReporter: true}

var sources = map[string]bool{api.CaseSourceStaffFinding: true, api.CaseSourceReport: true, api.CaseSourceAnonymousReport: true}

func invalid(f apperr.Fields) error {
	return &apperr.Error{Code: apperr.Invalid, Msg: apperr.M("cases.invalid"), Fields: f}
}

func clean(s string) string { return strings.Join(strings.Fields(s), " ") }

func tooLong(s string, max int) bool { return utf8.RuneCountInString(s) > max }

// parseOccurred reads an RFC 3339 time or a "2006-01-02T15:04" local
// (Jakarta) time, as a datetime-local field sends it.
func parseOccurred(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, true
	}
	// The wall-clock reading, placed on its day in Jakarta.
	if t, err := time.Parse("2006-01-02T15:04", s); err == nil {
		return schoolday.DateFromDay(t).At(t.Hour(), t.Minute()), true
	}
	return time.Time{}, false
}

func checkOccurred(f apperr.Fields, field, s string, now time.Time) time.Time {
	t, ok := parseOccurred(s)
	switch {
	case strings.TrimSpace(s) == "":
		f.Add(field, "cases.occurred_at.required")
	case !ok:
		f.Add(field, "cases.occurred_at.invalid")
	case t.After(now.Add(5 * time.Minute)):
		f.Add(field, "cases.occurred_at.future")
	case t.Year() < 2000:
		f.Add(field, "cases.occurred_at.invalid")
	}
	return t
}

// validateCreate trims in and checks what needs no database.
func validateCreate(in *api.CreateCaseRequest, now time.Time) (time.Time, error) {
	f := apperr.Fields{}
	in.Title = clean(in.Title)
	switch {
	case in.Title == "":
		f.Add("title", "cases.title.required")
	case tooLong(in.Title, MaxTitle):
		f.Add("title", "cases.title.too_long", "max", MaxTitle)
	}
	at := checkOccurred(f, "occurred_at", in.OccurredAt, now)
	in.Place = clean(in.Place)
	if tooLong(in.Place, MaxPlace) {
		f.Add("place", "cases.place.too_long", "max", MaxPlace)
	}
	in.Description = strings.TrimSpace(in.Description)
	if tooLong(in.Description, MaxDescription) {
		f.Add("description", "cases.description.too_long", "max", MaxDescription)
	}
	if in.CategoryID <= 0 {
		f.Add("category_id", "cases.category.required")
	}
	if !sources[in.Source] {
		f.Add("source", "cases.source.choose")
	}
	if len(in.Participants) > MaxParticipants {
		f.Add("participants", "cases.participants.too_many", "max", MaxParticipants)
	} else {
		for i := range in.Participants {
			validateParticipant(f, "participants."+strconv.Itoa(i)+".", &in.Participants[i])
		}
	}
	if len(in.Team) > MaxTeam {
		f.Add("team", "cases.team.too_many", "max", MaxTeam)
	}
	if len(f) > 0 {
		return at, invalid(f)
	}
	return at, nil
}

// validateParticipant checks one participant; prefix names its fields.
func validateParticipant(f apperr.Fields, prefix string, p *api.CaseParticipantInput) {
	p.Name = clean(p.Name)
	p.Relation = clean(p.Relation)
	if tooLong(p.Relation, MaxRelation) {
		f.Add(prefix+"relation", "cases.participant.relation_too_long", "max", MaxRelation)
	}
	switch p.Kind {
	case api.CaseParticipantStudent:
		if p.StudentID == nil || *p.StudentID <= 0 {
			f.Add(prefix+"student_id", "cases.participant.student_required")
		}
		if !studentRoles[p.Role] {
			f.Add(prefix+"role", "cases.participant.role_choose")
		}
		p.UserID, p.Name = nil, ""
	case api.CaseParticipantStaff:
		if p.UserID == nil || *p.UserID <= 0 {
			f.Add(prefix+"user_id", "cases.participant.user_required")
		}
		p.StudentID, p.Name, p.Role = nil, "", ""
	case api.CaseParticipantOutsider:
		switch {
		case p.Name == "":
			f.Add(prefix+"name", "cases.participant.name_required")
		case tooLong(p.Name, MaxName):
			f.Add(prefix+"name", "cases.participant.name_too_long", "max", MaxName)
		}
		if p.Relation == "" {
			f.Add(prefix+"relation", "cases.participant.relation_required")
		}
		p.StudentID, p.UserID, p.Role = nil, nil, ""
	default:
		f.Add(prefix+"kind", "cases.participant.kind_choose")
	}
}

// nextStage is the stage after s, "" after closed.
func nextStage(s string) string {
	for i, st := range api.CaseStages {
		if st == s && i+1 < len(api.CaseStages) {
			return api.CaseStages[i+1]
		}
	}
	return ""
}

// DefaultSettings are the stage durations when the school set none.
func DefaultSettings() api.CaseSettings {
	return api.CaseSettings{IdentificationDays: 3, HandlingDays: 14, ConclusionsDays: 7}
}

func validateSettings(s api.CaseSettings) error {
	f := apperr.Fields{}
	for name, v := range map[string]int{"identification_days": s.IdentificationDays, "handling_days": s.HandlingDays, "conclusions_days": s.ConclusionsDays} {
		if v < 1 || v > MaxStageDays {
			f.Add(name, "request.field_range", "min", 1, "max", MaxStageDays)
		}
	}
	if len(f) > 0 {
		return invalid(f)
	}
	return nil
}
