package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// The desktop app's own texts, in Indonesian and English. The server's
// catalogue (server/internal/locale) is an internal package of another
// module, so the few texts the app writes itself live here, with the same
// {param} placeholders and the same "area.key" names.

// Lang is a language the app speaks.
type Lang string

// The languages: Indonesian first, as everywhere in Tatib.
const (
	LangID Lang = "id"
	LangEN Lang = "en"
)

type texts struct{ id, en string }

var messages = map[string]texts{
	// The /api proxy's own answers.
	"desktop.server_not_set": {
		"Alamat server Tatib belum diatur. Aturlah lewat menu Tatib → Ubah alamat server…",
		"The Tatib server address is not set yet. Set it with the menu Tatib → Change server address…"},
	"desktop.server_saved_invalid": {
		"Alamat server Tatib yang tersimpan tidak valid: {url}. Aturlah lewat menu Tatib → Ubah alamat server…",
		"The saved Tatib server address is not valid: {url}. Set it with the menu Tatib → Change server address…"},
	"desktop.server_unreachable": {
		"Server Tatib tidak dapat dihubungi ({url}). Periksa jaringan atau alamat server; aplikasi akan mencoba lagi.",
		"The Tatib server cannot be reached ({url}). Check the network or the server address; the app will try again."},

	// The server-address page.
	"desktop.setup.title":          {"Alamat server", "Server address"},
	"desktop.setup.intro":          {"Masukkan alamat server Tatib sekolah Anda. Tanyakan kepada admin bila belum tahu.", "Enter your school's Tatib server address. Ask your admin if you do not know it."},
	"desktop.setup.label":          {"Alamat server", "Server address"},
	"desktop.setup.save":           {"Simpan dan lanjutkan", "Save and continue"},
	"desktop.setup.failed":         {"Gagal ({status})", "Failed ({status})"},
	"desktop.setup.other_language": {"English", "Bahasa Indonesia"},
	"desktop.server_url_required":  {"Alamat server wajib diisi.", "Enter the server address."},
	"desktop.server_url_invalid": {
		"Alamat server tidak valid; contoh: http://192.168.1.10:8080 atau https://tatib.sekolah.sch.id",
		"This is not a valid server address; for example: http://192.168.1.10:8080 or https://tatib.sekolah.sch.id"},
	"desktop.server_probe_unreachable": {
		"Server Tatib tidak dapat dihubungi di {url}. Periksa alamat dan jaringan.",
		"No Tatib server could be reached at {url}. Check the address and the network."},
	"desktop.server_not_tatib": {
		"Alamat {url} menjawab, tetapi bukan server Tatib.",
		"{url} answers, but it is not a Tatib server."},
	"desktop.server_not_saved": {
		"Alamat server tidak dapat disimpan: {error}",
		"The server address could not be saved: {error}"},
	"desktop.bad_request":        {"Permintaan tidak valid.", "The request is not valid."},
	"desktop.method_not_allowed": {"Permintaan ini tidak didukung.", "This request is not supported."},

	// Files: native dialogs and their errors.
	"desktop.dialog.save":     {"Simpan berkas", "Save file"},
	"desktop.dialog.open":     {"Pilih berkas", "Choose a file"},
	"desktop.file_invalid":    {"Berkas tidak valid.", "The file is not valid."},
	"desktop.file_not_saved":  {"Berkas tidak dapat disimpan: {error}", "The file could not be saved: {error}"},
	"desktop.file_not_read":   {"Berkas tidak dapat dibaca: {error}", "The file could not be read: {error}"},
	"desktop.file_too_large":  {"Berkas terlalu besar (maksimal {max} MB).", "The file is too large (at most {max} MB)."},
	"desktop.menu.set_server": {"Ubah alamat server…", "Change server address…"},
	"desktop.menu.reload":     {"Muat ulang", "Reload"},
	"desktop.menu.quit":       {"Keluar", "Quit"},

	// The CI self-test's OS notification.
	"desktop.selftest.notification": {"Uji mandiri aplikasi desktop berhasil.", "The desktop app's self-test passed."},
}

// T renders key in lang with kv as name, value pairs for its {name}
// placeholders. An unknown key renders as itself, so a typo shows up
// instead of an empty text.
func T(lang Lang, key string, kv ...any) string {
	m, ok := messages[key]
	if !ok {
		return key
	}
	s := m.id
	if lang == LangEN {
		s = m.en
	}
	if len(kv) < 2 {
		return s
	}
	pairs := make([]string, 0, len(kv))
	for i := 0; i+1 < len(kv); i += 2 {
		pairs = append(pairs, "{"+fmt.Sprint(kv[i])+"}", fmt.Sprint(kv[i+1]))
	}
	return strings.NewReplacer(pairs...).Replace(s)
}

// params turns name, value pairs into the "params" of an error answer.
func params(kv ...any) map[string]any {
	if len(kv) < 2 {
		return nil
	}
	m := make(map[string]any, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		m[fmt.Sprint(kv[i])] = kv[i+1]
	}
	return m
}

// ParseLang picks the language of an Accept-Language header the way the
// server does: the highest-weighted of id (or the old "in") and en;
// Indonesian when neither is there. The web front end sends its UI
// language ("en" or "id"); WebKitGTK sends the system locale for pages.
func ParseLang(header string) Lang {
	best, bestQ := LangID, -1.0
	for _, part := range strings.Split(header, ",") {
		tag, ps, _ := strings.Cut(strings.TrimSpace(part), ";")
		q := 1.0
		if v, ok := strings.CutPrefix(strings.TrimSpace(ps), "q="); ok {
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				q = f
			}
		}
		primary, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(tag)), "-")
		primary, _, _ = strings.Cut(primary, "_")
		var l Lang
		switch primary {
		case "id", "in":
			l = LangID
		case "en":
			l = LangEN
		default:
			continue
		}
		if q > bestQ {
			best, bestQ = l, q
		}
	}
	return best
}

// systemLang is the language of the OS session (LC_ALL, LC_MESSAGES, LANG,
// the first one set): English when it starts with "en", else Indonesian.
func systemLang() Lang {
	for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if v := os.Getenv(k); v != "" {
			if strings.HasPrefix(strings.ToLower(v), "en") {
				return LangEN
			}
			return LangID
		}
	}
	return LangID
}

// textError is an error a person reads: a message key with its parameters,
// rendered in whatever language the place that shows it speaks.
type textError struct {
	key string
	kv  []any
}

func newTextError(key string, kv ...any) *textError { return &textError{key: key, kv: kv} }

// Error renders the message in the OS session's language (logs, stderr).
func (e *textError) Error() string { return e.In(systemLang()) }

// In renders the message in lang.
func (e *textError) In(lang Lang) string { return T(lang, e.key, e.kv...) }

// causedError is a message already rendered for a person that keeps the
// error it is about for errors.Is and errors.As.
type causedError struct {
	msg   string
	cause error
}

func (e *causedError) Error() string { return e.msg }
func (e *causedError) Unwrap() error { return e.cause }
