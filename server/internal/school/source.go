package school

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// RequestTimeout bounds one request to the student-affairs system (connect,
// answer and body). Tests shorten it in TestMain.
var RequestTimeout = 30 * time.Second

// StudentsPath is where the deployed student-affairs system serves students.
const StudentsPath = "/api/integration/students"

// fetchPerPage is the page size the sync asks for; Laravel applications
// commonly cap it at 100.
const fetchPerPage = 100

// maxPageBytes bounds one page's body.
const maxPageBytes = 64 << 20

// Kinds of SourceError, shown to the screen and asserted by tests.
const (
	KindBadURL       = "bad_url"
	KindDNS          = "dns"
	KindRefused      = "refused"
	KindTimeout      = "timeout"
	KindTLS          = "tls"
	KindNetwork      = "network"
	KindUnauthorized = "unauthorized" // 401
	KindForbidden    = "forbidden"    // 403
	KindNotFound     = "not_found"    // 404
	KindHTTPStatus   = "http_status"  // other non-2xx
	KindNotJSON      = "not_json"
	KindWrongShape   = "wrong_shape"
	KindNotSet       = "not_configured"
)

// SourceError says exactly what went wrong talking to student affairs.
type SourceError struct {
	Kind    string
	Message string // Indonesian, for people
	Page    int
}

func (e *SourceError) Error() string { return e.Message }

func srcErr(kind, format string, args ...any) *SourceError {
	return &SourceError{Kind: kind, Message: fmt.Sprintf(format, args...)}
}

// source talks to one student-affairs system.
type source struct {
	base   *url.URL
	token  string
	client *http.Client
}

// normalizeBaseURL checks a student-affairs base URL and strips a trailing
// slash or a pasted endpoint path.
func normalizeBaseURL(raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return "", errors.New("URL wajib diisi.")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("URL tidak dapat dibaca: %v.", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", errors.New("URL harus diawali http:// atau https://.")
	}
	if u.Host == "" || u.Hostname() == "" {
		return "", errors.New("URL harus memuat nama host, misalnya https://kesiswaan.sekolah.sch.id.")
	}
	if u.User != nil {
		return "", errors.New("URL tidak boleh memuat nama pengguna atau kata sandi; gunakan token.")
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return "", errors.New("URL dasar tidak boleh memuat ? atau #.")
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return "", errors.New("Nomor port tidak valid.")
		}
	}
	u.Path = strings.TrimSuffix(strings.TrimRight(u.Path, "/"), StudentsPath)
	u.Path = strings.TrimRight(u.Path, "/")
	return u.String(), nil
}

func newSource(baseURL, token string) (*source, error) {
	norm, err := normalizeBaseURL(baseURL)
	if err != nil {
		return nil, &SourceError{Kind: KindBadURL, Message: "URL kesiswaan tidak valid: " + err.Error()}
	}
	u, _ := url.Parse(norm)
	tr := &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: min(10*time.Second, RequestTimeout), KeepAlive: 30 * time.Second}).DialContext,
		TLSHandshakeTimeout:   min(10*time.Second, RequestTimeout),
		ResponseHeaderTimeout: RequestTimeout,
		MaxIdleConnsPerHost:   2,
	}
	return &source{base: u, token: token, client: &http.Client{Timeout: RequestTimeout, Transport: tr}}, nil
}

func (s *source) close() { s.client.CloseIdleConnections() }

// pageURL builds the URL of page n. Paging links the source sends are not
// followed as given: Laravel's APP_URL is often wrong behind a proxy, so
// the next page is asked of the same base URL.
func (s *source) pageURL(page, perPage int) string {
	u := *s.base
	u.Path = strings.TrimRight(u.Path, "/") + StudentsPath
	q := url.Values{}
	q.Set("page", strconv.Itoa(page))
	q.Set("per_page", strconv.Itoa(perPage))
	u.RawQuery = q.Encode()
	return u.String()
}

// sourcePage is one decoded page.
type sourcePage struct {
	Records  []sourceStudent
	Skipped  int
	Current  int
	LastPage int  // 0 when unknown
	Total    int  // -1 when unknown
	HasNext  bool // links.next or next_page_url present
	HasPaged bool // any paging information at all
}

// fetch gets one page.
func (s *source) fetch(ctx context.Context, page, perPage int) (*sourcePage, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.pageURL(page, perPage), nil)
	if err != nil {
		return nil, &SourceError{Kind: KindBadURL, Message: "URL kesiswaan tidak valid: " + err.Error(), Page: page}
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "Tatib/1 (student sync)")
	if s.token != "" {
		req.Header.Set("Authorization", "Bearer "+s.token)
	}
	res, err := s.client.Do(req)
	if err != nil {
		e := classify(err, s.base.Host)
		e.Page = page
		return nil, e
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, maxPageBytes+1))
	if err != nil {
		e := classify(err, s.base.Host)
		e.Page = page
		return nil, e
	}
	if len(body) > maxPageBytes {
		return nil, &SourceError{Kind: KindWrongShape, Message: fmt.Sprintf("Halaman %d lebih besar dari %d MB.", page, maxPageBytes>>20), Page: page}
	}
	if e := statusError(res.StatusCode, body); e != nil {
		e.Page = page
		if page > 1 {
			e.Message = fmt.Sprintf("Halaman %d: %s", page, e.Message)
		}
		return nil, e
	}
	p, e := decodePage(body, res.Header.Get("Content-Type"))
	if e != nil {
		e.Page = page
		if page > 1 {
			e.Message = fmt.Sprintf("Halaman %d: %s", page, e.Message)
		}
		return nil, e
	}
	return p, nil
}

func statusError(code int, body []byte) *SourceError {
	switch {
	case code >= 200 && code < 300:
		return nil
	case code == http.StatusUnauthorized:
		return srcErr(KindUnauthorized, "Token ditolak oleh sistem kesiswaan (HTTP 401). Periksa token yang disimpan.")
	case code == http.StatusForbidden:
		return srcErr(KindForbidden, "Token dikenali tetapi tidak diizinkan mengambil data siswa (HTTP 403).")
	case code == http.StatusNotFound:
		return srcErr(KindNotFound, "Alamat tidak ditemukan (HTTP 404). Tatib memanggil {URL}%s; periksa URL dasar.", StudentsPath)
	default:
		msg := ""
		var m struct {
			Message string `json:"message"`
		}
		if json.Unmarshal(body, &m) == nil && m.Message != "" {
			msg = ": " + truncate(m.Message, 200)
		}
		return srcErr(KindHTTPStatus, "Sistem kesiswaan menjawab HTTP %d%s.", code, msg)
	}
}

// classify turns a transport error into what a person can act on.
func classify(err error, host string) *SourceError {
	var dns *net.DNSError
	var ne net.Error
	var unknownCA x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	var certInvalid x509.CertificateInvalidError
	var verify *tls.CertificateVerificationError
	var recordHeader tls.RecordHeaderError
	switch {
	case errors.As(err, &dns):
		return srcErr(KindDNS, "Nama host %q tidak ditemukan (DNS). Periksa penulisan URL.", dns.Name)
	case errors.Is(err, syscall.ECONNREFUSED):
		return srcErr(KindRefused, "Koneksi ke %s ditolak: tidak ada layanan yang mendengarkan di alamat dan port itu.", host)
	case errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()):
		return srcErr(KindTimeout, "Sistem kesiswaan di %s tidak menjawab dalam %s (batas waktu habis).", host, RequestTimeout)
	case errors.As(err, &unknownCA), errors.As(err, &hostErr), errors.As(err, &certInvalid), errors.As(err, &verify):
		return srcErr(KindTLS, "Sertifikat HTTPS %s tidak dapat dipercaya: %v.", host, err)
	case errors.As(err, &recordHeader):
		return srcErr(KindTLS, "%s tidak berbicara HTTPS; coba http:// bila memang tanpa TLS.", host)
	case errors.Is(err, context.Canceled):
		return srcErr(KindNetwork, "Permintaan ke sistem kesiswaan dibatalkan.")
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return srcErr(KindNetwork, "Koneksi ke %s terputus sebelum jawaban lengkap diterima.", host)
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return srcErr(KindNetwork, "Host %s tidak dapat dijangkau dari server Tatib.", host)
	default:
		return srcErr(KindNetwork, "Tidak dapat menghubungi %s: %v.", host, err)
	}
}

// decodePage reads a page leniently: {"data":[...]} with Laravel paging as
// meta.current_page/last_page/total and links.next, or the plain paginator's
// top-level current_page/last_page/total/next_page_url; extra and missing
// fields are fine.
func decodePage(body []byte, contentType string) (*sourcePage, *SourceError) {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		return nil, srcErr(KindNotJSON, "Jawaban kosong; diharapkan JSON.")
	}
	if trimmed[0] == '<' {
		return nil, srcErr(KindNotJSON, "Jawaban berupa HTML (Content-Type %q), bukan JSON: apakah URL mengarah ke halaman login atau situs web, bukan API kesiswaan? Awal jawaban: %q.",
			contentType, truncate(string(trimmed), 80))
	}
	var top any
	if err := json.Unmarshal(trimmed, &top); err != nil {
		var syn *json.SyntaxError
		if errors.As(err, &syn) {
			return nil, srcErr(KindNotJSON, "Jawaban bukan JSON yang valid (rusak pada byte %d): %v.", syn.Offset, err)
		}
		return nil, srcErr(KindNotJSON, "Jawaban bukan JSON yang valid (terpotong?): %v.", err)
	}
	obj, ok := top.(map[string]any)
	if !ok {
		return nil, srcErr(KindWrongShape, "Bentuk jawaban tidak sesuai: diharapkan objek JSON dengan larik \"data\", diterima %s.", jsonKind(top))
	}
	rawData, ok := obj["data"]
	if !ok {
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		return nil, srcErr(KindWrongShape, "Bentuk jawaban tidak sesuai: tidak ada larik \"data\" (kunci yang ada: %s).", strings.Join(limitStrings(keys, 8), ", "))
	}
	items, ok := rawData.([]any)
	if !ok {
		return nil, srcErr(KindWrongShape, "Bentuk jawaban tidak sesuai: \"data\" berupa %s, bukan larik.", jsonKind(rawData))
	}
	p := &sourcePage{Total: -1}
	for _, it := range items {
		m, ok := it.(map[string]any)
		if !ok {
			return nil, srcErr(KindWrongShape, "Bentuk jawaban tidak sesuai: isi \"data\" berupa %s, bukan objek siswa.", jsonKind(it))
		}
		st := studentFromMap(m)
		if st.ID <= 0 || st.FullName == "" {
			p.Skipped++
			continue
		}
		p.Records = append(p.Records, st)
	}
	meta, _ := obj["meta"].(map[string]any)
	if meta == nil {
		meta = obj // the plain paginator puts paging at the top level
	}
	if n, ok := asInt(meta["current_page"]); ok {
		p.Current, p.HasPaged = int(n), true
	}
	if n, ok := asInt(meta["last_page"]); ok {
		p.LastPage, p.HasPaged = int(n), true
	}
	if n, ok := asInt(meta["total"]); ok {
		p.Total = int(n)
	}
	if links, ok := obj["links"].(map[string]any); ok {
		if _, present := links["next"]; present {
			p.HasPaged = true
			p.HasNext = asString(links["next"]) != ""
		}
	}
	if v, present := obj["next_page_url"]; present {
		p.HasPaged = true
		p.HasNext = p.HasNext || asString(v) != ""
	}
	return p, nil
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case []any:
		return "larik"
	case map[string]any:
		return "objek"
	case string:
		return "teks"
	case float64:
		return "angka"
	case bool:
		return "boolean"
	}
	return "nilai lain"
}

func limitStrings(s []string, n int) []string {
	if len(s) > n {
		return append(s[:n:n], "…")
	}
	return s
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// asString reads a JSON scalar as text; objects, arrays and null give "".
func asString(v any) string {
	switch x := v.(type) {
	case string:
		return strings.TrimSpace(x)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		if x {
			return "1"
		}
		return "0"
	}
	return ""
}

// asInt reads a number or a numeric string.
func asInt(v any) (int64, bool) {
	switch x := v.(type) {
	case float64:
		if x == float64(int64(x)) {
			return int64(x), true
		}
	case string:
		n, err := strconv.ParseInt(strings.TrimSpace(x), 10, 64)
		return n, err == nil
	}
	return 0, false
}
