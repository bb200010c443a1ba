package gateway

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
)

// fonnte is api.fonnte.com: POST {base}/send, header "Authorization:
// <token>" (the device token, no "Bearer"), form fields target, message,
// countryCode. It answers HTTP 200 even when it refuses:
//
//	{"detail":"success! message in queue","id":["80833170"],"process":"pending","requestid":3799937,"status":true,"target":["628…"]}
//	{"reason":"invalid token","status":false}
//
// The id elements come as strings or as numbers.
type fonnte struct{ *sender }

type fonnteAnswer struct {
	Status *bool             `json:"status"`
	Reason string            `json:"reason"`
	Detail string            `json:"detail"`
	ID     []json.RawMessage `json:"id"`
}

func (g *fonnte) Send(ctx context.Context, m Message) Result {
	return timed(func() Result {
		form := url.Values{"target": {m.Phone}, "message": {m.Text}, "countryCode": {"62"}}
		a, failed := g.post(ctx, "application/x-www-form-urlencoded", []byte(form.Encode()), func(r *http.Request) {
			r.Header.Set("Authorization", g.cfg.Token)
		})
		if failed != nil {
			return *failed
		}
		r := g.result(a)
		var body fonnteAnswer
		parsed := json.Unmarshal(a.body, &body) == nil && body.Status != nil
		reason := body.Reason
		if reason == "" {
			reason = body.Detail
		}
		if a.status < 200 || a.status > 299 {
			byStatus(&r, a)
			if parsed && !*body.Status && refinable(a.status) {
				byReason(&r, reason)
			}
			return r
		}
		if !parsed {
			badAnswer(&r)
			return r
		}
		if !*body.Status {
			byReason(&r, reason)
			return r
		}
		id := ""
		if len(body.ID) > 0 {
			id = idText(body.ID[0])
		}
		sent(&r, id)
		return r
	})
}
