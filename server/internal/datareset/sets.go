package datareset

import (
	"slices"

	"github.com/tatib/tatib/shared/api"
)

// A table is what one set removes from one table: the rows matching Where
// ("" for every row). The count GET /admin/reset shows and the DELETE the
// reset runs are built from the same condition, so the screen's figure is
// what goes.
type table struct {
	Name  string
	Where string
}

// A set is one data set the admin can choose. Tables are in delete order,
// children first, so every foreign key (several are RESTRICT) is satisfied
// without relying on cascades, and each table's count is its own DELETE's.
type set struct {
	ID string
	// Requires are the sets whose rows point at this one's with a RESTRICT
	// (or would be left meaningless): they must be reset with it.
	Requires []string
	Tables   []table
	// After runs once the tables are emptied (clearing state that is not
	// rows to count).
	After []string
}

// ResetFace is the Face-ID data set (shared/api has no constant for it
// yet).
const ResetFace = "face"

// queuedForViolations are the parent messages not sent yet about a
// violation, letter or summons: sending them after the reset would tell a
// parent about a record that no longer exists. Messages already sent stay
// as the record of what parents were told (their links become null).
const queuedForViolations = `status = 'queued' AND (violation_id IS NOT NULL OR letter_id IS NOT NULL OR handling_id IS NOT NULL OR achievement_id IS NOT NULL)`

// nonAdmin picks the users the users set removes: every role but admin.
const nonAdmin = `user_id IN (SELECT id FROM users WHERE role <> 'admin')`

// sets is the registry, in the order the reset runs them: a set comes
// before the sets it points at (violations before students and violation
// types).
var sets = []set{
	{ID: api.ResetNotifications, Tables: []table{{Name: "notifications"}}},
	{ID: api.ResetParentMessages,
		Tables: []table{{Name: "parent_message_attempts"}, {Name: "parent_messages"}},
		// The shared pause of a rate-limited gateway belongs to the messages.
		After: []string{`UPDATE messaging_state SET paused_until = NULL, pause_reason = ''`}},
	{ID: api.ResetViolations, Tables: []table{
		// Every notification kind there is (violation, attendance, letter)
		// is about violations or their letters; they would lead to pages
		// that no longer exist.
		{Name: "notifications", Where: `kind IN ('violation', 'attendance', 'letter')`},
		{Name: "parent_message_attempts", Where: `message_id IN (SELECT id FROM parent_messages WHERE ` + queuedForViolations + `)`},
		{Name: "parent_messages", Where: queuedForViolations},
		{Name: "warning_letter_events"},
		{Name: "warning_letters"},
		{Name: "handling_participants"},
		{Name: "handlings"},
		{Name: "violation_photos"},
		{Name: "violations"},
		{Name: "point_audit"},
		// The points policy's reductions and the achievements (issue 28):
		// records of students' points, which the students set needs gone.
		{Name: "point_reductions"},
		{Name: "achievement_photos"},
		{Name: "achievement_students"},
		{Name: "achievements"},
	}},
	{ID: api.ResetAttendance, Tables: []table{
		{Name: "attendance_unmatched"},
		{Name: "journal_pushes"},
		{Name: "attendance_days"},
		{Name: "attendance"},
	}},
	// Face-ID (issue 16): consents, embeddings, the scan log and the
	// challenges. Kiosks and the face settings stay.
	{ID: ResetFace, Tables: []table{
		{Name: "face_scans"},
		{Name: "face_challenges"},
		{Name: "face_embeddings"},
		{Name: "face_consents"},
	}},
	{ID: api.ResetStudents,
		Requires: []string{api.ResetViolations, api.ResetAttendance, api.ResetParentMessages, ResetFace},
		Tables: []table{
			{Name: "student_syncs"},
			{Name: "students"},
			{Name: "classes"},
			{Name: "departments"},
		}},
	{ID: api.ResetViolationTypes,
		Requires: []string{api.ResetViolations},
		Tables: []table{
			{Name: "violation_types"},
			{Name: "violation_categories"},
			{Name: "sp_thresholds"},
			{Name: "handling_types"},
		}},
	{ID: api.ResetUsers, Tables: []table{
		// Explicit, to count them; the foreign keys would cascade anyway.
		// Classes' homeroom teacher is cleared by its ON DELETE SET NULL.
		{Name: "notifications", Where: nonAdmin},
		{Name: "sessions", Where: nonAdmin},
		{Name: "users", Where: `role <> 'admin'`},
	}},
}

func lookup(id string) (set, bool) {
	i := slices.IndexFunc(sets, func(s set) bool { return s.ID == id })
	if i < 0 {
		return set{}, false
	}
	return sets[i], true
}

// tables lists the distinct tables of the chosen sets, for LOCK TABLE.
func tables(chosen []set) []string {
	var out []string
	for _, s := range chosen {
		for _, t := range s.Tables {
			if !slices.Contains(out, t.Name) {
				out = append(out, t.Name)
			}
		}
	}
	return out
}

func (t table) where() string {
	if t.Where == "" {
		return ""
	}
	return " WHERE " + t.Where
}

func (t table) countSQL() string  { return `SELECT count(*) FROM ` + t.Name + t.where() }
func (t table) deleteSQL() string { return `DELETE FROM ` + t.Name + t.where() }
