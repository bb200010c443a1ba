// Package parentmsg tells parents by WhatsApp when their child's violation
// is recorded (an attendance day's automatic ones once the day settles), a
// warning letter is sent to them (or withdrawn after that) or a summons
// made: the school's settings and templates, the outbox the recording
// transaction writes to, the delivery log and its API. The worker that
// sends lives in parentmsg/worker, the gateway clients in parentmsg/gateway.
package parentmsg

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/shared/api"
)

// SettingsKey is the settings table's key of the messaging settings.
const SettingsKey = "messaging"

// Gateway is the stored connection, secrets included. It never leaves the
// server: the API answers api.MessagingGateway with TokenSet/PasswordSet.
type Gateway struct {
	Kind           string `json:"kind"`
	BaseURL        string `json:"base_url"`
	Token          string `json:"token"`
	Username       string `json:"username"`
	Password       string `json:"password"`
	WebhookBody    string `json:"webhook_body"`
	TimeoutSeconds int    `json:"timeout_seconds"`
}

// Timeout is the bound on one send.
func (g Gateway) Timeout() time.Duration {
	if g.TimeoutSeconds <= 0 {
		return DefaultTimeout
	}
	return time.Duration(g.TimeoutSeconds) * time.Second
}

// DefaultTimeout bounds one send when the school set none.
const DefaultTimeout = 15 * time.Second

// Settings are the school's messaging settings as stored.
type Settings struct {
	Gateway    Gateway             `json:"gateway"`
	Events     api.MessagingEvents `json:"events"`
	QuietHours *api.QuietHours     `json:"quiet_hours"`
	UpdatedAt  *time.Time          `json:"-"`
}

// Settle is how long an attendance day's message waits after the day's
// last change.
func (s Settings) Settle() time.Duration {
	if m := s.Events.Violation.SettleMinutes; m > 0 {
		return time.Duration(m) * time.Minute
	}
	return DefaultSettleMinutes * time.Minute
}

// SendOnPrint reports whether printing a letter sends its message.
func (s Settings) SendOnPrint() bool { return s.Events.WarningLetter.SendOn == api.LetterSendOnPrinted }

// Configured reports whether a gateway is set. Nothing is queued while it
// is not: messages would only pile up.
func (s Settings) Configured() bool { return s.Gateway.Kind != "" && s.Gateway.BaseURL != "" }

// Placeholders are what a template may use, each written {name}.
var Placeholders = []string{
	"nama_siswa", "nis", "nisn", "kelas", "nama_orang_tua", "jenis_pelanggaran", "poin",
	"total_poin", "level_sp", "tanggal", "tanggal_panggilan", "nama_sekolah", "jenis_prestasi", "tingkat",
}

// Default templates, in Indonesian as parents read them.
const (
	DefaultViolationTemplate = "Yth. Bapak/Ibu {nama_orang_tua}, kami memberitahukan bahwa ananda {nama_siswa} ({kelas}) " +
		"tercatat melakukan pelanggaran \"{jenis_pelanggaran}\" pada {tanggal} ({poin} poin). " +
		"Total poin tahun ajaran ini: {total_poin}. Terima kasih atas perhatiannya.\n\n{nama_sekolah}"
	DefaultLetterTemplate = "Yth. Bapak/Ibu {nama_orang_tua}, poin pelanggaran ananda {nama_siswa} ({kelas}) telah mencapai " +
		"{total_poin} sehingga sekolah menerbitkan {level_sp} pada {tanggal}. Surat akan disampaikan melalui sekolah. " +
		"Mohon bimbingan Bapak/Ibu di rumah.\n\n{nama_sekolah}"
	DefaultLetterCorrectionTemplate = "Yth. Bapak/Ibu {nama_orang_tua}, {level_sp} untuk ananda {nama_siswa} ({kelas}) yang kami " +
		"sampaikan sebelumnya dibatalkan: poin pelanggaran ananda tidak lagi mencapai batasnya. Mohon maaf atas " +
		"ketidaknyamanannya.\n\n{nama_sekolah}"
	DefaultSummonsTemplate = "Yth. Bapak/Ibu {nama_orang_tua}, dengan hormat kami mengundang Bapak/Ibu hadir ke sekolah " +
		"pada {tanggal_panggilan} untuk membicarakan ananda {nama_siswa} ({kelas}) bersama guru BK. " +
		"Mohon konfirmasi kehadiran Bapak/Ibu. Terima kasih.\n\n{nama_sekolah}"
	DefaultAchievementTemplate = "Yth. Bapak/Ibu {nama_orang_tua}, dengan bangga kami memberitahukan bahwa ananda {nama_siswa} ({kelas}) " +
		"meraih prestasi \"{jenis_prestasi}\" tingkat {tingkat} pada {tanggal}. Selamat, dan terima kasih atas dukungan Bapak/Ibu.\n\n{nama_sekolah}"
)

// DefaultSettleMinutes is how long an attendance day's message waits after
// the day's last change when the school set nothing.
const DefaultSettleMinutes = 30

// Defaults are the settings of a school that saved none: every event on,
// quiet hours 21:00–06:00, no gateway (so nothing is queued yet).
func Defaults() Settings {
	return Settings{
		Events: api.MessagingEvents{
			Violation: api.MessagingEvent{Enabled: true, Template: DefaultViolationTemplate, SettleMinutes: DefaultSettleMinutes},
			WarningLetter: api.MessagingEvent{Enabled: true, Template: DefaultLetterTemplate, SendOn: api.LetterSendOnSent,
				CorrectionTemplate: DefaultLetterCorrectionTemplate},
			Summons:     api.MessagingEvent{Enabled: true, Template: DefaultSummonsTemplate},
			Achievement: api.MessagingEvent{Enabled: true, Template: DefaultAchievementTemplate},
		},
		QuietHours: &api.QuietHours{From: "21:00", To: "06:00"},
	}
}

// Load reads the settings (defaults for what was never saved). q may be a
// transaction: the recording transaction reads them to decide what to
// queue.
func Load(ctx context.Context, q sqlx.QueryerContext) (Settings, error) {
	s := Defaults()
	var row struct {
		Value     []byte    `db:"value"`
		UpdatedAt time.Time `db:"updated_at"`
	}
	err := sqlx.GetContext(ctx, q, &row, `SELECT value, updated_at FROM settings WHERE key = $1`, SettingsKey)
	if errors.Is(err, sql.ErrNoRows) {
		return s, nil
	}
	if err != nil {
		return s, fmt.Errorf("parentmsg: load settings: %w", err)
	}
	if s, err = Parse(row.Value); err != nil {
		return s, err
	}
	s.UpdatedAt = &row.UpdatedAt
	return s, nil
}

// Parse reads the stored settings value (nil: never saved) over the
// defaults, for a caller that read the row with its own statement.
func Parse(value []byte) (Settings, error) {
	s := Defaults()
	if value == nil {
		return s, nil
	}
	// The stored value replaces the defaults key by key; a stored null
	// quiet_hours means "no quiet hours".
	if err := json.Unmarshal(value, &s); err != nil {
		return s, fmt.Errorf("parentmsg: settings: %w", err)
	}
	return s, nil
}

// Render fills template's {placeholders} from values; a placeholder
// without a value is left as written, so a mistake shows in the preview.
func Render(template string, values map[string]string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(template, '{')
		if i < 0 {
			b.WriteString(template)
			return b.String()
		}
		j := strings.IndexByte(template[i:], '}')
		if j < 0 {
			b.WriteString(template)
			return b.String()
		}
		name := template[i+1 : i+j]
		b.WriteString(template[:i])
		if v, ok := values[name]; ok {
			b.WriteString(v)
		} else {
			b.WriteString(template[i : i+j+1])
		}
		template = template[i+j+1:]
	}
}

// Unknown lists the {names} in template that are not Placeholders, in
// order of appearance, each once.
func Unknown(template string) []string {
	known := map[string]bool{}
	for _, p := range Placeholders {
		known[p] = true
	}
	var out []string
	seen := map[string]bool{}
	for {
		i := strings.IndexByte(template, '{')
		if i < 0 {
			return out
		}
		j := strings.IndexByte(template[i:], '}')
		if j < 0 {
			return out
		}
		name := template[i+1 : i+j]
		if !known[name] && !seen[name] && !strings.ContainsAny(name, "{ \n") {
			seen[name] = true
			out = append(out, name)
		}
		template = template[i+j+1:]
	}
}
