package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
)

// DefaultWebhookBody is sent when the school gave no body template.
const DefaultWebhookBody = `{"phone":"{phone}","message":"{message}"}`

// webhook posts a JSON body built from Config.WebhookBody to BaseURL, for
// any gateway not built in. {phone}, {message} and {student_name} are
// replaced by the JSON-string-escaped values, so they belong inside quotes
// in the template. A token is sent as "Authorization: Bearer <token>",
// else a username as basic auth. Any 2xx is sent; the message id is a
// top-level "id" or "message_id" when the answer has one.
type webhook struct{ *sender }

func (g *webhook) Send(ctx context.Context, m Message) Result {
	return timed(func() Result {
		body := WebhookBody(g.cfg.WebhookBody, m)
		if !json.Valid([]byte(body)) {
			return Result{Outcome: Permanent, Reason: "rejected", Answer: "the webhook body is not valid JSON after filling in the message"}
		}
		a, failed := g.post(ctx, "application/json", []byte(body), func(r *http.Request) {
			switch {
			case g.cfg.Token != "":
				r.Header.Set("Authorization", "Bearer "+g.cfg.Token)
			case g.cfg.Username != "" || g.cfg.Password != "":
				r.SetBasicAuth(g.cfg.Username, g.cfg.Password)
			}
		})
		if failed != nil {
			return *failed
		}
		r := g.result(a)
		if a.status < 200 || a.status > 299 {
			byStatus(&r, a)
			return r
		}
		var ans struct {
			ID        json.RawMessage `json:"id"`
			MessageID json.RawMessage `json:"message_id"`
		}
		_ = json.Unmarshal(a.body, &ans)
		id := idText(ans.ID)
		if id == "" {
			id = idText(ans.MessageID)
		}
		sent(&r, id)
		return r
	})
}

// WebhookBody fills template's placeholders with m's values, each escaped
// as the content of a JSON string. The settings check uses it to prove a
// template stays valid JSON.
func WebhookBody(template string, m Message) string {
	if strings.TrimSpace(template) == "" {
		template = DefaultWebhookBody
	}
	return strings.NewReplacer(
		"{phone}", jsonText(m.Phone),
		"{message}", jsonText(m.Text),
		"{student_name}", jsonText(m.StudentName),
	).Replace(template)
}

// jsonText is s escaped for the inside of a JSON string (no quotes).
func jsonText(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	out := strings.TrimSuffix(b.String(), "\n")
	return out[1 : len(out)-1]
}
