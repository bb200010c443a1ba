package gateway

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
)

// wablas is Wablas (a regional host such as https://jogja.wablas.com):
// POST {base}/api/send-message, header "Authorization: <token>" or
// "<token>.<secret_key>" (entered as the token), form fields phone,
// message. It answers HTTP 200 with status true or false:
//
//	{"status":true,"message":"Message is pending and waiting to be processed","data":{"messages":[{"id":"5be4…","phone":"628…","message":"…","status":"pending"}]}}
//	{"status":false,"message":"device disconnected, need to scan qr code again"}
//
// With several devices the messages come under data.message, and with
// random=true data is a list; every shape is read for the id.
type wablas struct{ *sender }

type wablasAnswer struct {
	Status  *bool           `json:"status"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
}

type wablasMessage struct {
	ID json.RawMessage `json:"id"`
}

type wablasData struct {
	Messages json.RawMessage `json:"messages"`
	Message  json.RawMessage `json:"message"`
}

func (g *wablas) Send(ctx context.Context, m Message) Result {
	return timed(func() Result {
		form := url.Values{"phone": {m.Phone}, "message": {m.Text}}
		a, failed := g.post(ctx, "application/x-www-form-urlencoded", []byte(form.Encode()), func(r *http.Request) {
			r.Header.Set("Authorization", g.cfg.Token)
		})
		if failed != nil {
			return *failed
		}
		r := g.result(a)
		var body wablasAnswer
		parsed := json.Unmarshal(a.body, &body) == nil && body.Status != nil
		if a.status < 200 || a.status > 299 {
			byStatus(&r, a)
			if parsed && !*body.Status && refinable(a.status) {
				byReason(&r, body.Message)
			}
			return r
		}
		if !parsed {
			badAnswer(&r)
			return r
		}
		if !*body.Status {
			byReason(&r, body.Message)
			return r
		}
		sent(&r, wablasID(body.Data))
		return r
	})
}

// wablasID finds the first message id in any of Wablas' data shapes.
func wablasID(data json.RawMessage) string {
	var list []wablasData
	if json.Unmarshal(data, &list) == nil && len(list) > 0 {
		return wablasID(mustJSON(list[0]))
	}
	var d wablasData
	if json.Unmarshal(data, &d) != nil {
		return ""
	}
	for _, raw := range []json.RawMessage{d.Messages, d.Message} {
		var many []wablasMessage
		if json.Unmarshal(raw, &many) == nil && len(many) > 0 {
			if id := idText(many[0].ID); id != "" {
				return id
			}
		}
		var one wablasMessage
		if json.Unmarshal(raw, &one) == nil {
			if id := idText(one.ID); id != "" {
				return id
			}
		}
	}
	return ""
}

func mustJSON(v wablasData) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}
