// Package perm is Tatib's catalogue of roles and named permissions: the
// single list the server enforces, the role access rights screen shows and
// the API client reads.
package perm

import "slices"

// Role is a user's role identifier.
type Role string

// The valid roles. Anything else fails validation.
const (
	Admin         Role = "admin"
	BK            Role = "bk"
	WaliKelas     Role = "wali_kelas"
	Staff         Role = "staff"
	Other         Role = "other"
	KepalaSekolah Role = "kepala_sekolah"
	Waka          Role = "waka"
	KetuaTim      Role = "ketua_tim"
)

// Roles lists every valid role in the order screens show them.
var Roles = []Role{Admin, BK, WaliKelas, Staff, Other, KepalaSekolah, Waka, KetuaTim}

// RoleLabels are the Indonesian names of the roles.
var RoleLabels = map[Role]string{
	Admin:         "Administrator",
	BK:            "Guru BK",
	WaliKelas:     "Wali Kelas",
	Staff:         "Staf",
	Other:         "Tamu",
	KepalaSekolah: "Kepala Sekolah",
	Waka:          "Wakil Kepala Sekolah",
	KetuaTim:      "Ketua Tim",
}

// Valid reports whether r is one of the known roles.
func (r Role) Valid() bool { return slices.Contains(Roles, r) }

// Name is a permission identifier such as "users.manage".
type Name string

// Permission is one named operation with the roles that have it by default
// (the role-based fallback used when the matrix has no row for it).
type Permission struct {
	Name         Name   `json:"name"`
	Group        string `json:"group"`
	Label        string `json:"label"`
	LabelEN      string `json:"label_en"`
	DefaultRoles []Role `json:"default_roles" openapi:"Role"`
	// Sensitive marks a permission that lets a role manage users or access
	// rights: only an admin grants or withdraws it, and the role access
	// rights screen warns with Allows/AllowsEN.
	Sensitive bool   `json:"sensitive" jsonschema_description:"lets a role manage users or access rights: granted and withdrawn by an admin only"`
	Allows    string `json:"allows,omitempty" jsonschema_description:"for a sensitive permission: what it allows (Indonesian)"`
	AllowsEN  string `json:"allows_en,omitempty" jsonschema_description:"the same in English"`
	// SchoolWide marks administrative data that is the whole school's by
	// nature: a homeroom teacher granted it sees all of it, not only their
	// class (docs/decisions.md, "Users and roles").
	SchoolWide bool `json:"school_wide" jsonschema_description:"administrative data of the whole school: not limited to a homeroom teacher's class"`
	// AdminOnly marks a permission only the administrator holds: it cannot
	// be granted to another role, and a stored grant of it is ignored
	// (docs/data-safety.md: resetting or copying out the whole school's
	// data is the administrator's act alone).
	AdminOnly bool `json:"admin_only" jsonschema_description:"held by the administrator alone: no role can be given it (data reset, backups)"`
}

// The permissions. Every route names one of these, or Public/Authenticated.
const (
	UsersView   Name = "users.view"
	UsersManage Name = "users.manage"
	// UsersResetPassword is kept apart from UsersManage because the spec
	// makes the reset an administrator's act.
	UsersResetPassword Name = "users.reset_password"
	RolesManage        Name = "roles.manage"

	SettingsView   Name = "settings.view"
	SettingsManage Name = "settings.manage"
	AuditView      Name = "audit.view"

	DashboardView Name = "dashboard.view"

	StudentsView  Name = "students.view"
	StudentsSync  Name = "students.sync"
	ClassesManage Name = "classes.manage"

	ViolationTypesView   Name = "violation_types.view"
	ViolationTypesManage Name = "violation_types.manage"

	ViolationsView   Name = "violations.view"
	ViolationsRecord Name = "violations.record"
	ViolationsVerify Name = "violations.verify"
	ViolationsDelete Name = "violations.delete"
	ViolationsExport Name = "violations.export"
	PointAuditView   Name = "point_audit.view"

	HandlingsCreate  Name = "handlings.create"
	HandlingsResolve Name = "handlings.resolve"
	HandlingsDelete  Name = "handlings.delete"
	HandlingsReopen  Name = "handlings.reopen"
	// HandlingsResolveAttendance resolves a class's automatic attendance
	// violations at once: the homeroom teacher's follow-up, apart from
	// HandlingsResolve, which a homeroom teacher lacks by default.
	HandlingsResolveAttendance Name = "handlings.resolve_attendance"

	WarningLettersView   Name = "warning_letters.view"
	WarningLettersManage Name = "warning_letters.manage"

	AttendanceView   Name = "attendance.view"
	AttendanceRecord Name = "attendance.record"
	AttendanceExport Name = "attendance.export"

	ReportsView       Name = "reports.view"
	EarlyWarningsView Name = "early_warnings.view"

	ParentMessagesView   Name = "parent_messages.view"
	ParentMessagesManage Name = "parent_messages.manage"
	StudentsEditContact  Name = "students.edit_contact"

	DataReset  Name = "data.reset"
	DataBackup Name = "data.backup"

	AchievementTypesView   Name = "achievement_types.view"
	AchievementTypesManage Name = "achievement_types.manage"
	AchievementsView       Name = "achievements.view"
	AchievementsRecord     Name = "achievements.record"
	AchievementsVerify     Name = "achievements.verify"
	// PointsPolicyManage sets the offset policy (none, offset, amnesty) and
	// runs the simulator: a school-wide rule, like the thresholds.
	PointsPolicyManage Name = "points_policy.manage"

	FaceConsent Name = "face.consent"
	FaceEnrol   Name = "face.enrol"
	FaceReview  Name = "face.review"
	FaceManage  Name = "face.manage"

	// CasesView opens the case list and a case; what a reader sees in it
	// is decided in SQL by team membership and role (docs/cases.md).
	CasesView Name = "cases.view"
	// CasesManage opens cases and, within a case's team, changes it.
	CasesManage Name = "cases.manage"
	// CasesViewCounts sees cases as counts by category, stage and class.
	CasesViewCounts Name = "cases.view_counts"
	// CasesAccessLog reads who read a case: the administrator's alone.
	CasesAccessLog Name = "cases.access_log"
	// GuardiansView lists guardians, their sessions and code requests;
	// GuardiansManage adds guardians, prints activation codes, revokes
	// sessions and verifies self-registrations (docs/portal.md).
	GuardiansView   Name = "guardians.view"
	GuardiansManage Name = "guardians.manage"
)

// Public and Authenticated are route markers, not permissions: Public needs
// no sign-in, Authenticated needs a signed-in user and nothing more.
const (
	Public        Name = "public"
	Authenticated Name = "authenticated"
	// Guardian marks a family portal route (/portal/*): no staff session
	// reaches it; the portal package checks its own session in front of it.
	Guardian Name = "guardian"
)

var leaders = []Role{KepalaSekolah, Waka, KetuaTim}

func with(base []Role, more ...Role) []Role {
	return append(append([]Role{}, base...), more...)
}

// Catalogue is every permission, grouped for the screen.
var Catalogue = []Permission{
	{Name: UsersView, Group: "users", Label: "Lihat pengguna", LabelEN: "View users", DefaultRoles: []Role{}, SchoolWide: true},
	{Name: UsersManage, Group: "users", Label: "Kelola pengguna", LabelEN: "Manage users", DefaultRoles: []Role{},
		Sensitive: true,
		Allows:    "Membuat, mengubah, menonaktifkan dan menghapus akun serta memberi peran, untuk peran yang izinnya tidak melebihi izin sendiri. Akun admin tetap hanya dapat diurus admin.",
		AllowsEN:  "Create, change, deactivate and delete accounts and give roles, for roles whose permissions do not exceed one's own. Administrator accounts stay the administrator's alone."},
	{Name: UsersResetPassword, Group: "users", Label: "Atur ulang kata sandi pengguna lain", LabelEN: "Reset another user's password", DefaultRoles: []Role{},
		Sensitive: true,
		Allows:    "Mengganti kata sandi pengguna lain dan mengeluarkannya dari semua perangkat, sehingga dapat masuk sebagai orang itu. Tidak berlaku untuk akun admin.",
		AllowsEN:  "Set another user's password and sign them out everywhere, which lets the holder sign in as that person. Not for administrator accounts."},
	{Name: RolesManage, Group: "users", Label: "Kelola hak akses peran", LabelEN: "Manage role access rights", DefaultRoles: []Role{},
		Sensitive: true,
		Allows:    "Mengubah hak akses peran lain (bukan peran sendiri dan bukan admin), terbatas pada izin yang dimiliki sendiri; izin sensitif hanya diberikan admin.",
		AllowsEN:  "Change the access rights of other roles (not one's own, not the administrator's), limited to permissions one holds; sensitive permissions are granted by the administrator only."},

	{Name: SettingsView, Group: "settings", Label: "Lihat pengaturan", LabelEN: "View settings", DefaultRoles: []Role{BK}},
	{Name: SettingsManage, Group: "settings", Label: "Kelola pengaturan & integrasi", LabelEN: "Manage settings and integrations", DefaultRoles: []Role{}},
	{Name: AuditView, Group: "settings", Label: "Lihat log audit", LabelEN: "View the audit log", DefaultRoles: with(leaders), SchoolWide: true},

	{Name: DashboardView, Group: "dashboard", Label: "Lihat dasbor", LabelEN: "View the dashboard", DefaultRoles: with(leaders, BK, WaliKelas, Staff, Other)},

	{Name: StudentsView, Group: "students", Label: "Lihat siswa, kelas, jurusan", LabelEN: "View students, classes, departments", DefaultRoles: with(leaders, BK, WaliKelas, Staff)},
	{Name: StudentsSync, Group: "students", Label: "Sinkronkan siswa dari kesiswaan", LabelEN: "Sync students from student affairs", DefaultRoles: []Role{BK}},
	{Name: ClassesManage, Group: "students", Label: "Atur wali kelas", LabelEN: "Assign homeroom teachers", DefaultRoles: []Role{}},

	{Name: ViolationTypesView, Group: "violation_types", Label: "Lihat jenis pelanggaran", LabelEN: "View violation types", DefaultRoles: with(leaders, BK, WaliKelas, Staff)},
	{Name: ViolationTypesManage, Group: "violation_types", Label: "Kelola jenis pelanggaran, kategori, ambang SP", LabelEN: "Manage violation types, categories, SP thresholds", DefaultRoles: []Role{BK}},

	{Name: ViolationsView, Group: "violations", Label: "Lihat pelanggaran dan poin siswa", LabelEN: "View violations and student points", DefaultRoles: with(leaders, BK, WaliKelas)},
	{Name: ViolationsRecord, Group: "violations", Label: "Catat pelanggaran", LabelEN: "Record violations", DefaultRoles: []Role{BK, WaliKelas}},
	{Name: ViolationsVerify, Group: "violations", Label: "Verifikasi pelanggaran", LabelEN: "Verify violations", DefaultRoles: []Role{BK}},
	{Name: ViolationsDelete, Group: "violations", Label: "Hapus pelanggaran", LabelEN: "Delete violations", DefaultRoles: []Role{BK}},
	{Name: ViolationsExport, Group: "violations", Label: "Ekspor pelanggaran ke Excel", LabelEN: "Export violations to Excel", DefaultRoles: with(leaders, BK)},
	{Name: PointAuditView, Group: "violations", Label: "Lihat riwayat perubahan poin", LabelEN: "View the point history", DefaultRoles: with(leaders, BK)},

	{Name: HandlingsCreate, Group: "handlings", Label: "Catat penanganan pelanggaran", LabelEN: "Record violation handling", DefaultRoles: []Role{BK, WaliKelas}},
	{Name: HandlingsResolve, Group: "handlings", Label: "Nyatakan pelanggaran selesai ditangani", LabelEN: "Mark violations as resolved", DefaultRoles: []Role{BK}},
	{Name: HandlingsDelete, Group: "handlings", Label: "Hapus catatan penanganan", LabelEN: "Delete handling records", DefaultRoles: []Role{BK}},
	{Name: HandlingsReopen, Group: "handlings", Label: "Buka kembali pelanggaran yang selesai", LabelEN: "Reopen resolved violations", DefaultRoles: []Role{BK}},
	{Name: HandlingsResolveAttendance, Group: "handlings", Label: "Selesaikan sekaligus pelanggaran absensi (alpha/terlambat) satu kelas", LabelEN: "Resolve a class's attendance violations (alpha/late) at once", DefaultRoles: []Role{BK, WaliKelas}},

	{Name: WarningLettersView, Group: "warning_letters", Label: "Lihat surat peringatan (SP)", LabelEN: "View warning letters (SP)", DefaultRoles: with(leaders, BK, WaliKelas)},
	{Name: WarningLettersManage, Group: "warning_letters", Label: "Cetak dan ubah status surat peringatan", LabelEN: "Print warning letters and change their status", DefaultRoles: []Role{BK}},

	{Name: AttendanceView, Group: "attendance", Label: "Lihat absensi, rekap dan kalender", LabelEN: "View attendance, recaps and the calendar", DefaultRoles: with(leaders, BK, WaliKelas)},
	{Name: AttendanceRecord, Group: "attendance", Label: "Isi absensi kelas", LabelEN: "Take class attendance", DefaultRoles: []Role{BK, WaliKelas}},
	{Name: AttendanceExport, Group: "attendance", Label: "Ekspor rekap absensi ke Excel", LabelEN: "Export attendance recaps to Excel", DefaultRoles: with(leaders, BK, WaliKelas)},

	{Name: ReportsView, Group: "reports", Label: "Lihat dan cetak laporan rekap pelanggaran", LabelEN: "View and print the violation recap report", DefaultRoles: with(leaders, BK, WaliKelas)},
	{Name: EarlyWarningsView, Group: "reports", Label: "Lihat peringatan dini siswa", LabelEN: "View early warnings", DefaultRoles: with(leaders, BK, WaliKelas)},

	{Name: ParentMessagesView, Group: "parent_messages", Label: "Lihat log pesan ke orang tua", LabelEN: "View the parent message log", DefaultRoles: with(leaders, BK, WaliKelas)},
	{Name: ParentMessagesManage, Group: "parent_messages", Label: "Kirim ulang dan batalkan pesan ke orang tua, lihat nomor lengkap", LabelEN: "Retry and cancel parent messages, see full numbers", DefaultRoles: []Role{BK}},
	{Name: StudentsEditContact, Group: "students", Label: "Ubah nama dan nomor HP orang tua siswa", LabelEN: "Edit a student's parent name and phone", DefaultRoles: []Role{BK, WaliKelas}},

	{Name: AchievementTypesView, Group: "achievement_types", Label: "Lihat jenis prestasi", LabelEN: "View achievement types", DefaultRoles: with(leaders, BK, WaliKelas, Staff)},
	{Name: AchievementTypesManage, Group: "achievement_types", Label: "Kelola jenis dan kategori prestasi", LabelEN: "Manage achievement types and categories", DefaultRoles: []Role{BK}},
	{Name: AchievementsView, Group: "achievements", Label: "Lihat prestasi siswa", LabelEN: "View student achievements", DefaultRoles: with(leaders, BK, WaliKelas)},
	{Name: AchievementsRecord, Group: "achievements", Label: "Catat prestasi siswa", LabelEN: "Record student achievements", DefaultRoles: []Role{BK, WaliKelas}},
	{Name: AchievementsVerify, Group: "achievements", Label: "Verifikasi prestasi siswa", LabelEN: "Verify student achievements", DefaultRoles: []Role{BK}},
	{Name: PointsPolicyManage, Group: "achievements", Label: "Atur kebijakan pengurangan poin dan simulasi aturan", LabelEN: "Set the points reduction policy and simulate rules", DefaultRoles: []Role{BK}, SchoolWide: true},

	{Name: FaceConsent, Group: "face", Label: "Catat dan cabut persetujuan orang tua untuk Face-ID", LabelEN: "Record and withdraw a parent's Face-ID consent", DefaultRoles: []Role{BK}},
	{Name: FaceEnrol, Group: "face", Label: "Daftarkan dan hapus data wajah siswa", LabelEN: "Enrol and delete students' face data", DefaultRoles: []Role{BK}},
	{Name: FaceReview, Group: "face", Label: "Lihat log pindai wajah dan konfirmasi hasil yang ragu", LabelEN: "View the face scan log and confirm uncertain scans", DefaultRoles: []Role{BK}, SchoolWide: true},
	{Name: FaceManage, Group: "face", Label: "Kelola kiosk gerbang dan pengaturan Face-ID", LabelEN: "Manage gate kiosks and Face-ID settings", DefaultRoles: []Role{}, SchoolWide: true},

	{Name: CasesView, Group: "cases", Label: "Lihat kasus (sesuai tim dan kelas)", LabelEN: "View cases (as team and class allow)", DefaultRoles: with(leaders, BK, WaliKelas)},
	{Name: CasesManage, Group: "cases", Label: "Buka dan tangani kasus", LabelEN: "Open and handle cases", DefaultRoles: []Role{BK}},
	{Name: CasesViewCounts, Group: "cases", Label: "Lihat jumlah kasus per kategori, tahap dan kelas", LabelEN: "View case counts by category, stage and class", DefaultRoles: with(leaders, BK), SchoolWide: true},
	{Name: CasesAccessLog, Group: "cases", Label: "Lihat log akses kasus", LabelEN: "View the case access log", DefaultRoles: []Role{}, AdminOnly: true, SchoolWide: true},
	{Name: GuardiansView, Group: "students", Label: "Lihat wali murid, sesi portal dan permintaan kode", LabelEN: "View guardians, portal sessions and code requests", DefaultRoles: with(leaders, BK, WaliKelas)},
	{Name: GuardiansManage, Group: "students", Label: "Kelola wali murid: tambah, cetak kode aktivasi, cabut sesi, verifikasi pendaftaran", LabelEN: "Manage guardians: add, print activation codes, revoke sessions, verify registrations", DefaultRoles: []Role{BK, WaliKelas}},

	{Name: DataReset, Group: "data", Label: "Reset data aplikasi (sebagian)", LabelEN: "Reset application data (selectively)", DefaultRoles: []Role{}, AdminOnly: true, SchoolWide: true},
	{Name: DataBackup, Group: "data", Label: "Unduh dan pulihkan cadangan database", LabelEN: "Download and restore database backups", DefaultRoles: []Role{}, AdminOnly: true, SchoolWide: true},
}

// Lookup returns the catalogue entry for n.
func Lookup(n Name) (Permission, bool) {
	for _, p := range Catalogue {
		if p.Name == n {
			return p, true
		}
	}
	return Permission{}, false
}

// Defaults returns the names a role has by the role-based fallback.
func Defaults(r Role) []Name {
	var out []Name
	for _, p := range Catalogue {
		if r == Admin || slices.Contains(p.DefaultRoles, r) {
			out = append(out, p.Name)
		}
	}
	return out
}

// AdminOnly reports whether n is held by the administrator alone.
func AdminOnly(n Name) bool {
	p, ok := Lookup(n)
	return ok && p.AdminOnly
}

// Sensitive reports whether n lets a role manage users or access rights.
func Sensitive(n Name) bool {
	p, ok := Lookup(n)
	return ok && p.Sensitive
}
