package match

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"sync"

	"github.com/jmoiron/sqlx"
)

// stateQuery reads the index version and, as a capacity hint, how many
// embeddings there are, in one statement (one snapshot).
const stateQuery = `SELECT (SELECT version FROM face_index_state), (SELECT count(*) FROM face_embeddings)`

// versionQuery is the one tiny query Cache.Get runs on every call.
const versionQuery = `SELECT version FROM face_index_state`

// rowsQuery streams every active student's embeddings, grouped the way the
// index keeps them. The sort moves only TOAST pointers, not the vectors.
const rowsQuery = `
SELECT e.student_id, e.model, e.dim, e.vec
FROM face_embeddings e
JOIN students s ON s.id = e.student_id
WHERE s.active
ORDER BY e.model, e.dim, e.student_id, e.id`

// Load reads the whole index: the version first, then the rows. Reading
// the version first means a change committed in between gives an index
// newer than its version says, so the next Cache.Get reloads once more —
// never an index older than its version. Pass the pool, not a transaction
// that has written embeddings: an index must only hold committed rows.
func Load(ctx context.Context, db sqlx.QueryerContext) (*Index, error) {
	var version, count int64
	if err := db.QueryRowxContext(ctx, stateQuery).Scan(&version, &count); err != nil {
		return nil, fmt.Errorf("face index state: %w", err)
	}
	rows, err := db.QueryContext(ctx, rowsQuery)
	if err != nil {
		return nil, fmt.Errorf("face index: %w", err)
	}
	defer rows.Close()

	b := newBuilder(version)
	var (
		seen      int64 // rows read so far, for the next group's capacity
		studentID int64
		model     sql.RawBytes
		dim       int
		vec       sql.RawBytes
	)
	for rows.Next() {
		if err := rows.Scan(&studentID, &model, &dim, &vec); err != nil {
			return nil, fmt.Errorf("face index row: %w", err)
		}
		seen++
		if dim < MinDim || dim > MaxDim || len(vec) != 4*dim {
			continue // the table's CHECKs forbid it; never trust a row blindly
		}
		b.add(studentID, model, dim, int(max(count-seen+1, 1)), func(dst []float32) { decodeInto(dst, vec) })
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("face index rows: %w", err)
	}
	return b.done(), nil
}

// builder assembles an Index from rows sorted by model, dim, student.
type builder struct {
	ix       *Index
	cur      *group
	curModel string
}

func newBuilder(version int64) *builder {
	return &builder{ix: &Index{version: version, models: map[string][]*group{}}}
}

// add appends one sample: fill writes its dim raw values, which are then
// normalised in place; a zero or non-finite sample is dropped. capHint is
// how many samples may still come, to size a new group's slice once.
func (b *builder) add(studentID int64, model []byte, dim, capHint int, fill func(dst []float32)) {
	if b.cur == nil || b.cur.dim != dim || string(model) != b.curModel {
		b.finish()
		b.curModel = string(model)
		b.cur = &group{dim: dim, vecs: make([]float32, 0, max(capHint, 1)*dim)}
	}
	g := b.cur
	start := len(g.vecs)
	g.vecs = append(g.vecs, make([]float32, dim)...)
	v := g.vecs[start:]
	fill(v)
	if !normalizeInto(v, v) {
		g.vecs = g.vecs[:start] // cannot match anything
		return
	}
	if k := len(g.students); k == 0 || g.students[k-1] != studentID {
		g.students = append(g.students, studentID)
		g.off = append(g.off, int32(start/dim))
	}
}

func (b *builder) finish() {
	g := b.cur
	b.cur = nil
	if g == nil || len(g.students) == 0 {
		return
	}
	g.off = append(g.off, int32(len(g.vecs)/g.dim))
	if cap(g.vecs) > len(g.vecs)+len(g.vecs)/4 {
		g.vecs = slices.Clone(g.vecs) // the capacity hint was generous (several models)
	}
	if len(b.ix.models[b.curModel]) == 0 {
		b.ix.names = append(b.ix.names, b.curModel)
	}
	b.ix.models[b.curModel] = append(b.ix.models[b.curModel], g)
}

func (b *builder) done() *Index {
	b.finish()
	slices.Sort(b.ix.names)
	return b.ix
}

// Cache holds the current Index and reloads it when face_index_state's
// version moves. Safe for concurrent use; the zero value is not — use
// NewCache.
type Cache struct {
	mu       sync.Mutex
	cur      *Index
	curTick  uint64 // the ticket of the load that made cur
	inflight *loadCall
	ticket   uint64 // counts loads started, to know which began after a caller's version read
	loads    uint64 // loads completed, for tests
}

type loadCall struct {
	ticket uint64
	done   chan struct{}
	ix     *Index
	err    error
}

// NewCache returns an empty cache; the first Get loads.
func NewCache() *Cache { return &Cache{} }

// Get returns the current index: it reads face_index_state.version (one
// tiny query) and reloads the whole index only when it differs from the
// cached one's; concurrent callers share one reload. Pass the pool, not a
// transaction that has written embeddings (see Load).
func (c *Cache) Get(ctx context.Context, db sqlx.QueryerContext) (*Index, error) {
	var v int64
	if err := db.QueryRowxContext(ctx, versionQuery).Scan(&v); err != nil {
		return nil, fmt.Errorf("face index version: %w", err)
	}
	c.mu.Lock()
	after := c.ticket // a load with a later ticket read the version after we did
	for {
		if c.cur != nil && (c.cur.version == v || c.curTick > after) {
			ix := c.cur
			c.mu.Unlock()
			return ix, nil
		}
		if call := c.inflight; call != nil {
			c.mu.Unlock()
			select {
			case <-call.done:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			if call.err == nil && (call.ix.version == v || call.ticket > after) {
				return call.ix, nil
			}
			if call.err != nil && ctx.Err() != nil {
				return nil, call.err
			}
			c.mu.Lock()
			continue // the shared load failed (its caller gave up) or began too early: try again
		}
		c.ticket++
		call := &loadCall{ticket: c.ticket, done: make(chan struct{})}
		c.inflight = call
		c.mu.Unlock()

		call.ix, call.err = Load(ctx, db)

		c.mu.Lock()
		c.inflight = nil
		if call.err == nil {
			c.loads++
			c.cur, c.curTick = call.ix, call.ticket
		}
		close(call.done)
		c.mu.Unlock()
		return call.ix, call.err
	}
}
