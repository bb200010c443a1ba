package api_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/tatib/tatib/server/internal/api"
)

// TestOpenAPIGoClient generates a Go client from the document as the server
// serves it with oapi-codegen and builds it. oapi-codegen lives in its own
// module (tools/openapi-client, pinned there, outside go.work) so that the
// server's go.mod does not carry it; the client is written to a temporary
// file laid over that module's client package, nothing in the tree changes.
func TestOpenAPIGoClient(t *testing.T) {
	if testing.Short() {
		t.Skip("builds oapi-codegen and a large client")
	}
	t.Parallel()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	tools, err := filepath.Abs("../../../tools/openapi-client")
	if err != nil {
		t.Fatal(err)
	}
	b, err := api.OpenAPI()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	doc, gen := filepath.Join(dir, "openapi.json"), filepath.Join(dir, "tatib.gen.go")
	if err := os.WriteFile(doc, b, 0o600); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command(goBin, args...)
		cmd.Dir = tools
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=readonly")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %v: %v\n%s", args, err, out)
		}
	}
	run("tool", "oapi-codegen", "-config", "oapi-codegen.yaml", "-o", gen, doc)
	overlay, _ := json.Marshal(map[string]any{"Replace": map[string]string{filepath.Join(tools, "client", "tatib.gen.go"): gen}})
	if err := os.WriteFile(filepath.Join(dir, "overlay.json"), overlay, 0o600); err != nil {
		t.Fatal(err)
	}
	run("build", "-overlay", filepath.Join(dir, "overlay.json"), "./client/")
}
