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
	DefaultRoles []Role `json:"default_roles"`
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
)

// Public and Authenticated are route markers, not permissions: Public needs
// no sign-in, Authenticated needs a signed-in user and nothing more.
const (
	Public        Name = "public"
	Authenticated Name = "authenticated"
)

var leaders = []Role{KepalaSekolah, Waka, KetuaTim}

func with(base []Role, more ...Role) []Role {
	return append(append([]Role{}, base...), more...)
}

// Catalogue is every permission, grouped for the screen.
var Catalogue = []Permission{
	{UsersView, "users", "Lihat pengguna", "View users", []Role{}},
	{UsersManage, "users", "Kelola pengguna", "Manage users", []Role{}},
	{UsersResetPassword, "users", "Atur ulang kata sandi pengguna lain", "Reset another user's password", []Role{}},
	{RolesManage, "users", "Kelola hak akses peran", "Manage role access rights", []Role{}},

	{SettingsView, "settings", "Lihat pengaturan", "View settings", []Role{BK}},
	{SettingsManage, "settings", "Kelola pengaturan & integrasi", "Manage settings and integrations", []Role{}},
	{AuditView, "settings", "Lihat log audit", "View the audit log", with(leaders)},

	{DashboardView, "dashboard", "Lihat dasbor", "View the dashboard", with(leaders, BK, WaliKelas, Staff, Other)},

	{StudentsView, "students", "Lihat siswa, kelas, jurusan", "View students, classes, departments", with(leaders, BK, WaliKelas, Staff)},
	{StudentsSync, "students", "Sinkronkan siswa dari kesiswaan", "Sync students from student affairs", []Role{BK}},
	{ClassesManage, "students", "Atur wali kelas", "Assign homeroom teachers", []Role{}},

	{ViolationTypesView, "violation_types", "Lihat jenis pelanggaran", "View violation types", with(leaders, BK, WaliKelas, Staff)},
	{ViolationTypesManage, "violation_types", "Kelola jenis pelanggaran, kategori, ambang SP", "Manage violation types, categories, SP thresholds", []Role{BK}},
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
