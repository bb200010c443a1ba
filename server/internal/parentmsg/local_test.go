package parentmsg_test

import (
	"net/http"
	"os"
	"testing"

	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/shared/perm"
)

// The simulators listen on 127.0.0.1, which a server allows only with
// TATIB_ALLOW_LOCAL_SOURCES (development, the demo, a gateway on the same
// machine); TestLocalGatewayRefused checks production's refusal.
func TestMain(m *testing.M) {
	os.Setenv("TATIB_ALLOW_LOCAL_SOURCES", "1")
	os.Exit(m.Run())
}

// Without TATIB_ALLOW_LOCAL_SOURCES a gateway on the server's own
// addresses is refused at the form, so the test message cannot read the
// server's ports. Not parallel: it changes the environment.
func TestLocalGatewayRefused(t *testing.T) {
	t.Setenv("TATIB_ALLOW_LOCAL_SOURCES", "")
	env := apitest.New(t)
	admin := env.As(perm.Admin)
	for _, base := range []string{"http://127.0.0.1:5432", "http://localhost:8080", "http://[::1]:80", "http://169.254.169.254/latest"} {
		e := admin.Do("PUT", "/api/v1/settings/messaging", apiFonnte(base)).Want(http.StatusUnprocessableEntity).Err()
		if got := e.Error.FieldCodes["gateway.base_url"].Code; got != "parentmsg.gateway.base_url_local" {
			t.Errorf("%s: field code %q, want parentmsg.gateway.base_url_local", base, got)
		}
		e = admin.Do("POST", "/api/v1/settings/messaging/test", map[string]any{"phone": "08123456789",
			"gateway": apiFonnte(base).Gateway}).Want(http.StatusUnprocessableEntity).Err()
		if got := e.Error.FieldCodes["gateway.base_url"].Code; got != "parentmsg.gateway.base_url_local" {
			t.Errorf("%s: test field code %q", base, got)
		}
	}
	admin.Do("PUT", "/api/v1/settings/messaging", apiFonnte("https://api.fonnte.com")).Want(http.StatusOK)
}
