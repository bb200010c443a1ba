package api

import "time"

// Case sources.
const (
	CaseSourceStaffFinding    = "staff_finding"
	CaseSourceReport          = "report"
	CaseSourceAnonymousReport = "anonymous_report"
)

// Case classifications: ” until identification classifies the case.
const (
	CaseClassSchoolRule   = "school_rule"
	CaseClassSuspectedLaw = "suspected_law"
)

// Case stages, in order.
const (
	CaseStageIdentification = "identification"
	CaseStageHandling       = "handling"
	CaseStageConclusions    = "conclusions"
	CaseStageClosed         = "closed"
)

// CaseStages lists the stages in the order a case moves through them.
var CaseStages = []string{CaseStageIdentification, CaseStageHandling, CaseStageConclusions, CaseStageClosed}

// Student roles in a case.
const (
	CaseRoleSuspect  = "terduga_pelaku"
	CaseRoleVictim   = "korban"
	CaseRoleWitness  = "saksi"
	CaseRoleReporter = "pelapor"
)

// Participant kinds.
const (
	CaseParticipantStudent  = "student"
	CaseParticipantStaff    = "staff"
	CaseParticipantOutsider = "outsider"
)

// What a reader may see of a case (decided in SQL, docs/cases.md): full
// (team or admin), managed (a case manager outside the team: no victim,
// witness or reporter names, no description or notes), homeroom (a
// homeroom teacher: their own students and their roles only).
const (
	CaseLevelFull     = "full"
	CaseLevelManaged  = "managed"
	CaseLevelHomeroom = "homeroom"
)

// CaseCategory is one category of the school's master data.
type CaseCategory struct {
	ID        int64  `json:"id" db:"id"`
	Name      string `json:"name" db:"name"`
	Active    bool   `json:"active" db:"active"`
	SortOrder int    `json:"sort_order" db:"sort_order"`
}

// CaseCategoryInput creates or changes a category (PATCH: absent fields stay).
type CaseCategoryInput struct {
	Name      *string `json:"name"`
	Active    *bool   `json:"active"`
	SortOrder *int    `json:"sort_order" jsonschema:"minimum=0,maximum=10000"`
}

// CaseSettings are the default durations of the stages, in days.
type CaseSettings struct {
	IdentificationDays int `json:"identification_days"`
	HandlingDays       int `json:"handling_days"`
	ConclusionsDays    int `json:"conclusions_days"`
}

// CaseSummary is one row of the case list.
type CaseSummary struct {
	ID             int64     `json:"id" db:"id"`
	Level          string    `json:"level" db:"level" jsonschema:"enum=full,enum=managed,enum=homeroom"`
	Title          string    `json:"title" db:"title"`
	OccurredAt     time.Time `json:"occurred_at" db:"occurred_at"`
	CategoryID     int64     `json:"category_id" db:"category_id"`
	CategoryName   string    `json:"category_name" db:"category_name"`
	Source         string    `json:"source" db:"source" jsonschema:"enum=staff_finding,enum=report,enum=anonymous_report"`
	Classification string    `json:"classification" db:"classification" jsonschema:"enum=,enum=school_rule,enum=suspected_law"`
	Stage          string    `json:"stage" db:"stage" openapi:"CaseStageName"`
	StageOwnerName string    `json:"stage_owner_name" db:"stage_owner_name"`
	StageDueOn     *string   `json:"stage_due_on" db:"stage_due_on" jsonschema:"format=date"`
	Overdue        bool      `json:"overdue" db:"overdue"`
	Participants   int       `json:"participants" db:"participants"`
}

// CaseStage is one stage of a case with its owner and due date.
type CaseStage struct {
	Stage       string     `json:"stage" db:"stage"`
	OwnerID     *int64     `json:"owner_id" db:"owner_id"`
	OwnerName   string     `json:"owner_name" db:"owner_name"`
	DueOn       string     `json:"due_on" db:"due_on" jsonschema:"format=date"`
	StartedAt   *time.Time `json:"started_at" db:"started_at"`
	CompletedAt *time.Time `json:"completed_at" db:"completed_at"`
	Overdue     bool       `json:"overdue" db:"overdue"`
	// Notes is null unless the reader sees the whole case.
	Notes *string `json:"notes" db:"notes"`
}

// CaseParticipant is a person in a case. Name is null when the reader may
// not see it (a victim, witness, reporter or outsider, to a case manager
// outside the team).
type CaseParticipant struct {
	ID        int64   `json:"id" db:"id"`
	Kind      string  `json:"kind" db:"kind" jsonschema:"enum=student,enum=staff,enum=outsider"`
	StudentID *int64  `json:"student_id" db:"student_id"`
	UserID    *int64  `json:"user_id" db:"user_id"`
	Name      *string `json:"name" db:"name"`
	ClassName string  `json:"class_name" db:"class_name"`
	Role      string  `json:"role" db:"role" jsonschema:"enum=,enum=terduga_pelaku,enum=korban,enum=saksi,enum=pelapor"`
	Relation  string  `json:"relation" db:"relation"`
}

// CaseTeamMember is a user of the case team.
type CaseTeamMember struct {
	UserID int64  `json:"user_id" db:"user_id"`
	Name   string `json:"name" db:"name"`
}

// Case is one case as the reader may see it (Level).
type Case struct {
	CaseSummary
	Place       string            `json:"place"`
	Description *string           `json:"description"`
	Stages      []CaseStage       `json:"stages"`
	Team        []CaseTeamMember  `json:"team"`
	People      []CaseParticipant `json:"people"`
	// Sessions, Agreements and Recovery: the team and admins only (empty
	// for others); Violations: also a case manager outside the team.
	Sessions   []CaseSession        `json:"sessions"`
	Agreements []CaseAgreement      `json:"agreements"`
	Recovery   []CaseRecoveryAction `json:"recovery"`
	Violations []CaseViolation      `json:"violations"`
	Referrals  []CaseReferral       `json:"referrals"`
	// Report is the anonymous report behind the case: the team and admins
	// only, null otherwise.
	Report    *CaseReport `json:"report"`
	CreatedAt time.Time   `json:"created_at"`
	CreatedBy string      `json:"created_by"`
	CanEdit   bool        `json:"can_edit"`
}

// CaseParticipantInput adds a participant: a student with a role, a staff
// user with a relation, or an outsider with a name and a relation.
type CaseParticipantInput struct {
	Kind      string `json:"kind" jsonschema:"required,enum=student,enum=staff,enum=outsider"`
	StudentID *int64 `json:"student_id"`
	UserID    *int64 `json:"user_id"`
	Name      string `json:"name"`
	Role      string `json:"role" jsonschema:"enum=terduga_pelaku,enum=korban,enum=saksi,enum=pelapor"`
	Relation  string `json:"relation"`
}

// CreateCaseRequest opens a case; its creator joins the team.
type CreateCaseRequest struct {
	Title        string                 `json:"title" jsonschema:"required"`
	OccurredAt   string                 `json:"occurred_at" jsonschema:"required"`
	Place        string                 `json:"place"`
	Description  string                 `json:"description"`
	CategoryID   int64                  `json:"category_id" jsonschema:"required"`
	Source       string                 `json:"source" jsonschema:"required"`
	Participants []CaseParticipantInput `json:"participants"`
	Team         []int64                `json:"team"`
}

// CaseStageInput changes a stage's owner or due date.
type CaseStageInput struct {
	Stage   string  `json:"stage" jsonschema:"required"`
	OwnerID *int64  `json:"owner_id"`
	DueOn   *string `json:"due_on" jsonschema:"format=date"`
}

// UpdateCaseRequest changes a case; absent fields stay.
type UpdateCaseRequest struct {
	Title          *string          `json:"title"`
	OccurredAt     *string          `json:"occurred_at"`
	Place          *string          `json:"place"`
	Description    *string          `json:"description"`
	CategoryID     *int64           `json:"category_id"`
	Source         *string          `json:"source"`
	Classification *string          `json:"classification" jsonschema:"enum=school_rule,enum=suspected_law"`
	Team           *[]int64         `json:"team"`
	Stages         []CaseStageInput `json:"stages"`
}

// CaseStageRequest moves a case to the next stage; Notes close the stage left.
type CaseStageRequest struct {
	To    string `json:"to" jsonschema:"required" openapi:"CaseStageName"`
	Notes string `json:"notes"`
}

// CaseAccess is one read of a case.
type CaseAccess struct {
	ID       int64     `json:"id" db:"id"`
	UserID   *int64    `json:"user_id" db:"user_id"`
	UserName string    `json:"user_name" db:"user_name"`
	At       time.Time `json:"at" db:"at"`
	What     string    `json:"what" db:"what"`
	Level    string    `json:"level" db:"level"`
}

// CaseCount is one count of cases.
type CaseCount struct {
	Key   string `json:"key" db:"key"`
	Label string `json:"label" db:"label"`
	Count int    `json:"count" db:"count"`
}

// CaseCounts are cases counted by category, stage and class: what the
// principal sees of cases.
type CaseCounts struct {
	Total      int         `json:"total"`
	Open       int         `json:"open"`
	Overdue    int         `json:"overdue"`
	ByCategory []CaseCount `json:"by_category"`
	ByStage    []CaseCount `json:"by_stage"`
	ByClass    []CaseCount `json:"by_class"`
}

// CaseUserOption is a user who may join a case team or own a stage.
type CaseUserOption struct {
	ID   int64  `json:"id" db:"id"`
	Name string `json:"name" db:"name"`
	Role string `json:"role" db:"role"`
}

// Agreement item statuses.
const (
	AgreementOpen    = "open"
	AgreementDone    = "done"
	AgreementNotDone = "not_done"
)

// Recovery action kinds.
var CaseRecoveryKinds = []string{"counselling", "psychologist", "class_change", "other"}

// CaseSession is a meeting in a case: who met whom, when, how (a handling
// type, optional), and the notes. Only the team and admins see sessions.
type CaseSession struct {
	ID     int64     `json:"id" db:"id"`
	HeldAt time.Time `json:"held_at" db:"held_at"`
	// HandlingTypeID is one of the violations' handling types (null: none,
	// or the type was deleted since); HandlingTypeName is its name when the
	// session was recorded ("" when none was chosen).
	HandlingTypeID   *int64   `json:"handling_type_id" db:"handling_type_id" jsonschema_description:"one of the violations' handling types (GET /handling-types); null when none was chosen or the type was deleted since"`
	HandlingTypeName string   `json:"handling_type_name" db:"handling_type_name" jsonschema_description:"the handling type's name when the session was recorded; empty when none was chosen"`
	People           []string `json:"people" db:"-"`
	Staff            []string `json:"staff" db:"-"`
	Notes            string   `json:"notes" db:"notes"`
	CreatedByName    string   `json:"created_by_name" db:"created_by_name"`
}

// CreateCaseSessionRequest records a session: the case's participants met
// (participant ids) and the staff present (user ids).
type CreateCaseSessionRequest struct {
	HeldAt string `json:"held_at" jsonschema:"required"`
	// HandlingTypeID is optional (null or absent: none); an active
	// handling type (GET /handling-types).
	HandlingTypeID *int64  `json:"handling_type_id" jsonschema_description:"optional: an active handling type (GET /handling-types); unknown or inactive is 422 on handling_type_id"`
	ParticipantIDs []int64 `json:"participant_ids" jsonschema:"required"`
	StaffIDs       []int64 `json:"staff_ids"`
	Notes          string  `json:"notes"`
}

// CaseAgreementItem is one party's commitment in a restorative agreement.
type CaseAgreementItem struct {
	ID            int64      `json:"id" db:"id"`
	ParticipantID int64      `json:"participant_id" db:"participant_id"`
	PartyName     string     `json:"party_name" db:"party_name"`
	PartyRole     string     `json:"party_role" db:"party_role" jsonschema:"enum=,enum=terduga_pelaku,enum=korban,enum=saksi,enum=pelapor"`
	Action        string     `json:"action" db:"action"`
	DueOn         string     `json:"due_on" db:"due_on" jsonschema:"format=date"`
	Status        string     `json:"status" db:"status" jsonschema:"enum=open,enum=done,enum=not_done"`
	CheckedByName string     `json:"checked_by_name" db:"checked_by_name"`
	CheckedAt     *time.Time `json:"checked_at" db:"checked_at"`
	CheckNotes    string     `json:"check_notes" db:"check_notes"`
}

// CaseAgreement is a restorative agreement (kesepakatan pemulihan).
type CaseAgreement struct {
	ID            int64               `json:"id" db:"id"`
	AgreedOn      string              `json:"agreed_on" db:"agreed_on" jsonschema:"format=date"`
	Notes         string              `json:"notes" db:"notes"`
	CreatedByName string              `json:"created_by_name" db:"created_by_name"`
	Items         []CaseAgreementItem `json:"items" db:"-"`
}

// CaseAgreementItemInput is one party's commitment: what, by when.
type CaseAgreementItemInput struct {
	ParticipantID int64  `json:"participant_id" jsonschema:"required"`
	Action        string `json:"action" jsonschema:"required"`
	DueOn         string `json:"due_on" jsonschema:"required,format=date"`
}

// CreateCaseAgreementRequest records an agreement.
type CreateCaseAgreementRequest struct {
	AgreedOn string                   `json:"agreed_on" jsonschema:"required,format=date"`
	Notes    string                   `json:"notes"`
	Items    []CaseAgreementItemInput `json:"items" jsonschema:"required"`
}

// CaseAgreementCheck marks one item done, not done (or open again).
type CaseAgreementCheck struct {
	ID     int64  `json:"id" jsonschema:"required"`
	Status string `json:"status" jsonschema:"required,enum=open,enum=done,enum=not_done"`
	Notes  string `json:"notes"`
}

// UpdateCaseAgreementRequest records checks of an agreement's items.
type UpdateCaseAgreementRequest struct {
	Items []CaseAgreementCheck `json:"items" jsonschema:"required"`
}

// CaseRecoveryAction is a recovery action for a victim.
type CaseRecoveryAction struct {
	ID            int64  `json:"id" db:"id"`
	ParticipantID int64  `json:"participant_id" db:"participant_id"`
	PartyName     string `json:"party_name" db:"party_name"`
	Kind          string `json:"kind" db:"kind" jsonschema:"enum=counselling,enum=psychologist,enum=class_change,enum=other"`
	Description   string `json:"description" db:"description"`
	PlannedOn     string `json:"planned_on" db:"planned_on" jsonschema:"format=date"`
	CreatedByName string `json:"created_by_name" db:"created_by_name"`
}

// CreateCaseRecoveryRequest plans a recovery action for a victim of the case.
type CreateCaseRecoveryRequest struct {
	ParticipantID int64  `json:"participant_id" jsonschema:"required"`
	Kind          string `json:"kind" jsonschema:"required,enum=counselling,enum=psychologist,enum=class_change,enum=other"`
	Description   string `json:"description"`
	PlannedOn     string `json:"planned_on" jsonschema:"required,format=date"`
}

// CaseViolation is a violation recorded inside the case.
type CaseViolation struct {
	ID          int64     `json:"id" db:"id"`
	StudentID   int64     `json:"student_id" db:"student_id"`
	StudentName string    `json:"student_name" db:"student_name"`
	TypeName    string    `json:"type_name" db:"type_name"`
	Points      int       `json:"points" db:"points"`
	OccurredAt  time.Time `json:"occurred_at" db:"occurred_at"`
}

// CaseReferral records when and to whom a case's referral was sent.
type CaseReferral struct {
	ID            int64  `json:"id" db:"id"`
	SentTo        string `json:"sent_to" db:"sent_to"`
	SentOn        string `json:"sent_on" db:"sent_on" jsonschema:"format=date"`
	Notes         string `json:"notes" db:"notes"`
	CreatedByName string `json:"created_by_name" db:"created_by_name"`
}

// CaseReferralInput records a referral sent: to whom, on which day.
type CaseReferralInput struct {
	SentTo string `json:"sent_to" jsonschema:"required"`
	SentOn string `json:"sent_on" jsonschema:"required,format=date"`
	Notes  string `json:"notes"`
}

// PublicReportRequest is an anonymous report from /lapor.
type PublicReportRequest struct {
	CategoryID  int64  `json:"category_id" jsonschema:"required"`
	Description string `json:"description" jsonschema:"required"`
	// OccurredAt is optional: RFC 3339 or YYYY-MM-DDThh:mm (Jakarta).
	OccurredAt string `json:"occurred_at"`
	Place      string `json:"place"`
	// Name is optional and never verified.
	Name string `json:"name"`
}

// PublicReportReceipt is what the reporter keeps: the tracking code and
// the PIN (shown once; stored hashed).
type PublicReportReceipt struct {
	Code string `json:"code"`
	PIN  string `json:"pin"`
}

// PublicReportLookup opens a report with its code and PIN.
type PublicReportLookup struct {
	Code string `json:"code" jsonschema:"required"`
	PIN  string `json:"pin" jsonschema:"required"`
}

// PublicReportMessageInput is the reporter's message.
type PublicReportMessageInput struct {
	Code string `json:"code" jsonschema:"required"`
	PIN  string `json:"pin" jsonschema:"required"`
	Text string `json:"text" jsonschema:"required"`
}

// PublicReportMessage is one message as the reporter sees it.
type PublicReportMessage struct {
	// Sender is reporter or school.
	Sender string    `json:"sender" db:"sender" jsonschema:"enum=reporter,enum=school"`
	Text   string    `json:"text" db:"text"`
	At     time.Time `json:"at" db:"at"`
}

// PublicReportView is what the reporter sees of their report.
type PublicReportView struct {
	Code      string    `json:"code" db:"code"`
	CreatedAt time.Time `json:"created_at" db:"created_at"`
	Category  string    `json:"category" db:"category"`
	Stage     string    `json:"-" db:"stage"`
	// Status is received, in_progress or closed.
	Status   string                `json:"status" jsonschema:"enum=received,enum=in_progress,enum=closed"`
	Messages []PublicReportMessage `json:"messages"`
}

// CaseReplyInput is the school's reply to a reporter.
type CaseReplyInput struct {
	Text string `json:"text" jsonschema:"required"`
}

// CaseReportMessage is one message of the report, as the team sees it.
type CaseReportMessage struct {
	ID           int64     `json:"id" db:"id"`
	FromReporter bool      `json:"from_reporter" db:"from_reporter"`
	Text         string    `json:"text" db:"text"`
	UserName     string    `json:"user_name" db:"user_name"`
	At           time.Time `json:"at" db:"at"`
}

// CaseReport is the anonymous report behind a case (the team and admins
// only).
type CaseReport struct {
	ReporterName string              `json:"reporter_name"`
	Messages     []CaseReportMessage `json:"messages"`
	PhotoIDs     []int64             `json:"photo_ids"`
}
