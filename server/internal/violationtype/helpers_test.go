package violationtype_test

import (
	"bytes"
	"context"
	"fmt"
	"mime/multipart"
	"net/http"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/server/internal/violationtype"
	"github.com/tatib/tatib/shared/perm"
)

// newEnv starts the API on a fresh database with the defaults in place (as
// the server's boot leaves it, without the demo types).
func newEnv(t *testing.T) (*apitest.Env, *apitest.Client) {
	t.Helper()
	env := apitest.New(t)
	if err := violationtype.Boot(context.Background(), env.Deps); err != nil {
		t.Fatal(err)
	}
	return env, env.As(perm.BK)
}

type typeList struct {
	Data       []violationtype.Type     `json:"data"`
	Categories []violationtype.Category `json:"categories"`
}

func listTypes(t *testing.T, c *apitest.Client, query string) typeList {
	t.Helper()
	var l typeList
	c.Do("GET", "/api/v1/violation-types"+query, nil).Want(http.StatusOK).JSON(&l)
	return l
}

func typeBySlug(t *testing.T, c *apitest.Client, slug string) violationtype.Type {
	t.Helper()
	for _, ty := range listTypes(t, c, "").Data {
		if ty.Slug == slug {
			return ty
		}
	}
	t.Fatalf("no type with slug %q", slug)
	return violationtype.Type{}
}

func categoryID(t *testing.T, c *apitest.Client, name string) int64 {
	t.Helper()
	var l struct{ Data []violationtype.Category }
	c.Do("GET", "/api/v1/violation-categories", nil).Want(http.StatusOK).JSON(&l)
	for _, cat := range l.Data {
		if cat.Name == name {
			return cat.ID
		}
	}
	t.Fatalf("no category %q", name)
	return 0
}

// xlsx builds a workbook whose first sheet holds rows.
func xlsx(t testing.TB, rows [][]any, edit ...func(f *excelize.File, sheet string)) []byte {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	const sheet = "Sheet1"
	for i, r := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := f.SetSheetRow(sheet, cell, &r); err != nil {
			t.Fatal(err)
		}
	}
	for _, e := range edit {
		e(f, sheet)
	}
	buf, err := f.WriteToBuffer()
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// upload posts data as the multipart field "file".
func upload(t testing.TB, c *apitest.Client, field, filename string, data []byte) *apitest.Response {
	t.Helper()
	return post(t, c, "/api/v1/violation-types/import", field, filename, data)
}

// uploadTo posts data as the file field to path, with extra headers.
func uploadTo(t testing.TB, c *apitest.Client, path string, data []byte, headers ...string) *apitest.Response {
	t.Helper()
	return post(t, c, path, "file", "jenis.xlsx", data, headers...)
}

func post(t testing.TB, c *apitest.Client, path, field, filename string, data []byte, headers ...string) *apitest.Response {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, err := mw.CreateFormFile(field, filename)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	return c.Do("POST", path, &body, append([]string{"Content-Type", mw.FormDataContentType()}, headers...)...)
}

type reason struct {
	Reason       string         `json:"reason"`
	ReasonCode   string         `json:"reason_code"`
	ReasonParams map[string]any `json:"reason_params"`
}

type importResult struct {
	DryRun  bool `json:"dry_run"`
	Created []struct {
		Row         int    `json:"row"`
		ID          int64  `json:"id"`
		Name        string `json:"name"`
		Category    string `json:"category"`
		Points      int    `json:"points"`
		NewCategory bool   `json:"new_category"`
	} `json:"created"`
	Skipped []struct {
		Row  int    `json:"row"`
		Name string `json:"name"`
		reason
	} `json:"skipped"`
	Rejected []struct {
		Row int `json:"row"`
		reason
	} `json:"rejected"`
	CategoriesCreated []string `json:"categories_created"`
	Counts            struct {
		Created, Skipped, Rejected int
	} `json:"counts"`
}

func (r importResult) String() string {
	return fmt.Sprintf("created=%v skipped=%v rejected=%v", r.Created, r.Skipped, r.Rejected)
}
