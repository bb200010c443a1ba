package parentmsg_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/server/internal/parentmsg"
	"github.com/tatib/tatib/server/internal/sim/wa"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

const apiSecret = "rahasia-token-XYZ"

func apiStr(s string) *string { return &s }

// apiGetSettings reads the settings as c.
func apiGetSettings(t *testing.T, c *apitest.Client) api.MessagingSettings {
	t.Helper()
	var out api.MessagingSettings
	c.Do("GET", "/api/v1/settings/messaging", nil).Want(http.StatusOK).JSON(&out)
	return out
}

// apiFonnte is valid settings for a Fonnte gateway at base.
func apiFonnte(base string) api.MessagingSettings {
	d := parentmsg.Defaults()
	return api.MessagingSettings{
		Gateway:    api.MessagingGateway{Kind: api.GatewayFonnte, BaseURL: base, Token: apiStr(apiSecret), TimeoutSeconds: 5},
		Events:     d.Events,
		QuietHours: d.QuietHours,
	}
}

// apiNoSecret fails when body holds a secret.
func apiNoSecret(t *testing.T, where string, body []byte, secrets ...string) {
	t.Helper()
	for _, s := range secrets {
		if strings.Contains(string(body), s) {
			t.Fatalf("%s answers a secret: %s", where, body)
		}
	}
}

func TestSettingsRoutes(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	admin := env.As(perm.Admin)
	bk := env.As(perm.BK)
	staff := env.As(perm.Staff)

	t.Run("ErrForbidden", func(t *testing.T) {
		staff.Do("GET", "/api/v1/settings/messaging", nil).Want(http.StatusForbidden)
		for _, c := range []*apitest.Client{staff, bk} {
			c.Do("PUT", "/api/v1/settings/messaging", apiFonnte("http://127.0.0.1:1")).Want(http.StatusForbidden)
			c.Do("POST", "/api/v1/settings/messaging/test", map[string]string{"phone": "08123456789"}).Want(http.StatusForbidden)
			c.Do("POST", "/api/v1/settings/messaging/preview", map[string]any{"event": "violation", "template": "x", "student_id": 1}).Want(http.StatusForbidden)
		}
	})

	t.Run("OKDefaults", func(t *testing.T) {
		s := apiGetSettings(t, bk)
		d := parentmsg.Defaults()
		if s.Gateway.Kind != "" || s.Gateway.TokenSet || s.Gateway.PasswordSet || s.Gateway.TimeoutSeconds != 15 {
			t.Fatalf("gateway %+v", s.Gateway)
		}
		if s.Events != d.Events || s.QuietHours == nil || *s.QuietHours != *d.QuietHours || s.UpdatedAt != nil {
			t.Fatalf("defaults %+v", s)
		}
		if len(s.Placeholders) != len(parentmsg.Placeholders) {
			t.Fatalf("placeholders %v", s.Placeholders)
		}
	})

	t.Run("OKSecretsWriteOnly", func(t *testing.T) {
		res := admin.Do("PUT", "/api/v1/settings/messaging", apiFonnte("http://gateway.example/")).Want(http.StatusOK)
		apiNoSecret(t, "PUT", res.Body, apiSecret)
		var out api.MessagingSettings
		res.JSON(&out)
		if !out.Gateway.TokenSet || out.Gateway.Token != nil || out.Gateway.BaseURL != "http://gateway.example" || out.UpdatedAt == nil {
			t.Fatalf("saved %+v", out.Gateway)
		}
		got := bk.Do("GET", "/api/v1/settings/messaging", nil).Want(http.StatusOK)
		apiNoSecret(t, "GET", got.Body, apiSecret)

		// Absent keeps the stored token.
		in := apiFonnte("http://gateway.example")
		in.Gateway.Token = nil
		in.Events.Violation.MinPoints = 10
		admin.Do("PUT", "/api/v1/settings/messaging", in).Want(http.StatusOK).JSON(&out)
		stored, err := parentmsg.Load(t.Context(), env.DB)
		if err != nil {
			t.Fatal(err)
		}
		if !out.Gateway.TokenSet || stored.Gateway.Token != apiSecret || stored.Events.Violation.MinPoints != 10 {
			t.Fatalf("token not kept: %+v / %+v", out.Gateway, stored.Gateway)
		}
		// "" clears it: Fonnte then needs one; a webhook does not.
		in.Gateway.Token = apiStr("")
		e := admin.Do("PUT", "/api/v1/settings/messaging", in).Want(http.StatusUnprocessableEntity).Err()
		if e.Error.FieldCodes["gateway.token"].Code != "parentmsg.gateway.token_required" {
			t.Fatalf("%+v", e.Error.FieldCodes)
		}
		in.Gateway.Kind, in.Gateway.WebhookBody = api.GatewayWebhook, `{"to":"{phone}","text":"{message}"}`
		admin.Do("PUT", "/api/v1/settings/messaging", in).Want(http.StatusOK).JSON(&out)
		if out.Gateway.TokenSet {
			t.Fatalf("token not cleared: %+v", out.Gateway)
		}
		// gowa's password, kept and never answered either.
		in = apiFonnte("https://wa.sekolah.sch.id")
		in.Gateway.Kind, in.Gateway.Token, in.Gateway.Username, in.Gateway.Password = api.GatewayGowa, nil, "admin", apiStr("sandi-GOWA-777")
		res = admin.Do("PUT", "/api/v1/settings/messaging", in).Want(http.StatusOK)
		apiNoSecret(t, "PUT gowa", res.Body, "sandi-GOWA-777")
		res.JSON(&out)
		if !out.Gateway.PasswordSet || out.Gateway.Username != "admin" {
			t.Fatalf("gowa %+v", out.Gateway)
		}
		// The audit log has every save, without the secrets.
		var details []string
		if err := env.DB.Select(&details, `SELECT details::text FROM audit_log WHERE action = 'settings.messaging.update' ORDER BY id`); err != nil {
			t.Fatal(err)
		}
		if len(details) != 4 {
			t.Fatalf("%d audit entries", len(details))
		}
		for _, d := range details {
			apiNoSecret(t, "audit", []byte(d), apiSecret, "sandi-GOWA-777")
		}
		if !strings.Contains(details[0], `"token_changed": true`) || !strings.Contains(details[1], `"token_changed": false`) {
			t.Fatalf("audit %v", details[:2])
		}
	})

	t.Run("OKNoQuietHours", func(t *testing.T) {
		in := apiFonnte("http://gateway.example")
		in.QuietHours = nil
		var out api.MessagingSettings
		admin.Do("PUT", "/api/v1/settings/messaging", in).Want(http.StatusOK).JSON(&out)
		if out.QuietHours != nil || apiGetSettings(t, admin).QuietHours != nil {
			t.Fatalf("quiet hours %+v", out.QuietHours)
		}
	})
}

func TestSettingsValidation(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	admin := env.As(perm.Admin)
	long := strings.Repeat("a", parentmsg.MaxTemplate+1)
	cases := []struct {
		name  string
		edit  func(*api.MessagingSettings)
		field string
		code  string
	}{
		{"ErrKind", func(s *api.MessagingSettings) { s.Gateway.Kind = "telegram" }, "gateway.kind", "parentmsg.gateway.kind"},
		{"ErrKindMissing", func(s *api.MessagingSettings) { s.Gateway.Kind = "" }, "gateway.kind", "parentmsg.gateway.kind_required"},
		{"ErrBaseURLMissing", func(s *api.MessagingSettings) { s.Gateway.BaseURL = "" }, "gateway.base_url", "parentmsg.gateway.base_url_required"},
		{"ErrBaseURLScheme", func(s *api.MessagingSettings) { s.Gateway.BaseURL = "ftp://gw.example" }, "gateway.base_url", "parentmsg.gateway.base_url"},
		{"ErrBaseURLNoHost", func(s *api.MessagingSettings) { s.Gateway.BaseURL = "https://" }, "gateway.base_url", "parentmsg.gateway.base_url"},
		{"ErrBaseURLCredentials", func(s *api.MessagingSettings) { s.Gateway.BaseURL = "https://user:pw@gw.example" }, "gateway.base_url", "parentmsg.gateway.base_url"},
		{"ErrTokenMissing", func(s *api.MessagingSettings) { s.Gateway.Token = apiStr("") }, "gateway.token", "parentmsg.gateway.token_required"},
		{"ErrTokenWablasMissing", func(s *api.MessagingSettings) { s.Gateway.Kind, s.Gateway.Token = api.GatewayWablas, apiStr("") }, "gateway.token", "parentmsg.gateway.token_required"},
		{"ErrTokenSpaces", func(s *api.MessagingSettings) { s.Gateway.Token = apiStr("ab cd") }, "gateway.token", "parentmsg.gateway.token_spaces"},
		{"ErrGowaPasswordOnly", func(s *api.MessagingSettings) {
			s.Gateway.Kind, s.Gateway.Password = api.GatewayGowa, apiStr("x")
		}, "gateway.username", "parentmsg.gateway.login_pair"},
		{"ErrGowaUsernameOnly", func(s *api.MessagingSettings) {
			s.Gateway.Kind, s.Gateway.Username = api.GatewayGowa, "admin"
		}, "gateway.password", "parentmsg.gateway.login_pair"},
		{"ErrWebhookBodyMissing", func(s *api.MessagingSettings) { s.Gateway.Kind = api.GatewayWebhook }, "gateway.webhook_body", "parentmsg.gateway.webhook_body_required"},
		{"ErrWebhookBodyJSON", func(s *api.MessagingSettings) {
			s.Gateway.Kind, s.Gateway.WebhookBody = api.GatewayWebhook, `{"to": {phone}}`
		}, "gateway.webhook_body", "parentmsg.gateway.webhook_body_json"},
		{"ErrTimeoutHigh", func(s *api.MessagingSettings) { s.Gateway.TimeoutSeconds = 61 }, "gateway.timeout_seconds", "parentmsg.gateway.timeout"},
		{"ErrTimeoutNegative", func(s *api.MessagingSettings) { s.Gateway.TimeoutSeconds = -1 }, "gateway.timeout_seconds", "parentmsg.gateway.timeout"},
		{"ErrTemplateRequired", func(s *api.MessagingSettings) { s.Events.Violation.Template = "  " }, "events.violation.template", "parentmsg.template.required"},
		{"ErrTemplateLong", func(s *api.MessagingSettings) { s.Events.WarningLetter.Template = long }, "events.warning_letter.template", "parentmsg.field.too_long"},
		{"ErrTemplateUnknown", func(s *api.MessagingSettings) { s.Events.Summons.Template = "Halo {nama_siswa} {jam}" }, "events.summons.template", "parentmsg.template.unknown"},
		{"ErrMinPointsHigh", func(s *api.MessagingSettings) { s.Events.Violation.MinPoints = 1001 }, "events.violation.min_points", "parentmsg.min_points"},
		{"ErrMinPointsNegative", func(s *api.MessagingSettings) { s.Events.Violation.MinPoints = -1 }, "events.violation.min_points", "parentmsg.min_points"},
		{"ErrQuietFrom", func(s *api.MessagingSettings) { s.QuietHours = &api.QuietHours{From: "25:00", To: "06:00"} }, "quiet_hours.from", "parentmsg.quiet_hours.format"},
		{"ErrQuietTo", func(s *api.MessagingSettings) { s.QuietHours = &api.QuietHours{From: "21:00", To: "6"} }, "quiet_hours.to", "parentmsg.quiet_hours.format"},
		{"ErrQuietEqual", func(s *api.MessagingSettings) { s.QuietHours = &api.QuietHours{From: "21:00", To: "21:00"} }, "quiet_hours.to", "parentmsg.quiet_hours.equal"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := apiFonnte("http://gateway.example")
			c.edit(&in)
			e := admin.Do("PUT", "/api/v1/settings/messaging", in).Want(http.StatusUnprocessableEntity).Err()
			if got := e.Error.FieldCodes[c.field].Code; got != c.code {
				t.Fatalf("field %s: %q, want %q (%+v)", c.field, got, c.code, e.Error.FieldCodes)
			}
			if e.Error.Fields[c.field] == "" {
				t.Fatalf("no text for %s", c.field)
			}
		})
	}
	t.Run("ErrUnknownNamed", func(t *testing.T) {
		in := apiFonnte("http://gateway.example")
		in.Events.Summons.Template = "Halo {nama_siswa} {jam} {jam} {ruang}"
		e := admin.Do("PUT", "/api/v1/settings/messaging", in).Want(http.StatusUnprocessableEntity).Err()
		if got := e.Error.FieldCodes["events.summons.template"].Params["names"]; got != "{jam}, {ruang}" {
			t.Fatalf("names %v", got)
		}
	})
	t.Run("OKBaseURLQuery", func(t *testing.T) {
		// go-whatsapp-web-multidevice chooses an account by ?device_id=.
		in := apiFonnte("http://wa.sekolah.local:3000/?device_id=sekolah")
		in.Gateway.Kind = api.GatewayGowa
		var out api.MessagingSettings
		admin.Do("PUT", "/api/v1/settings/messaging", in).Want(http.StatusOK).JSON(&out)
		if out.Gateway.BaseURL != "http://wa.sekolah.local:3000/?device_id=sekolah" {
			t.Fatalf("base url %q", out.Gateway.BaseURL)
		}
	})
	t.Run("OKPartialPutKeepsEventsAndQuietHours", func(t *testing.T) {
		in := apiFonnte("http://gateway.example")
		in.Events.Violation.MinPoints, in.QuietHours = 7, &api.QuietHours{From: "20:00", To: "05:30"}
		admin.Do("PUT", "/api/v1/settings/messaging", in).Want(http.StatusOK)
		var out api.MessagingSettings
		admin.Do("PUT", "/api/v1/settings/messaging", map[string]any{"gateway": map[string]any{"kind": "fonnte", "base_url": "http://other.example"}}).
			Want(http.StatusOK).JSON(&out)
		if out.Gateway.BaseURL != "http://other.example" || !out.Gateway.TokenSet || out.Events.Violation.MinPoints != 7 ||
			out.QuietHours == nil || out.QuietHours.From != "20:00" {
			t.Fatalf("%+v", out)
		}
		// null is "no quiet hours".
		admin.Do("PUT", "/api/v1/settings/messaging", map[string]any{"gateway": map[string]any{"kind": "fonnte", "base_url": "http://other.example"},
			"quiet_hours": nil}).Want(http.StatusOK).JSON(&out)
		if out.QuietHours != nil || out.Events.Violation.MinPoints != 7 {
			t.Fatalf("%+v", out)
		}
	})
	t.Run("ErrWrongType", func(t *testing.T) {
		e := admin.Do("PUT", "/api/v1/settings/messaging", []byte(`{"gateway": {"timeout_seconds": "lama"}}`)).Want(http.StatusBadRequest).Err()
		if _, ok := e.Error.FieldCodes["gateway.timeout_seconds"]; !ok {
			t.Fatalf("%+v", e.Error)
		}
	})
	t.Run("OKDisabledEmptyTemplate", func(t *testing.T) {
		in := apiFonnte("http://gateway.example")
		in.Events.Summons = api.MessagingEvent{Enabled: false}
		admin.Do("PUT", "/api/v1/settings/messaging", in).Want(http.StatusOK)
	})
	t.Run("NothingStoredOnError", func(t *testing.T) {
		before, err := parentmsg.Load(t.Context(), env.DB)
		if err != nil {
			t.Fatal(err)
		}
		in := apiFonnte("http://other.example")
		in.QuietHours = &api.QuietHours{From: "x", To: "y"}
		admin.Do("PUT", "/api/v1/settings/messaging", in).Want(http.StatusUnprocessableEntity)
		after, err := parentmsg.Load(t.Context(), env.DB)
		if err != nil {
			t.Fatal(err)
		}
		if after.Gateway.BaseURL != before.Gateway.BaseURL {
			t.Fatalf("stored %q", after.Gateway.BaseURL)
		}
	})
}

// apiFakeFonnte is a gateway that answers like Fonnte and records what it
// got.
type apiFakeFonnte struct {
	mu     sync.Mutex
	auth   []string
	forms  []url.Values
	answer string
}

func (f *apiFakeFonnte) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	form, _ := url.ParseQuery(string(b))
	f.mu.Lock()
	f.auth = append(f.auth, r.Header.Get("Authorization"))
	f.forms = append(f.forms, form)
	answer := f.answer
	f.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	_, _ = io.WriteString(w, answer)
}

func TestSendTest(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	admin := env.As(perm.Admin)
	fake := &apiFakeFonnte{answer: `{"detail":"success! message in queue","id":["80833170"],"process":"pending","status":true,"target":["6281234567890"]}`}
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)

	t.Run("ErrNoGateway", func(t *testing.T) {
		e := admin.Do("POST", "/api/v1/settings/messaging/test", map[string]string{"phone": "0812-3456-7890"}).Want(http.StatusUnprocessableEntity).Err()
		if e.Error.MessageCode != "parentmsg.test.no_gateway" {
			t.Fatalf("%+v", e.Error)
		}
	})
	admin.Do("PUT", "/api/v1/settings/messaging", apiFonnte(srv.URL)).Want(http.StatusOK)

	t.Run("ErrPhone", func(t *testing.T) {
		for phone, code := range map[string]string{"": "parentmsg.phone.missing", "0812": "parentmsg.phone.invalid", "021-5551234": "parentmsg.phone.not_mobile"} {
			e := admin.Do("POST", "/api/v1/settings/messaging/test", map[string]string{"phone": phone}).Want(http.StatusUnprocessableEntity).Err()
			if e.Error.FieldCodes["phone"].Code != code {
				t.Fatalf("%q: %+v", phone, e.Error.FieldCodes)
			}
		}
	})

	t.Run("OKSent", func(t *testing.T) {
		var out api.MessagingTestResult
		res := admin.Do("POST", "/api/v1/settings/messaging/test", map[string]string{"phone": "0812-3456-7890"}, "Accept-Language", "en").Want(http.StatusOK)
		apiNoSecret(t, "test", res.Body, apiSecret)
		res.JSON(&out)
		if out.Outcome != api.OutcomeSent || out.Phone != "6281234567890" || out.HTTPStatus != 200 || out.MessageID != "80833170" ||
			!strings.Contains(out.Answer, "message in queue") || out.Summary != "The gateway accepted the message for sending." {
			t.Fatalf("%+v", out)
		}
		fake.mu.Lock()
		defer fake.mu.Unlock()
		last := fake.forms[len(fake.forms)-1]
		if fake.auth[len(fake.auth)-1] != apiSecret || last.Get("target") != "6281234567890" || !strings.HasPrefix(last.Get("message"), "Pesan uji dari Tatib:") {
			t.Fatalf("gateway got %q %v", fake.auth, last)
		}
	})

	t.Run("OKRefusalIs200", func(t *testing.T) {
		fake.mu.Lock()
		fake.answer = `{"reason":"invalid token","status":false}`
		fake.mu.Unlock()
		var out api.MessagingTestResult
		admin.Do("POST", "/api/v1/settings/messaging/test", map[string]string{"phone": "081234567890", "message": "Halo"}).Want(http.StatusOK).JSON(&out)
		if out.Outcome != api.OutcomePermanent || out.Answer != `{"reason":"invalid token","status":false}` || out.Summary == "" {
			t.Fatalf("%+v", out)
		}
		fake.mu.Lock()
		defer fake.mu.Unlock()
		if got := fake.forms[len(fake.forms)-1].Get("message"); got != "Halo" {
			t.Fatalf("message %q", got)
		}
	})

	t.Run("OKUnreachable", func(t *testing.T) {
		// The form's gateway is tried; its absent token is the stored one.
		in := map[string]any{"phone": "081234567890", "gateway": map[string]any{"kind": "fonnte", "base_url": "http://127.0.0.1:1", "timeout_seconds": 2}}
		var out api.MessagingTestResult
		admin.Do("POST", "/api/v1/settings/messaging/test", in).Want(http.StatusOK).JSON(&out)
		if out.Outcome != api.OutcomeTemporary || out.HTTPStatus != 0 || out.Answer == "" {
			t.Fatalf("%+v", out)
		}
	})

	t.Run("ErrFormGateway", func(t *testing.T) {
		in := map[string]any{"phone": "081234567890", "gateway": map[string]any{"kind": "fonnte", "base_url": "nope", "timeout_seconds": 2}}
		e := admin.Do("POST", "/api/v1/settings/messaging/test", in).Want(http.StatusUnprocessableEntity).Err()
		if e.Error.FieldCodes["gateway.base_url"].Code != "parentmsg.gateway.base_url" {
			t.Fatalf("%+v", e.Error.FieldCodes)
		}
	})

	t.Run("Audited", func(t *testing.T) {
		var details []string
		if err := env.DB.Select(&details, `SELECT details::text FROM audit_log WHERE action = 'settings.messaging.test' ORDER BY id`); err != nil {
			t.Fatal(err)
		}
		if len(details) != 3 {
			t.Fatalf("%d entries", len(details))
		}
		for _, d := range details {
			apiNoSecret(t, "audit", []byte(d), apiSecret, "6281234567890")
		}
	})

	t.Run("OKWasim", func(t *testing.T) {
		sim := wasim.New(wasim.Wablas)
		sim.Token = "wablas-token"
		base := sim.Start()
		t.Cleanup(sim.Close)
		in := map[string]any{"phone": "0812-1111-2222", "gateway": map[string]any{"kind": "wablas", "base_url": base, "token": "wablas-token"}}
		var out api.MessagingTestResult
		admin.Do("POST", "/api/v1/settings/messaging/test", in).Want(http.StatusOK).JSON(&out)
		msgs := sim.Messages()
		if out.Outcome != api.OutcomeSent || len(msgs) != 1 || msgs[0].Phone != "6281211112222" {
			t.Fatalf("%+v %+v", out, msgs)
		}
		if err := sim.SetMode(wasim.Mode{Mode: wasim.ModeNotOnWhatsApp}); err != nil {
			t.Fatal(err)
		}
		admin.Do("POST", "/api/v1/settings/messaging/test", in).Want(http.StatusOK).JSON(&out)
		if out.Outcome != api.OutcomePermanent {
			t.Fatalf("%+v", out)
		}
		var raw map[string]any
		if err := json.Unmarshal([]byte(out.Answer), &raw); err != nil {
			t.Fatalf("answer is not the gateway's body: %q", out.Answer)
		}
	})
}
