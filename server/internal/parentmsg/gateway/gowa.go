package gateway

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
)

// gowa is go-whatsapp-web-multidevice (aldinokemal), self-hosted:
// POST {base}/send/message with HTTP basic auth (when the school's server
// has APP_BASIC_AUTH set) and JSON {"phone":"628…@s.whatsapp.net","message"}.
// Success:
//
//	{"code":"SUCCESS","message":"Message sent to 628…@s.whatsapp.net (server timestamp: …)","results":{"message_id":"3EB0…","status":"…"}}
//
// Errors carry {"code","message","results"}: 400 INVALID_JID (not on
// WhatsApp) or VALIDATION_ERROR, 401 AUTHENTICATION_ERROR (its WhatsApp
// session is not logged in), 429 WA_REACHOUT_TIMELOCK (WhatsApp's anti-spam
// lock on starting new chats), 500 INTERNAL_SERVER_ERROR, 504
// GATEWAY_TIMEOUT. A wrong basic-auth password is a plain-text 401
// "Unauthorized".
type gowa struct{ *sender }

type gowaAnswer struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Results struct {
		MessageID json.RawMessage `json:"message_id"`
	} `json:"results"`
}

func (g *gowa) Send(ctx context.Context, m Message) Result {
	return timed(func() Result {
		body, _ := json.Marshal(map[string]string{"phone": gowaJID(m.Phone), "message": m.Text})
		a, failed := g.post(ctx, "application/json", body, func(r *http.Request) {
			if g.cfg.Username != "" || g.cfg.Password != "" {
				r.SetBasicAuth(g.cfg.Username, g.cfg.Password)
			}
		})
		if failed != nil {
			return *failed
		}
		r := g.result(a)
		var ans gowaAnswer
		parsed := json.Unmarshal(a.body, &ans) == nil && ans.Code != ""
		if a.status >= 200 && a.status <= 299 {
			if !parsed {
				badAnswer(&r)
				return r
			}
			sent(&r, idText(ans.Results.MessageID))
			return r
		}
		byStatus(&r, a)
		switch {
		case !parsed:
		case ans.Code == "INVALID_JID":
			r.Outcome, r.Reason = Permanent, "not_on_whatsapp"
		case ans.Code == "VALIDATION_ERROR" && strings.Contains(strings.ToLower(ans.Message), "phone"):
			r.Outcome, r.Reason = Permanent, "invalid_number"
		case ans.Code == "WA_REACHOUT_TIMELOCK":
			r.Outcome, r.Reason = RateLimited, "rate_limited"
		case ans.Code == "AUTHENTICATION_ERROR":
			// The password was right (basic auth answers in plain text);
			// the WhatsApp session behind it is not logged in.
			r.Outcome, r.Reason = Temporary, "unreachable"
		}
		return r
	})
}

// gowaJID is the recipient as the server's documentation writes it; the
// server also takes bare digits, but the full JID is unambiguous.
func gowaJID(phone string) string {
	if strings.Contains(phone, "@") {
		return phone
	}
	return phone + "@s.whatsapp.net"
}
