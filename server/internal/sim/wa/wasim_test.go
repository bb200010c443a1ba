package wasim_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/tatib/tatib/server/internal/sim/wa"
)

func post(t *testing.T, url, contentType, body string, header map[string]string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", contentType)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Body.Close() })
	return res
}

func decode(t *testing.T, res *http.Response, v any) {
	t.Helper()
	if err := json.NewDecoder(res.Body).Decode(v); err != nil {
		t.Fatal(err)
	}
}

// The control endpoints drive a simulator run as another process: set a
// mode with fail_first, read the messages, reset.
func TestControl(t *testing.T) {
	sim := wasim.New(wasim.Fonnte)
	sim.Token = "T"
	base := sim.Start()
	defer sim.Close()

	res := post(t, base+"/_sim/mode", "application/json", `{"mode":"server_error","fail_first":1}`, nil)
	if res.StatusCode != 200 {
		t.Fatalf("mode: HTTP %d", res.StatusCode)
	}
	form := url.Values{"target": {"6281234567890"}, "message": {"Halo"}}.Encode()
	auth := map[string]string{"Authorization": "T"}
	if res := post(t, base+wasim.FonntePath, "application/x-www-form-urlencoded", form, auth); res.StatusCode != 502 {
		t.Errorf("first send: HTTP %d, want 502", res.StatusCode)
	}
	for range 2 {
		res := post(t, base+wasim.FonntePath, "application/x-www-form-urlencoded", form, auth)
		var body struct {
			Status bool
			ID     []string
		}
		decode(t, res, &body)
		if !body.Status || len(body.ID) != 1 {
			t.Errorf("after the outage: %+v", body)
		}
	}
	// A wrong token gets Fonnte's HTTP 200 refusal and is not recorded.
	res = post(t, base+wasim.FonntePath, "application/x-www-form-urlencoded", form, map[string]string{"Authorization": "x"})
	var refusal struct {
		Status bool
		Reason string
	}
	decode(t, res, &refusal)
	if res.StatusCode != 200 || refusal.Status || refusal.Reason != "invalid token" {
		t.Errorf("wrong token: HTTP %d %+v", res.StatusCode, refusal)
	}

	got, err := http.Get(base + "/_sim/messages")
	if err != nil {
		t.Fatal(err)
	}
	defer got.Body.Close()
	var list struct {
		Messages   []wasim.Message
		Count      int
		Duplicates int
		Requests   int
	}
	decode(t, got, &list)
	if list.Count != 2 || list.Duplicates != 1 || list.Requests != 4 || list.Messages[0].Text != "Halo" || list.Messages[1].Copy != 2 {
		t.Errorf("messages: %+v", list)
	}

	if res := post(t, base+"/_sim/mode", "application/json", `{"mode":"nonsense"}`, nil); res.StatusCode != 400 {
		t.Errorf("unknown mode: HTTP %d", res.StatusCode)
	}
	post(t, base+"/_sim/reset", "application/json", "", nil)
	if len(sim.Messages()) != 0 || sim.Requests() != 0 {
		t.Error("reset kept the messages")
	}
}

// go-whatsapp-web-multidevice checks basic auth and answers its JSON
// shapes; an empty phone is a VALIDATION_ERROR.
func TestGowaShapes(t *testing.T) {
	sim := wasim.New(wasim.Gowa)
	sim.Username, sim.Password = "admin", "pw"
	base := sim.Start()
	defer sim.Close()
	req, _ := http.NewRequest(http.MethodPost, base+wasim.GowaPath, strings.NewReader(`{"phone":"6281234567890@s.whatsapp.net","message":"Halo"}`))
	req.SetBasicAuth("admin", "pw")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var ok struct {
		Code    string
		Results struct {
			MessageID string `json:"message_id"`
		}
	}
	decode(t, res, &ok)
	if ok.Code != "SUCCESS" || ok.Results.MessageID == "" || sim.Messages()[0].Phone != "6281234567890" {
		t.Errorf("send: %+v", ok)
	}
	if res := post(t, base+wasim.GowaPath, "application/json", `{"phone":"628","message":"x"}`, nil); res.StatusCode != 401 {
		t.Errorf("no credentials: HTTP %d", res.StatusCode)
	}
	req, _ = http.NewRequest(http.MethodPost, base+wasim.GowaPath, strings.NewReader(`{"message":"Halo"}`))
	req.SetBasicAuth("admin", "pw")
	res2, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res2.Body.Close()
	var bad struct{ Code string }
	decode(t, res2, &bad)
	if res2.StatusCode != 400 || bad.Code != "VALIDATION_ERROR" {
		t.Errorf("no phone: HTTP %d %+v", res2.StatusCode, bad)
	}
}
