// Package handling records the follow-up of violations: handling records
// with their participants, resolving a violation, reopening it, and
// deleting a record. Each operation locks the violation's row, moves its
// handling status and writes the audit log in one transaction:
//
//	unhandled --record--> in_progress --resolve--> resolved
//	resolved --reopen--> in_progress (unhandled when it has no record)
//	in_progress --delete the last record--> unhandled
//
// A resolved violation takes no new record (409: reopen it first); deleting
// a record of a resolved one leaves it resolved. Resolving needs at least
// one record: the record says what was done.
//
// A shared record (shared.go) covers several violations, of one student or
// of several: made, it moves each as a first record would; resolved, it
// resolves them all; deleted, it returns each to the status it had before.
// The homeroom teacher's bulk resolve of a class's automatic attendance
// violations (attendance.go) is one shared record, made resolved.
package handling

import (
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/tatib/tatib/server/internal/app"
	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/shared/api"
)

// Limits of a handling record.
const (
	MaxNotes           = 5000
	MaxParticipants    = 20
	MaxParticipantName = 150
	MaxRole            = 50
)

// Mount registers the handling routes.
func Mount(r *httpx.Router, d app.Deps) {
	NewHandler(NewStore(d.DB), d.Auth).Routes(r)
}

// validate trims in and checks it against today (the Jakarta day);
// whether the type and the users exist is the store's check.
func validate(in *api.CreateHandlingRequest, today string) error {
	f := apperr.Fields{}
	if in.HandlingTypeID <= 0 {
		f.Add("handling_type_id", "handling.type.required")
	}
	in.HandledOn = strings.TrimSpace(in.HandledOn)
	switch {
	case in.HandledOn == "":
		f.Add("handled_on", "handling.handled_on.required")
	case !isDate(in.HandledOn):
		f.Add("handled_on", "handling.handled_on.invalid")
	case in.HandledOn > today:
		f.Add("handled_on", "handling.handled_on.future")
	}
	if in.FollowUpOn != nil {
		v := strings.TrimSpace(*in.FollowUpOn)
		switch {
		case v == "":
			in.FollowUpOn = nil
		case !isDate(v):
			f.Add("follow_up_on", "handling.follow_up_on.invalid")
		case isDate(in.HandledOn) && v < in.HandledOn:
			f.Add("follow_up_on", "handling.follow_up_on.before")
		default:
			in.FollowUpOn = &v
		}
	}
	in.Notes = strings.TrimSpace(in.Notes)
	if utf8.RuneCountInString(in.Notes) > MaxNotes {
		f.Add("notes", "handling.notes.too_long", "max", MaxNotes)
	}
	if len(in.Participants) > MaxParticipants {
		f.Add("participants", "handling.participants.too_many", "max", MaxParticipants)
	} else {
		for i := range in.Participants {
			p := &in.Participants[i]
			field := "participants." + strconv.Itoa(i)
			p.Name = strings.Join(strings.Fields(p.Name), " ")
			p.Role = strings.Join(strings.Fields(p.Role), " ")
			if p.UserID != nil && *p.UserID <= 0 {
				f.Add(field+".user_id", "handling.participant.user_not_found")
			}
			if p.UserID == nil {
				if p.Name == "" {
					f.Add(field+".name", "handling.participant.name_required")
				} else if utf8.RuneCountInString(p.Name) > MaxParticipantName {
					f.Add(field+".name", "handling.participant.name_too_long", "max", MaxParticipantName)
				}
			}
			if p.Role == "" {
				f.Add(field+".role", "handling.participant.role_required")
			} else if utf8.RuneCountInString(p.Role) > MaxRole {
				f.Add(field+".role", "handling.participant.role_too_long", "max", MaxRole)
			}
		}
	}
	if len(f) > 0 {
		return &apperr.Error{Code: apperr.Invalid, Msg: apperr.M("handling.invalid"), Fields: f}
	}
	return nil
}

func isDate(s string) bool {
	_, err := time.Parse(time.DateOnly, s)
	return err == nil
}
