package studentsync

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/tatib/tatib/server/internal/locale"
	"github.com/tatib/tatib/server/internal/netguard"
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
	KindNotHTTP      = "not_http"     // something answered, but not HTTP
	KindLocal        = "local"        // loopback, link-local or unspecified address refused
	KindUnauthorized = "unauthorized" // 401
	KindForbidden    = "forbidden"    // 403
	KindNotFound     = "not_found"    // 404
	KindHTTPStatus   = "http_status"  // other non-2xx
	KindNotJSON      = "not_json"
	KindWrongShape   = "wrong_shape"
	KindNotSet       = "not_configured"
)

// SourceError says what went wrong talking to student affairs, in Tatib's
// own words: it never carries text the remote side sent (a body, a key
// name, a banner), only a catalogue message describing what was expected
// and what kind of thing arrived.
type SourceError struct {
	Kind   string
	Msg    Message
	Status int // the HTTP status, when the source answered one
}

func (e *SourceError) Error() string { return e.Msg.Render(locale.ID) }

func srcErr(kind, key string, kv ...any) *SourceError {
	return &SourceError{Kind: kind, Msg: msg(key, kv...)}
}

// onPage marks e as about page n (the message then says which page).
func (e *SourceError) onPage(n int) *SourceError {
	if e.Msg.Params == nil {
		e.Msg.Params = StoredParams{}
	}
	e.Msg.Params["page"] = n
	return e
}

// source talks to one student-affairs system.
type source struct {
	base   *url.URL
	token  string
	client *http.Client
}

// normalizeBaseURL checks a student-affairs base URL and strips a trailing
// slash or a pasted endpoint path. Its error is a catalogue key.
func normalizeBaseURL(raw string) (string, string) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return "", "school.url.required"
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", "school.url.unreadable"
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", "school.url.scheme"
	}
	if u.Host == "" || u.Hostname() == "" {
		return "", "school.url.host"
	}
	if u.User != nil {
		return "", "school.url.userinfo"
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return "", "school.url.query"
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return "", "school.url.port"
		}
	}
	u.Path = strings.TrimSuffix(strings.TrimRight(u.Path, "/"), StudentsPath)
	u.Path = strings.TrimRight(u.Path, "/")
	return u.String(), ""
}

// newSource prepares the connection; unless allowLocal, loopback,
// link-local and unspecified addresses are refused at dial time.
func newSource(baseURL, token string, allowLocal bool) (*source, error) {
	norm, key := normalizeBaseURL(baseURL)
	if key != "" {
		return nil, srcErr(KindBadURL, key)
	}
	u, _ := url.Parse(norm)
	if !allowLocal && netguard.LocalHost(u.Hostname()) {
		return nil, srcErr(KindLocal, "school.source.local_refused", "host", u.Host)
	}
	d := &net.Dialer{Timeout: min(10*time.Second, RequestTimeout), KeepAlive: 30 * time.Second}
	if !allowLocal {
		d.Control = netguard.RefuseLocal
	}
	tr := &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           d.DialContext,
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
		return nil, srcErr(KindBadURL, "school.url.unreadable").onPage(page)
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "Tatib/1 (student sync)")
	if s.token != "" {
		req.Header.Set("Authorization", "Bearer "+s.token)
	}
	res, err := s.client.Do(req)
	if err != nil {
		return nil, classify(err, s.base.Host).onPage(page)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, maxPageBytes+1))
	if err != nil {
		return nil, classify(err, s.base.Host).onPage(page)
	}
	if len(body) > maxPageBytes {
		return nil, srcErr(KindWrongShape, "school.source.too_large", "mb", maxPageBytes>>20).onPage(page)
	}
	if e := statusError(res.StatusCode); e != nil {
		return nil, e.onPage(page)
	}
	p, e := decodePage(body)
	if e != nil {
		return nil, e.onPage(page)
	}
	return p, nil
}

// statusError describes a non-2xx answer by its status alone: the body of
// an error page is the remote side's text and is never repeated.
func statusError(code int) *SourceError {
	var e *SourceError
	switch {
	case code >= 200 && code < 300:
		return nil
	case code == http.StatusUnauthorized:
		e = srcErr(KindUnauthorized, "school.source.unauthorized")
	case code == http.StatusForbidden:
		e = srcErr(KindForbidden, "school.source.forbidden")
	case code == http.StatusNotFound:
		e = srcErr(KindNotFound, "school.source.not_found", "path", StudentsPath)
	case code >= 500:
		e = srcErr(KindHTTPStatus, "school.source.server_error", "status", code)
	default:
		e = srcErr(KindHTTPStatus, "school.source.http_status", "status", code)
	}
	e.Status = code
	return e
}

// classify turns a transport error into what a person can act on. The
// error's own text is never shown: it can quote what the other side sent
// (the banner of an SSH or mail server, a certificate's names).
func classify(err error, host string) *SourceError {
	var dns *net.DNSError
	var ne net.Error
	var unknownCA x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	var certInvalid x509.CertificateInvalidError
	var verify *tls.CertificateVerificationError
	var recordHeader tls.RecordHeaderError
	switch {
	case errors.Is(err, netguard.ErrLocalTarget):
		return srcErr(KindLocal, "school.source.local_refused", "host", host)
	case errors.As(err, &dns):
		return srcErr(KindDNS, "school.source.dns", "host", host)
	case errors.Is(err, syscall.ECONNREFUSED):
		return srcErr(KindRefused, "school.source.refused", "host", host)
	case errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()):
		return srcErr(KindTimeout, "school.source.timeout", "host", host, "seconds", int(RequestTimeout.Round(time.Second)/time.Second))
	case errors.As(err, &unknownCA), errors.As(err, &hostErr), errors.As(err, &certInvalid), errors.As(err, &verify):
		return srcErr(KindTLS, "school.source.tls_untrusted", "host", host)
	case errors.As(err, &recordHeader):
		return srcErr(KindTLS, "school.source.not_https", "host", host)
	case errors.Is(err, context.Canceled):
		return srcErr(KindNetwork, "school.source.canceled")
	case strings.Contains(err.Error(), "malformed HTTP"), strings.Contains(err.Error(), "readLoopPeekFailLocked"):
		// The transport's words for a non-HTTP answer, and for bytes that
		// arrived before any request (a service that greets first: SSH,
		// SMTP); neither error type is exported.
		return srcErr(KindNotHTTP, "school.source.not_http", "host", host)
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return srcErr(KindNetwork, "school.source.reset", "host", host)
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return srcErr(KindNetwork, "school.source.unreachable", "host", host)
	default:
		return srcErr(KindNetwork, "school.source.network", "host", host)
	}
}

// decodePage reads a page leniently: {"data":[...]} with Laravel paging as
// meta.current_page/last_page/total and links.next, or the plain paginator's
// top-level current_page/last_page/total/next_page_url; extra and missing
// fields are fine.
func decodePage(body []byte) (*sourcePage, *SourceError) {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		return nil, srcErr(KindNotJSON, "school.source.empty")
	}
	if trimmed[0] == '<' {
		return nil, srcErr(KindNotJSON, "school.source.html")
	}
	var top any
	if err := json.Unmarshal(trimmed, &top); err != nil {
		return nil, srcErr(KindNotJSON, "school.source.bad_json")
	}
	obj, ok := top.(map[string]any)
	if !ok {
		return nil, srcErr(KindWrongShape, "school.source.wrong_shape", "got", jsonKind(top))
	}
	rawData, ok := obj["data"]
	if !ok {
		return nil, srcErr(KindWrongShape, "school.source.no_data")
	}
	items, ok := rawData.([]any)
	if !ok {
		return nil, srcErr(KindWrongShape, "school.source.data_not_list", "got", jsonKind(rawData))
	}
	p := &sourcePage{Total: -1}
	for _, it := range items {
		m, ok := it.(map[string]any)
		if !ok {
			return nil, srcErr(KindWrongShape, "school.source.item_not_object", "got", jsonKind(it))
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

// jsonKind names the kind of a JSON value, as a catalogue key.
func jsonKind(v any) locale.Key {
	switch v.(type) {
	case nil:
		return "school.json.null"
	case []any:
		return "school.json.array"
	case map[string]any:
		return "school.json.object"
	case string:
		return "school.json.string"
	case float64:
		return "school.json.number"
	case bool:
		return "school.json.boolean"
	}
	return "school.json.other"
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
