package notify

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"github.com/tatib/tatib/server/internal/app"
	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/auth"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/server/internal/locale"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

// DesktopOrigins are the origins of the desktop app's page, accepted for
// bearer-token upgrades.
var DesktopOrigins = []string{"wails://wails", "wails://wails.localhost:34115"}

// New returns the process's hub, built from d: one per server, handed to
// Mount (the sockets) and run with the server (Run).
func New(d app.Deps) *Hub {
	return NewHub(d.DB, d.Listen, d.Log, Options{Idle: d.Config.SessionIdle, MaxAge: d.Config.SessionMaxAge})
}

// Run starts the hub's subscription with the server and, when ctx ends,
// closes its sockets (going away: clients reconnect, to another replica
// if any) and returns.
func (h *Hub) Run(ctx context.Context) {
	h.Start()
	<-ctx.Done()
	h.Close()
}

// Handler serves the notification routes and the WebSocket.
type Handler struct {
	store   *Store
	hub     *Hub
	baseURL string
	up      websocket.Upgrader
}

// Mount registers the routes on hub, the process's.
func Mount(r *httpx.Router, d app.Deps, hub *Hub) {
	h := &Handler{store: NewStore(d.DB), hub: hub, baseURL: d.Config.BaseURL, up: websocket.Upgrader{
		ReadBufferSize: 1024, WriteBufferSize: 2048, WriteBufferPool: &sync.Pool{},
		// The origin is checked before the upgrade, knowing how the caller
		// signed in.
		CheckOrigin: func(*http.Request) bool { return true },
	}}
	h.Routes(r)
}

// Routes registers the routes.
func (h *Handler) Routes(r *httpx.Router) {
	r.Get("/notifications", perm.Authenticated, h.list)
	r.Get("/notifications/unread-count", perm.Authenticated, h.unreadCount)
	r.Post("/notifications/read-all", perm.Authenticated, h.readAll)
	r.Post("/notifications/{id}/read", perm.Authenticated, h.read)
	r.HandleHTTP(http.MethodGet, "/ws", perm.Authenticated, httpx.HandlerFunc(h.ws))
}

func (h *Handler) list(w http.ResponseWriter, r *http.Request) error {
	p, err := httpx.PageParams(r)
	if err != nil {
		return err
	}
	rows, total, err := h.store.List(r.Context(), auth.UserFrom(r.Context()).ID, p.Offset(), p.PerPage)
	if err != nil {
		return err
	}
	lang := locale.FromContext(r.Context())
	out := api.Page[api.Notification]{Data: make([]api.Notification, len(rows)), Meta: p.Meta(total)}
	for i, row := range rows {
		out.Data[i] = row.api(lang)
	}
	return httpx.JSON(w, http.StatusOK, out)
}

func (h *Handler) unreadCount(w http.ResponseWriter, r *http.Request) error {
	n, err := h.store.Unread(r.Context(), auth.UserFrom(r.Context()).ID)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, api.UnreadCount{Count: n})
}

func (h *Handler) read(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	row, err := h.store.Read(r.Context(), auth.UserFrom(r.Context()).ID, id)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, row.api(locale.FromContext(r.Context())))
}

func (h *Handler) readAll(w http.ResponseWriter, r *http.Request) error {
	if err := h.store.ReadAll(r.Context(), auth.UserFrom(r.Context()).ID); err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, api.UnreadCount{Count: 0})
}

// originAllowed decides the upgrade's Origin. A cookie is ambient: a page
// of another site could open a socket with it (cross-site WebSocket
// hijacking), so a cookie upgrade must come from this server's own origin.
// A bearer token is not ambient: no Origin (a program) or the desktop
// app's page, or this server's own page.
func (h *Handler) originAllowed(r *http.Request, viaCookie bool) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return !viaCookie
	}
	if !viaCookie {
		for _, o := range DesktopOrigins {
			if origin == o {
				return true
			}
		}
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	if b, err := url.Parse(h.baseURL); err == nil && b.Host != "" && strings.EqualFold(b.Scheme, u.Scheme) && strings.EqualFold(b.Host, u.Host) {
		return true
	}
	return strings.EqualFold(u.Host, r.Host)
}

// ws upgrades to the WebSocket: ?after_id=N catches up on what came after
// N, ?lang=id|en picks the language of the texts (else Accept-Language).
func (h *Handler) ws(w http.ResponseWriter, r *http.Request) error {
	p := auth.From(r.Context())
	if !h.originAllowed(r, p.ViaCookie) {
		return apperr.New(apperr.Forbidden, "notify.ws.cross_site")
	}
	if !websocket.IsWebSocketUpgrade(r) {
		return apperr.New(apperr.Invalid, "notify.ws.upgrade_required")
	}
	after := int64(-1)
	if v := r.URL.Query().Get("after_id"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return apperr.New(apperr.Invalid, "notify.ws.bad_query").WithField("after_id", "notify.ws.after_id")
		}
		after = n
	}
	lang := locale.FromContext(r.Context())
	switch v := r.URL.Query().Get("lang"); v {
	case "":
	case string(locale.ID), string(locale.EN):
		lang = locale.Lang(v)
	default:
		return apperr.New(apperr.Invalid, "notify.ws.bad_query").WithField("lang", "notify.ws.lang")
	}
	conn, err := h.up.Upgrade(w, r, nil)
	if err != nil {
		return nil // the upgrader has answered
	}
	c := newClient(h.hub, conn, p.User.ID, p.TokenHash, lang)
	if !h.hub.add(c) {
		c.end(websocket.CloseGoingAway, "server stopping")
		return nil
	}
	go c.writeLoop()
	// Listening before the catch-up reads: whatever commits later comes
	// live, and what both see is sent once.
	select {
	case <-h.hub.Start():
	case <-time.After(5 * time.Second):
	}
	// The request's context ends with the handler; the socket outlives
	// neither, so it is fine for the catch-up.
	if err := h.catchUp(r.Context(), c, after); err != nil {
		h.hub.log.Warn("notifications: catch-up", "err", err)
		c.end(websocket.CloseInternalServerErr, "")
		return nil
	}
	c.readLoop()
	return nil
}

// catchUp queues what came after afterID (-1: nothing) and the unread
// count, then opens the socket to live rows.
func (h *Handler) catchUp(ctx context.Context, c *client, afterID int64) error {
	var rows []row
	total := 0
	if afterID >= 0 {
		const q = `SELECT count(*) FROM notifications WHERE user_id = $1 AND id > $2`
		if err := h.store.db.GetContext(ctx, &total, q, c.user, afterID); err != nil {
			return fmt.Errorf("notify: catch-up count: %w", err)
		}
		const q2 = `SELECT * FROM (SELECT ` + rowColumns + ` FROM notifications WHERE user_id = $1 AND id > $2
			ORDER BY id DESC LIMIT $3) r ORDER BY id`
		if err := h.store.db.SelectContext(ctx, &rows, q2, c.user, afterID, SummaryAbove+1); err != nil {
			return fmt.Errorf("notify: catch-up: %w", err)
		}
	}
	counts, err := h.hub.unread(ctx, []int64{c.user})
	if err != nil {
		return err
	}
	c.start(newEncoder(), rows, total, counts[c.user])
	return nil
}
