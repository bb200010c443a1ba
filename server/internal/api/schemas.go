package api

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/invopop/jsonschema"

	"github.com/tatib/tatib/server/internal/datareset"
	"github.com/tatib/tatib/server/internal/journal"
	"github.com/tatib/tatib/server/internal/letter"
	"github.com/tatib/tatib/server/internal/roster"
	"github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/server/internal/studentsync"
	"github.com/tatib/tatib/server/internal/violationtype"
	wire "github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

// wireTypes names the Go type behind each schema the document generates
// from Go (issue 24: the contract typed once). For a name listed here the
// builder serves the generated schema; the fragments keep paths, text and
// examples and refer to it by name. A fragment may still hold a copy (for
// its text); a test fails while that copy's shape disagrees.
//
// The convention (docs/decisions.md, "The contract checked three ways"):
//   - A response type (the default) says what encoding/json sends: every
//     field not tagged omitempty is required; a pointer may be null (an
//     omitempty one only when tagged `jsonschema:"nullable"`: the type is a
//     request body's too, which takes null); a slice or map may be null
//     only when tagged `jsonschema:"nullable"` (the handler sends [] or {}
//     otherwise); a field tagged readOnly (`jsonschema:"readOnly=true"`, or
//     `jsonschema_extras:"readOnly=true"` for a non-string) is not required:
//     the type is a request body's too, which leaves it out (the answer
//     sends it all the same).
//   - A request type, request(v), says what the server accepts: a field
//     is required only when tagged `jsonschema:"required"` (where Validate
//     refuses its absence); a pointer may be null (null reads as absent),
//     another field only when tagged `jsonschema:"nullable"`.
//   - A field tagged `openapi:"Name"` is a $ref to the named schema (an
//     enum of enumSchemas or another registered type) instead of its Go
//     type's (a slice's items are); a registered struct type is always a $ref.
//   - Text and limits are invopop's tags: `jsonschema:"format=date,maxLength=50"`,
//     `jsonschema_description:"..."`; a type's description is in
//     schemaDescriptions. A slice's enum (invopop) and a map's (here) are
//     their values'; a nullable field's enum holds null too.
var wireTypes = map[string]any{
	// users, student years, letters, roles, audit
	"AcademicYear":   wire.AcademicYear{},
	"AuditEntry":     wire.AuditEntry{},
	"LetterSettings": wire.LetterSettings{},
	// PUT's body: the same fields, none required (an absent pattern is the default)
	"LetterSettingsInput": request(wire.LetterSettings{}),
	"Permission":          perm.Permission{},
	"PublicLetter":        wire.PublicLetter{},
	"StudentYear":         wire.StudentYear{},
	"StudentYears":        wire.StudentYears{},
	"UserCreate":          request(wire.UserCreate{}),
	"UserUpdate":          request(wire.UserUpdate{}),
	"UserWithClass":       wire.UserWithClass{},

	"EarlyWarningCounts":        wire.EarlyWarningCounts{},
	"MessagingPreviewRequest":   request(wire.MessagingPreviewRequest{}),
	"MessagingTestResult":       wire.MessagingTestResult{},
	"PortalAchievement":         wire.PortalAchievement{},
	"PortalCodeRequest":         request(wire.PortalCodeRequest{}),
	"PortalStudentSignIn":       request(wire.PortalStudentSignIn{}),
	"PortalVerifyRequest":       request(wire.PortalVerifyRequest{}),
	"ViolationSourcePreference": wire.ViolationSourcePreference{},

	// backups
	"Backup":     wire.Backup{},
	"BackupList": wire.BackupList{},

	// notifications
	"Notification": wire.Notification{},
	"UnreadCount":  wire.UnreadCount{},
	"WSMessage":    wire.WSMessage{},

	// achievements
	"Achievement":              wire.Achievement{},
	"AchievementCategory":      wire.AchievementCategory{},
	"AchievementCategoryInput": request(wire.AchievementCategoryInput{}),
	"AchievementImportResult":  wire.AchievementImportResult{},
	"AchievementImportRow":     wire.AchievementImportRow{},
	"AchievementLevelPoints":   wire.LevelPoints{},
	"AchievementStudent":       wire.AchievementStudent{},
	"AchievementType":          wire.AchievementType{},
	"AchievementTypeInput":     request(wire.AchievementTypeInput{}),
	"AchievementTypeList":      wire.AchievementTypeList{},
	"CreateAchievementRequest": request(wire.CreateAchievementRequest{}),

	// attendance
	"AttendanceCalendar":        wire.AttendanceCalendar{},
	"AttendanceCalendarDay":     wire.AttendanceCalendarDay{},
	"AttendanceCell":            wire.AttendanceCell{},
	"AttendanceCounts":          wire.AttendanceCounts{},
	"AttendanceDayRuleSetting":  wire.AttendanceDayRuleSetting{},
	"AttendanceForm":            wire.AttendanceForm{},
	"AttendanceFormStudent":     wire.AttendanceFormStudent{},
	"AttendancePreview":         wire.AttendancePreview{},
	"AttendanceRecap":           wire.AttendanceRecap{},
	"AttendanceRecapClass":      wire.AttendanceRecapClass{},
	"AttendanceRecapDay":        wire.AttendanceRecapDay{},
	"AttendanceRecapStudent":    wire.AttendanceRecapStudent{},
	"AttendanceResult":          wire.AttendanceResult{},
	"AttendanceSchoolRecap":     wire.AttendanceSchoolRecap{},
	"AttendanceSemester":        wire.AttendanceSemester{},
	"AttendanceSemesterStudent": wire.AttendanceSemesterStudent{},
	"JournalConflict":           wire.JournalConflict{},
	"JournalConflictsRequest":   request(wire.JournalConflictsRequest{}),
	"LetterChange":              wire.LetterChange{},
	"SaveAttendanceRequest":     request(wire.SaveAttendanceRequest{}),
	"SaveAttendanceResponse":    wire.SaveAttendanceResponse{},

	// portal and parent messages
	"ActivationCode":           wire.ActivationCode{},
	"Excuse":                   wire.Excuse{},
	"ExcuseDecision":           wire.ExcuseDecision{},
	"ExcuseInput":              request(wire.ExcuseInput{}),
	"Guardian":                 wire.Guardian{},
	"GuardianInput":            request(wire.GuardianInput{}),
	"GuardianLink":             wire.GuardianLink{},
	"GuardianVerification":     request(wire.GuardianVerification{}),
	"MessagingEvent":           wire.MessagingEvent{},
	"MessagingGateway":         wire.MessagingGateway{},
	"MessagingPreview":         wire.MessagingPreview{},
	"MessagingSettings":        wire.MessagingSettings{},
	"MessagingTestRequest":     request(wire.MessagingTestRequest{}),
	"NotificationPrefs":        wire.NotificationPrefs{},
	"NotificationPrefsInput":   request(wire.NotificationPrefsInput{}),
	"ParentContactInput":       request(wire.ParentContactInput{}),
	"ParentMessage":            wire.ParentMessage{},
	"ParentMessageAttempt":     wire.ParentMessageAttempt{},
	"ParentMessageDetail":      wire.ParentMessageDetail{},
	"ParentMessageList":        wire.ParentMessageList{},
	"PortalAttendanceDay":      wire.PortalAttendanceDay{},
	"PortalAttendanceSummary":  wire.PortalAttendanceSummary{},
	"PortalChild":              wire.PortalChild{},
	"PortalChildDetail":        wire.PortalChildDetail{},
	"PortalCodeAnswer":         wire.PortalCodeAnswer{},
	"PortalCodeRequestRow":     wire.PortalCodeRequestRow{},
	"PortalGuardian":           wire.PortalGuardian{},
	"PortalLetter":             wire.PortalLetter{},
	"PortalMessage":            wire.PortalMessage{},
	"PortalRegistration":       request(wire.PortalRegistration{}),
	"PortalRegistrationAnswer": wire.PortalRegistrationAnswer{},
	"PortalRegistrationRow":    wire.PortalRegistrationRow{},
	"PortalSessionRow":         wire.PortalSessionRow{},
	"PortalSettings":           wire.PortalSettings{},
	"PortalThreshold":          wire.PortalThreshold{},
	"PortalVerifyAnswer":       wire.PortalVerifyAnswer{},
	"PortalViolation":          wire.PortalViolation{},
	"PushKey":                  wire.PushKey{},
	"PushSubscription":         request(wire.PushSubscription{}),

	// cases
	"Case":                       wire.Case{},
	"CaseAccess":                 wire.CaseAccess{},
	"CaseAgreement":              wire.CaseAgreement{},
	"CaseAgreementItem":          wire.CaseAgreementItem{},
	"CaseCategory":               wire.CaseCategory{},
	"CaseCategoryInput":          request(wire.CaseCategoryInput{}),
	"CaseCount":                  wire.CaseCount{},
	"CaseCounts":                 wire.CaseCounts{},
	"CaseParticipant":            wire.CaseParticipant{},
	"CaseParticipantInput":       request(wire.CaseParticipantInput{}),
	"CaseRecoveryAction":         wire.CaseRecoveryAction{},
	"CaseReferral":               wire.CaseReferral{},
	"CaseReferralInput":          request(wire.CaseReferralInput{}),
	"CaseReplyInput":             request(wire.CaseReplyInput{}),
	"CaseReport":                 wire.CaseReport{},
	"CaseReportMessage":          wire.CaseReportMessage{},
	"CaseSession":                wire.CaseSession{},
	"CaseSettings":               wire.CaseSettings{},
	"CaseStage":                  wire.CaseStage{},
	"CaseStageRequest":           request(wire.CaseStageRequest{}),
	"CaseSummary":                wire.CaseSummary{},
	"CaseTeamMember":             wire.CaseTeamMember{},
	"CaseUserOption":             wire.CaseUserOption{},
	"CaseViolation":              wire.CaseViolation{},
	"CreateCaseAgreementRequest": request(wire.CreateCaseAgreementRequest{}),
	"CreateCaseRecoveryRequest":  request(wire.CreateCaseRecoveryRequest{}),
	"CreateCaseRequest":          request(wire.CreateCaseRequest{}),
	"CreateCaseSessionRequest":   request(wire.CreateCaseSessionRequest{}),
	"PublicReportLookup":         request(wire.PublicReportLookup{}),
	"PublicReportMessage":        wire.PublicReportMessage{},
	"PublicReportMessageInput":   request(wire.PublicReportMessageInput{}),
	"PublicReportReceipt":        wire.PublicReportReceipt{},
	"PublicReportRequest":        request(wire.PublicReportRequest{}),
	"PublicReportView":           wire.PublicReportView{},
	"UpdateCaseAgreementRequest": request(wire.UpdateCaseAgreementRequest{}),
	"UpdateCaseRequest":          request(wire.UpdateCaseRequest{}),

	// violations
	"CorrectViolationRequest":  request(wire.CorrectViolationRequest{}),
	"CorrectViolationResponse": wire.CorrectViolationResponse{},
	"CreateViolationsRequest":  request(wire.CreateViolationsRequest{}),
	"PointAuditEntry":          wire.PointAuditEntry{},
	"StudentPoints":            wire.StudentPoints{},
	"Violation":                wire.Violation{},
	"ViolationPhoto":           wire.ViolationPhoto{},

	// handlings (a participant is a request's and an answer's: registered
	// as what the server accepts, role alone required)
	"CreateHandlingRequest":       request(wire.CreateHandlingRequest{}),
	"CreateSharedHandlingRequest": request(wire.CreateSharedHandlingRequest{}),
	"Handling":                    wire.Handling{},
	"HandlingParticipant":         request(wire.HandlingParticipant{}),
	"HandlingViolation":           wire.HandlingViolation{},
	"OpenAttendanceViolations":    wire.OpenAttendanceViolations{},
	"ResolveAttendanceRequest":    request(wire.ResolveAttendanceRequest{}),
	"ResolveAttendanceResponse":   wire.ResolveAttendanceResponse{},

	// warning letters: /warning-letters answers letter.Letter (the stored
	// letter with its number, verification and acknowledgement); a
	// recording answers the stored letter alone, IssuedWarningLetter
	"CreateViolationsResponse": wire.CreateViolationsResponse{},
	"IssuedWarningLetter":      wire.WarningLetter{},
	"WarningLetter":            letter.Letter{},
	"WarningLetterEvent":       wire.WarningLetterEvent{},

	// points policy (a policy is a request's and an answer's: registered
	// as what the server accepts, updated_at readOnly and optional)
	"PointsPolicy":     request(wire.PointsPolicy{}),
	"SimulateRequest":  request(wire.SimulateRequest{}),
	"SimulateResponse": wire.SimulateResponse{},

	// dashboard and early warnings
	"AttendanceFollowUp": wire.AttendanceFollowUp{},
	"Dashboard":          wire.Dashboard{},
	"DashboardCount":     wire.DashboardCount{},
	"EarlyWarning":       wire.EarlyWarning{},
	"EarlyWarningPage":   wire.EarlyWarningPage{},
	"ViolationCalendar":  wire.ViolationCalendar{},

	// face ID
	"FaceChallenge":         wire.FaceChallenge{},
	"FaceChallengeResult":   request(wire.FaceChallengeResult{}),
	"FaceConsent":           wire.FaceConsent{},
	"FaceConsentInput":      request(wire.FaceConsentInput{}),
	"FaceConsentWithdrawal": request(wire.FaceConsentWithdrawal{}),
	"FaceEnrolmentInput":    request(wire.FaceEnrolmentInput{}),
	"FaceScan":              wire.FaceScan{},
	"FaceScanInput":         request(wire.FaceScanInput{}),
	"FaceScanResolution":    request(wire.FaceScanResolution{}),
	"FaceScanResult":        wire.FaceScanResult{},
	"FaceScanStudent":       wire.FaceScanStudent{},
	"FaceSettings":          wire.FaceSettings{},
	"FaceStatus":            wire.FaceStatus{},
	"Kiosk":                 wire.Kiosk{},
	"KioskCreated":          wire.KioskCreated{},
	"KioskInfo":             wire.KioskInfo{},
	"KioskInput":            request(wire.KioskInput{}),
	// journal (E-Jurnal)
	"JournalAuthFailure":  wire.JournalAuthFailure{},
	"JournalKept":         wire.JournalKept{},
	"JournalPushLog":      wire.JournalPush{},
	"JournalSyncResponse": wire.JournalSyncResponse{},
	"JournalToken":        wire.JournalToken{},
	// data reset
	"ResetInfo":    wire.ResetInfo{},
	"ResetRequest": request(wire.ResetRequest{}),
	"ResetResult":  wire.ResetResult{},
	"ResetSet":     wire.ResetSet{},
	// users, sign-in and roles
	"LoginResponse": wire.LoginResponse{},
	"Me":            wire.Me{},
	"RoleInfo":      wire.RoleInfo{},
	"User":          wire.User{},
	// every answer: an error (the document's ErrorBody is Go's ErrorDetail,
	// the body's error; the journal sends it flat), a page's meta
	"Error":     wire.ErrorBody{},
	"ErrorBody": wire.ErrorDetail{},
	"PageMeta":  wire.PageMeta{},

	// reports
	"RecapCases":      wire.RecapCases{},
	"RecapCategory":   wire.RecapCategory{},
	"RecapClassRow":   wire.RecapClassRow{},
	"RecapDetailRow":  wire.RecapDetailRow{},
	"RecapPeriod":     wire.RecapPeriod{},
	"RecapScope":      wire.RecapScope{},
	"RecapStudentRow": wire.RecapStudentRow{},
	"RecapTotals":     wire.RecapTotals{},
	"ViolationRecap":  wire.ViolationRecap{},

	// violation types, their categories, SP thresholds and handling types:
	// the violationtype package's own types, as its handlers send and read
	"HandlingType":              violationtype.HandlingType{},
	"HandlingTypeInput":         request(violationtype.HandlingTypeInput{}),
	"SPThreshold":               violationtype.Threshold{},
	"SPThresholdsInput":         request(violationtype.ThresholdsInput{}),
	"ViolationCategory":         violationtype.Category{},
	"ViolationCategoryInput":    request(violationtype.CategoryInput{}),
	"ViolationType":             violationtype.Type{},
	"ViolationTypeImportResult": violationtype.ImportResult{},
	"ViolationTypeInput":        request(violationtype.TypeInput{}),
	"ViolationTypeList":         violationtype.TypeList{},

	// the school: departments, classes and students as the roster sends
	// them, the student-affairs connection and its syncs, the profile (as
	// GET and PUT answer it; PUT's body is SchoolProfileInput, name alone
	// required) and the logo
	"Class":              roster.Class{},
	"Department":         roster.Department{},
	"SchoolLogo":         school.Logo{},
	"SchoolProfile":      school.Profile{},
	"Student":            roster.Student{},
	"StudentAffairs":     studentsync.StudentAffairs{},
	"StudentAffairsTest": studentsync.TestResult{},
	"StudentSync":        studentsync.SyncRun{},

	// journal, cases, reset, face
	"CasePage":           wire.Page[wire.CaseSummary]{},
	"SchoolProfileInput": request(school.Profile{}),
	"JournalFailure":     wire.JournalFailure{},
	"JournalParked":      wire.ParkedAttendance{},
	// the push's body as the journal decodes it: numbers may be numeric
	// strings, every field is checked by hand (journal.parseEntry)
	"JournalEntry": request(journal.PushEntry{}),
	"JournalPush":  request(journal.PushBody{}),
}

// enumSchemas are the string enums the document names, each from the Go
// list the server checks against.
var enumSchemas = map[string][]string{
	"AchievementLevel": wire.AchievementLevels,
	"Role":             strs(perm.Roles),

	// journal, cases, reset, face
	"CaseStageName":        wire.CaseStages,
	"FaceReviewResolution": wire.ScanResolutions,
	"ResetSetID":           datareset.SetIDs(),
}

// strs lists a string type's values as strings.
func strs[T ~string](v []T) []string {
	out := make([]string, len(v))
	for i, x := range v {
		out[i] = string(x)
	}
	return out
}

// schemaDescriptions are the generated schemas' own descriptions (Go's doc
// comments are not in the binary).
var schemaDescriptions = map[string]string{
	"AchievementLevelPoints":  "points per level; null: the level does not apply",
	"AttendanceRecapDay":      "One date: students per day status; students + unrecorded = the class (or the school)",
	"Case":                    "sessions, agreements and recovery are empty unless level is full; violations are empty for level homeroom.",
	"CorrectViolationRequest": "Only what changes; an absent field stays as it is.",
	"LetterSettingsInput":     "number_pattern alone is read: absent or empty, the default; updated_at, placeholders and example are ignored.",
	"IssuedWarningLetter":     "A warning letter as a recording answers it: the stored letter without its number, verification and acknowledgement (GET /warning-letters/{id} has them)",
	"PortalSettings":          "Every part shows unless hidden; a hidden part is empty on the child's page and its own routes answer 404 (portal.part_hidden). Points and SP progress always show.",
	"ViolationTypeInput":      "On create name, points and category_id are required; on change absent fields stay.",

	// journal, cases, reset, face
	"FaceReviewResolution": "how a reviewer resolved a scan",
	"JournalEntry":         "One lesson hour of one student: source_student_id (or student_id), date, lesson_hour and status are required.",
	"JournalPush":          "attendances or entries, not both (null counts as absent)",
	"PortalAchievement":    "A verified achievement as the family reads it; never the recorder or the notes.",
	"SchoolProfileInput":   "The whole profile, which PUT replaces: name alone is required; an absent field is stored empty, or at its default where it has one; updated_at is ignored.",
}

// requestBody marks a wire type read from a request body (see wireTypes).
type requestBody struct{ v any }

// request registers v as a request body's type.
func request(v any) requestBody { return requestBody{v} }

// wireType returns the Go type of a wireTypes value and whether it is a
// request body's.
func wireType(v any) (reflect.Type, bool) {
	if r, ok := v.(requestBody); ok {
		return reflect.TypeOf(r.v), true
	}
	return reflect.TypeOf(v), false
}

// schemaFormats are the Go types whose JSON is a string of a known format.
// A school-day date type (YYYY-MM-DD) belongs here as {string, date}.
var schemaFormats = map[reflect.Type]*jsonschema.Schema{
	reflect.TypeFor[time.Time](): {Type: "string", Format: "date-time"},
}

// generatedSchemas returns components.schemas for every name in wireTypes
// and enumSchemas.
func generatedSchemas() (map[string]map[string]any, error) {
	names, err := typeNames(wireTypes)
	if err != nil {
		return nil, err
	}
	out := map[string]map[string]any{}
	for name, v := range wireTypes {
		t, input := wireType(v)
		s, err := schemaOf(t, names, input)
		if err != nil {
			return nil, fmt.Errorf("openapi: schema %s: %w", name, err)
		}
		if d, ok := schemaDescriptions[name]; ok {
			s["description"] = d
		}
		out[name] = s
	}
	for name, values := range enumSchemas {
		enum := make([]any, len(values))
		for i, v := range values {
			enum[i] = v
		}
		out[name] = map[string]any{"type": "string", "enum": enum}
		if d, ok := schemaDescriptions[name]; ok {
			out[name]["description"] = d
		}
	}
	return out, nil
}

// typeNames names each registered Go type's schema, the name a $ref to it
// uses. A type may be registered twice, once as an answer and once as a
// request body (what the server sends and what it accepts differ); a
// reference is to the answer.
func typeNames(registered map[string]any) (map[reflect.Type]string, error) {
	names := map[reflect.Type]string{}
	input := map[reflect.Type]bool{}
	for _, name := range slices.Sorted(maps.Keys(registered)) {
		t, in := wireType(registered[name])
		other, seen := names[t]
		switch {
		case !seen:
		case input[t] == in:
			return nil, fmt.Errorf("openapi: %s registered as %s and %s", t, other, name)
		case in:
			continue // the answer's name stays
		}
		names[t], input[t] = name, in
	}
	return names, nil
}

// schemaOf reflects one Go type by the convention of wireTypes: its fields
// by their json names; a registered type is a $ref to its own schema, any
// other struct is inlined. input says it is read from a request body.
func schemaOf(t reflect.Type, names map[reflect.Type]string, input bool) (map[string]any, error) {
	r := &jsonschema.Reflector{
		Anonymous:                  true,
		AllowAdditionalProperties:  true,
		DoNotReference:             true,
		ExpandedStruct:             true,
		RequiredFromJSONSchemaTags: input,
		Mapper: func(ft reflect.Type) *jsonschema.Schema {
			if s, ok := schemaFormats[ft]; ok {
				c := *s
				return &c
			}
			if name, ok := names[ft]; ok && ft != t {
				return &jsonschema.Schema{Ref: "#/components/schemas/" + name}
			}
			return nil
		},
	}
	b, err := json.Marshal(r.ReflectFromType(t))
	if err != nil {
		return nil, err
	}
	var s map[string]any
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, err
	}
	delete(s, "$schema")
	markNullable(t, s, names, input)
	return s, nil
}

// markNullable walks the Go type beside its schema: a pointer field may be
// null (in a response unless omitempty: a nil one is left out), a slice or
// map field only when tagged nullable; a field tagged openapi:"Name"
// becomes a $ref to Name.
func markNullable(t reflect.Type, s map[string]any, names map[reflect.Type]string, input bool) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		if items, ok := s["items"].(map[string]any); ok {
			markNullable(t.Elem(), items, names, input)
		}
		return
	case reflect.Map:
		if ap, ok := s["additionalProperties"].(map[string]any); ok {
			markNullable(t.Elem(), ap, names, input)
		}
		return
	case reflect.Struct:
	default:
		return
	}
	if _, ok := schemaFormats[t]; ok {
		return
	}
	props, _ := s["properties"].(map[string]any)
	for _, f := range fieldsOf(t) {
		p, ok := props[f.name].(map[string]any)
		if !ok {
			continue
		}
		if f.nullable {
			p = notNull(p) // invopop's oneOf; nullable() below says it once
		}
		if f.ref != "" && f.typ.Kind() == reflect.Slice {
			// a slice's name is its items', as its enum is
			p["items"] = map[string]any{"$ref": "#/components/schemas/" + f.ref}
		} else if f.ref != "" {
			p = map[string]any{"$ref": "#/components/schemas/" + f.ref}
			for _, k := range []string{"description", "examples", "default"} {
				if v, ok := props[f.name].(map[string]any)[k]; ok {
					p[k] = v
				}
			}
		} else if _, isRef := names[deref(f.typ)]; !isRef {
			markNullable(f.typ, p, names, input)
		}
		props[f.name] = p
		if p["readOnly"] == true {
			// the server's to set: a body leaves it out (an empty list
			// stays: without one, make gen reads every property as sent)
			if req, ok := s["required"].([]any); ok {
				s["required"] = slices.DeleteFunc(req, func(r any) bool { return r == f.name })
			}
		}
		switch f.typ.Kind() {
		case reflect.Pointer:
			// encoding/json leaves a nil omitempty pointer out; tagged
			// nullable, the type is a request body's too (null accepted)
			if input || !f.omitempty || f.nullable {
				props[f.name] = nullable(p)
			}
		case reflect.Map:
			if ap, ok := p["additionalProperties"].(map[string]any); ok && len(f.enum) > 0 {
				ap["enum"] = f.enum // as invopop gives a slice's enum to its items
			}
			if f.nullable {
				props[f.name] = nullable(p)
			}
		default:
			// a slice, or a value that decodes null as absent (a string,
			// a lenient type of its own)
			if f.nullable {
				props[f.name] = nullable(p)
			}
		}
	}
}

// notNull undoes invopop's nullable wrapping, {oneOf: [T, {type: null}]}.
func notNull(p map[string]any) map[string]any {
	one, _ := p["oneOf"].([]any)
	if len(one) != 2 {
		return p
	}
	if n, _ := one[1].(map[string]any); n["type"] != "null" {
		return p
	}
	inner, _ := one[0].(map[string]any)
	return inner
}

func deref(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

// nullable lets a property schema be null: ["T", "null"] for a type (and
// null among its enum's values), a oneOf with null for a reference
// (its text beside the oneOf, not in a branch).
func nullable(p map[string]any) map[string]any {
	if enum, ok := p["enum"].([]any); ok && !slices.Contains(enum, nil) {
		p["enum"] = append(enum, nil)
	}
	switch ty := p["type"].(type) {
	case string:
		p["type"] = []any{ty, "null"}
		return p
	case []any:
		for _, x := range ty {
			if x == "null" {
				return p
			}
		}
		p["type"] = append(ty, "null")
		return p
	}
	out := map[string]any{"oneOf": []any{p, map[string]any{"type": "null"}}}
	// the text is the property's, not one branch's (where generated
	// clients do not look for it)
	for _, k := range []string{"description", "examples", "default"} {
		if v, ok := p[k]; ok {
			out[k] = v
			delete(p, k)
		}
	}
	return out
}

type jsonField struct {
	name      string
	typ       reflect.Type
	nullable  bool // jsonschema:"nullable"
	omitempty bool
	ref       string // openapi:"Name"
	enum      []any  // jsonschema:"enum=..." (a map's: its values')
}

// fieldsOf lists a struct's JSON fields as encoding/json sends them,
// embedded structs' fields included.
func fieldsOf(t reflect.Type) []jsonField {
	var out []jsonField
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			if et := deref(f.Type); et.Kind() == reflect.Struct {
				out = append(out, fieldsOf(et)...)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		tags := strings.Split(f.Tag.Get("jsonschema"), ",")
		var enum []any
		for _, t := range tags {
			if v, ok := strings.CutPrefix(t, "enum="); ok {
				enum = append(enum, v)
			}
		}
		omit := slices.Contains(strings.Split(opts, ","), "omitempty")
		out = append(out, jsonField{name, f.Type, slices.Contains(tags, "nullable"), omit, f.Tag.Get("openapi"), enum})
	}
	return out
}

// shapeKeywords are what the generated schema decides; every other keyword
// of the fragment (description, examples, enum, format, pattern, limits,
// default, readOnly ...) is kept until Go says it too.
var shapeKeywords = map[string]bool{
	"type": true, "properties": true, "required": true, "items": true, "additionalProperties": true,
	"$ref": true, "oneOf": true, "anyOf": true, "allOf": true,
}

// keepAnnotations copies onto the generated schema, its own and its
// properties', the fragment's keywords that do not decide the shape, so the
// served document keeps its text, enums and limits while the shape (what
// TestGeneratedSchemasMatchFragments compares) comes from Go.
func keepAnnotations(gen, hand map[string]any) map[string]any {
	if hand == nil {
		return gen
	}
	for k, v := range hand {
		if _, set := gen[k]; !set && !shapeKeywords[k] {
			gen[k] = v
		}
	}
	gp, _ := gen["properties"].(map[string]any)
	hp, _ := hand["properties"].(map[string]any)
	for name, h := range hp {
		g, ok := gp[name].(map[string]any)
		h, _ := h.(map[string]any)
		if !ok || h == nil {
			continue
		}
		keepAnnotations(g, h)
		if gi, ok := g["items"].(map[string]any); ok {
			if hi, ok := h["items"].(map[string]any); ok {
				keepAnnotations(gi, hi)
			}
		}
	}
	return gen
}
