package parentmsg

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/netguard"
	"github.com/tatib/tatib/server/internal/parentmsg/gateway"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/shared/api"
)

// Limits of the settings form.
const (
	MaxTemplate    = 1000
	MaxMinPoints   = 1000
	MaxSettle      = 1440
	MaxTimeout     = 60
	maxSecret      = 1000
	maxWebhookBody = 4000
	maxBaseURL     = 500
	maxUsername    = 200
)

// GatewayKinds are the gateways Tatib talks to.
var GatewayKinds = []string{api.GatewayFonnte, api.GatewayWablas, api.GatewayGowa, api.GatewayWebhook}

var clockRE = regexp.MustCompile(`^([01][0-9]|2[0-3]):[0-5][0-9]$`)

// Wire answers s as the API shows it: secrets only as set or not set.
func (s Settings) Wire() api.MessagingSettings {
	g := s.Gateway
	return api.MessagingSettings{
		Gateway: api.MessagingGateway{Kind: g.Kind, BaseURL: g.BaseURL, Username: g.Username, WebhookBody: g.WebhookBody,
			TimeoutSeconds: timeoutOrDefault(g.TimeoutSeconds), TokenSet: g.Token != "", PasswordSet: g.Password != ""},
		Events:       s.Events,
		QuietHours:   s.QuietHours,
		UpdatedAt:    s.UpdatedAt,
		Placeholders: slices.Clone(Placeholders),
	}
}

func timeoutOrDefault(n int) int {
	if n <= 0 {
		return int(DefaultTimeout.Seconds())
	}
	return n
}

// sendConfig is the gateway client's configuration of g.
func sendConfig(g Gateway) gateway.Config {
	return gateway.Config{Kind: g.Kind, BaseURL: g.BaseURL, Token: g.Token, Username: g.Username, Password: g.Password,
		WebhookBody: g.WebhookBody, Timeout: g.Timeout()}
}

// mergeGateway is the gateway in, its absent (nil) secrets taken from
// stored; "" clears a secret.
func mergeGateway(in api.MessagingGateway, stored Gateway) Gateway {
	g := Gateway{Kind: strings.TrimSpace(in.Kind), BaseURL: strings.TrimSpace(in.BaseURL), Username: strings.TrimSpace(in.Username),
		WebhookBody: strings.TrimSpace(in.WebhookBody), TimeoutSeconds: in.TimeoutSeconds, Token: stored.Token, Password: stored.Password}
	if in.Token != nil {
		g.Token = strings.TrimSpace(*in.Token)
	}
	if in.Password != nil {
		g.Password = *in.Password
	}
	if g.TimeoutSeconds == 0 {
		g.TimeoutSeconds = int(DefaultTimeout.Seconds())
	}
	g.BaseURL = strings.TrimRight(g.BaseURL, "/")
	return g
}

// validateGateway checks g field by field into f (fields "gateway.…").
func validateGateway(f apperr.Fields, g Gateway) {
	switch {
	case g.Kind == "" && g.BaseURL != "":
		f.Add("gateway.kind", "parentmsg.gateway.kind_required")
	case g.Kind != "" && !slices.Contains(GatewayKinds, g.Kind):
		f.Add("gateway.kind", "parentmsg.gateway.kind")
	}
	switch {
	case g.BaseURL == "" && g.Kind != "":
		f.Add("gateway.base_url", "parentmsg.gateway.base_url_required")
	case utf8.RuneCountInString(g.BaseURL) > maxBaseURL:
		f.Add("gateway.base_url", "parentmsg.field.too_long", "max", maxBaseURL)
	case g.BaseURL != "":
		u, err := url.Parse(g.BaseURL)
		switch {
		case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || u.Fragment != "":
			f.Add("gateway.base_url", "parentmsg.gateway.base_url")
		case netguard.LocalHost(u.Hostname()) && !netguard.LocalAllowed():
			// The test message answers what the address said: a local
			// address would make this form a way to read the server's
			// own ports (docs/parent-messaging.md, "Gateways").
			f.Add("gateway.base_url", "parentmsg.gateway.base_url_local", "host", u.Host)
		}
	}
	switch {
	case len(g.Token) > maxSecret:
		f.Add("gateway.token", "parentmsg.field.too_long", "max", maxSecret)
	case strings.ContainsAny(g.Token, " \t\r\n"):
		f.Add("gateway.token", "parentmsg.gateway.token_spaces")
	case g.Token == "" && (g.Kind == api.GatewayFonnte || g.Kind == api.GatewayWablas):
		f.Add("gateway.token", "parentmsg.gateway.token_required")
	}
	if utf8.RuneCountInString(g.Username) > maxUsername {
		f.Add("gateway.username", "parentmsg.field.too_long", "max", maxUsername)
	}
	if len(g.Password) > maxSecret {
		f.Add("gateway.password", "parentmsg.field.too_long", "max", maxSecret)
	}
	if g.Kind == api.GatewayGowa {
		switch {
		case g.Username != "" && g.Password == "":
			f.Add("gateway.password", "parentmsg.gateway.login_pair")
		case g.Username == "" && g.Password != "":
			f.Add("gateway.username", "parentmsg.gateway.login_pair")
		}
	}
	switch {
	case g.WebhookBody == "" && g.Kind == api.GatewayWebhook:
		f.Add("gateway.webhook_body", "parentmsg.gateway.webhook_body_required")
	case utf8.RuneCountInString(g.WebhookBody) > maxWebhookBody:
		f.Add("gateway.webhook_body", "parentmsg.field.too_long", "max", maxWebhookBody)
	case g.WebhookBody != "" && !webhookBodyValid(g.WebhookBody):
		f.Add("gateway.webhook_body", "parentmsg.gateway.webhook_body_json")
	}
	if g.TimeoutSeconds < 1 || g.TimeoutSeconds > MaxTimeout {
		f.Add("gateway.timeout_seconds", "parentmsg.gateway.timeout", "min", 1, "max", MaxTimeout)
	}
}

// webhookBodyValid reports whether body is JSON once its placeholders are
// filled with a string's content, as the webhook client fills them (quotes
// and line breaks escaped).
func webhookBodyValid(body string) bool {
	sample := map[string]string{"phone": "6281234567890", "message": "Yth. \"Bapak/Ibu\"\nBaris dua", "student_name": "Budi"}
	for k, v := range sample {
		b, _ := json.Marshal(v)
		sample[k] = string(b[1 : len(b)-1])
	}
	return json.Valid([]byte(Render(body, sample)))
}

// validateEvent checks one event's switch and template into f; stored is
// the event as saved, whose own settings stand where e leaves them out.
func validateEvent(f apperr.Fields, name string, e *api.MessagingEvent, stored api.MessagingEvent) {
	e.Template = strings.TrimSpace(strings.ReplaceAll(e.Template, "\r\n", "\n"))
	field := "events." + name + ".template"
	switch {
	case e.Template == "" && e.Enabled:
		f.Add(field, "parentmsg.template.required")
	case utf8.RuneCountInString(e.Template) > MaxTemplate:
		f.Add(field, "parentmsg.field.too_long", "max", MaxTemplate)
	default:
		if u := Unknown(e.Template); len(u) > 0 {
			f.Add(field, "parentmsg.template.unknown", "names", braced(u))
		}
	}
	if name != api.ParentEventViolation {
		// Only violations have a minimum, an automatic kind and a settle time.
		e.MinPoints, e.IncludeAutomatic, e.SettleMinutes = 0, false, 0
	} else if e.SettleMinutes == 0 {
		e.SettleMinutes = cmp.Or(stored.SettleMinutes, DefaultSettleMinutes)
	}
	if e.MinPoints < 0 || e.MinPoints > MaxMinPoints {
		f.Add("events."+name+".min_points", "parentmsg.min_points", "min", 0, "max", MaxMinPoints)
	}
	if m := e.SettleMinutes; name == api.ParentEventViolation && (m < 1 || m > MaxSettle) {
		f.Add("events."+name+".settle_minutes", "parentmsg.settle_minutes", "min", 1, "max", MaxSettle)
	}
	if name != api.ParentEventWarningLetter {
		e.SendOn, e.CorrectionTemplate = "", ""
		return
	}
	if e.SendOn = strings.TrimSpace(e.SendOn); e.SendOn == "" {
		e.SendOn = stored.SendOn
	}
	if e.SendOn != api.LetterSendOnSent && e.SendOn != api.LetterSendOnPrinted {
		f.Add("events."+name+".send_on", "parentmsg.send_on")
	}
	e.CorrectionTemplate = strings.TrimSpace(strings.ReplaceAll(e.CorrectionTemplate, "\r\n", "\n"))
	if e.CorrectionTemplate == "" {
		e.CorrectionTemplate = stored.CorrectionTemplate
	}
	field = "events." + name + ".correction_template"
	switch {
	case utf8.RuneCountInString(e.CorrectionTemplate) > MaxTemplate:
		f.Add(field, "parentmsg.field.too_long", "max", MaxTemplate)
	default:
		if u := Unknown(e.CorrectionTemplate); len(u) > 0 {
			f.Add(field, "parentmsg.template.unknown", "names", braced(u))
		}
	}
}

// braced writes names as the template writes them: "{a}, {b}".
func braced(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = "{" + n + "}"
	}
	return strings.Join(out, ", ")
}

// validateQuietHours checks the quiet hours into f; nil means none.
func validateQuietHours(f apperr.Fields, q *api.QuietHours) {
	if q == nil {
		return
	}
	q.From, q.To = strings.TrimSpace(q.From), strings.TrimSpace(q.To)
	if !clockRE.MatchString(q.From) {
		f.Add("quiet_hours.from", "parentmsg.quiet_hours.format")
	}
	if !clockRE.MatchString(q.To) {
		f.Add("quiet_hours.to", "parentmsg.quiet_hours.format")
	}
	if q.From == q.To && clockRE.MatchString(q.From) {
		f.Add("quiet_hours.to", "parentmsg.quiet_hours.equal")
	}
}

// SettingsInput is a PUT of the settings: what it says, and whether it
// said events and quiet_hours at all. A client that sends only the gateway
// (an outside tool) keeps the stored events and quiet hours rather than
// switching every event and the quiet hours off; quiet_hours: null still
// means none.
type SettingsInput struct {
	api.MessagingSettings
	EventsGiven, QuietHoursGiven bool
}

// UnmarshalJSON reads the settings and notes which parts were given.
func (in *SettingsInput) UnmarshalJSON(b []byte) error {
	if err := json.Unmarshal(b, &in.MessagingSettings); err != nil {
		return err
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(b, &keys); err != nil {
		return err
	}
	_, in.EventsGiven = keys["events"]
	_, in.QuietHoursGiven = keys["quiet_hours"]
	return nil
}

// Prepare merges in with the stored settings (absent secrets, events and
// quiet hours kept) and checks every field; the answer is what would be
// stored.
func Prepare(in SettingsInput, stored Settings) (Settings, error) {
	f := apperr.Fields{}
	s := Settings{Gateway: mergeGateway(in.Gateway, stored.Gateway), Events: in.Events, QuietHours: in.QuietHours}
	if !in.EventsGiven {
		s.Events = stored.Events
	}
	if !in.QuietHoursGiven {
		s.QuietHours = stored.QuietHours
	}
	validateGateway(f, s.Gateway)
	validateEvent(f, api.ParentEventViolation, &s.Events.Violation, stored.Events.Violation)
	validateEvent(f, api.ParentEventWarningLetter, &s.Events.WarningLetter, stored.Events.WarningLetter)
	validateEvent(f, api.ParentEventSummons, &s.Events.Summons, stored.Events.Summons)
	if s.Events.Achievement == (api.MessagingEvent{}) {
		// A client that knows no achievement event keeps the stored one.
		s.Events.Achievement = stored.Events.Achievement
	}
	validateEvent(f, api.ParentEventAchievement, &s.Events.Achievement, stored.Events.Achievement)
	validateQuietHours(f, s.QuietHours)
	return s, f.Err()
}

// SaveSettings validates and stores the messaging settings, audited with
// the secrets left out (the entry says only whether each changed).
func SaveSettings(ctx context.Context, db *sqlx.DB, actor audit.Actor, in SettingsInput) (Settings, error) {
	var out Settings
	err := pg.InTx(ctx, db, func(tx *sqlx.Tx) error {
		// Two saves at once would each keep the secrets the other replaced.
		if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtext('tatib.settings.messaging'))`); err != nil {
			return fmt.Errorf("parentmsg: lock settings: %w", err)
		}
		before, err := Load(ctx, tx)
		if err != nil {
			return err
		}
		s, err := Prepare(in, before)
		if err != nil {
			return err
		}
		b, err := json.Marshal(s)
		if err != nil {
			return fmt.Errorf("parentmsg: encode settings: %w", err)
		}
		var by *int64
		if actor.ID != 0 {
			by = &actor.ID
		}
		const q = `INSERT INTO settings (key, value, updated_at, updated_by) VALUES ($1, $2, now(), $3)
			ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now(), updated_by = EXCLUDED.updated_by
			RETURNING updated_at`
		var row struct {
			UpdatedAt time.Time `db:"updated_at"`
		}
		if err := tx.GetContext(ctx, &row, q, SettingsKey, string(b), by); err != nil {
			return fmt.Errorf("parentmsg: save settings: %w", err)
		}
		at := row.UpdatedAt
		s.UpdatedAt = &at
		bw, aw := before.Wire(), s.Wire()
		bw.UpdatedAt, aw.UpdatedAt, bw.Placeholders, aw.Placeholders = nil, nil, nil, nil
		if err := audit.Record(ctx, tx, actor, "settings.messaging.update", "setting", SettingsKey, map[string]any{
			"before": bw, "after": aw,
			"token_changed":    s.Gateway.Token != before.Gateway.Token,
			"password_changed": s.Gateway.Password != before.Gateway.Password,
		}); err != nil {
			return err
		}
		out = s
		return nil
	})
	return out, err
}
