package letter

import (
	"context"
	"fmt"
	"net/http"
	"strconv"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/server/internal/parentmsg"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/shared/api"
)

// Parents hear of a letter when the school sends it: a rule drafting,
// raising, lowering or withdrawing a letter tells them nothing (package
// points). A counselor marks the letter sent to the parent (POST
// /warning-letters/{id}/send), or, when the school's messaging setting says
// so, printing it does; either queues the parent's message once per letter
// and level (parentmsg.LettersTx).

func (h *Handler) send(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	l, err := h.store.Send(r.Context(), scope(r.Context()), h.auth.Actor(r), id)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, l)
}

// Send marks a letter the caller may see sent to the parent at its level
// now and queues the parent's message (when messaging is set up and the
// letter event is on), with a history event and an audit entry. The row is
// locked: two clicks send once, the second is 409 letter.send.already. A
// withdrawn letter or one of an ended year is 409 too.
func (s *Store) Send(ctx context.Context, sc Scope, actor audit.Actor, id int64) (Letter, error) {
	var out Letter
	err := pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		l, err := s.get(ctx, tx, sc, id, ` FOR UPDATE OF wl`)
		if err != nil {
			return err
		}
		switch {
		case l.PastYear:
			return apperr.New(apperr.Conflict, "letter.past_year", "year", l.AcademicYear)
		case l.Status == api.LetterWithdrawn:
			return apperr.New(apperr.Conflict, "letter.send.withdrawn")
		case l.SentLevel != nil && *l.SentLevel == l.Level:
			return apperr.New(apperr.Conflict, "letter.send.already", "name", l.Name)
		}
		if err := markSentTx(ctx, tx, []int64{id}, actor); err != nil {
			return err
		}
		if err := audit.Record(ctx, tx, actor, "warning_letter.send", "warning_letter", strconv.FormatInt(id, 10), map[string]any{
			"student_id": l.StudentID, "student": l.StudentName, "level": l.Level, "levels": l.LevelsCovered, "name": l.Name,
		}); err != nil {
			return err
		}
		out, err = s.get(ctx, tx, sc, id, "")
		return err
	})
	return out, err
}

// markSentTx marks the letters sent to the parent at their level now (a
// "sent" history step) and queues their messages, once per letter and
// level.
func markSentTx(ctx context.Context, tx *sqlx.Tx, ids []int64, actor audit.Actor) error {
	var actorID *int64
	if actor.ID != 0 {
		actorID = &actor.ID
	}
	const q = `WITH w AS (UPDATE warning_letters SET sent_to_parent_at = now(), sent_to_parent_by = $2, sent_level = level, updated_at = now()
		    WHERE id = ANY($1::bigint[]) RETURNING id, level)
		INSERT INTO warning_letter_events (letter_id, status, actor_id, actor_name, level)
		SELECT id, 'sent', $2, $3, level FROM w ORDER BY id`
	if _, err := tx.ExecContext(ctx, q, pq.Array(ids), actorID, actor.Display()); err != nil {
		return fmt.Errorf("letter: mark sent: %w", err)
	}
	return parentmsg.LettersTx(ctx, tx, ids, actor.ID)
}

// afterPrintTx is what printing letters brings with it: when the school
// sends letters on print (the messaging setting), each printed letter not
// yet sent at its level is marked sent and its message queued. Every way of
// printing calls it in its transaction.
func afterPrintTx(ctx context.Context, tx *sqlx.Tx, ids []int64, actor audit.Actor) error {
	set, err := parentmsg.Load(ctx, tx)
	if err != nil {
		return err
	}
	if !set.SendOnPrint() || len(ids) == 0 {
		return nil
	}
	var due []int64
	if err := tx.SelectContext(ctx, &due, `SELECT id FROM warning_letters WHERE id = ANY($1::bigint[])
		AND status <> 'withdrawn' AND sent_level IS DISTINCT FROM level ORDER BY id`, pq.Array(ids)); err != nil {
		return fmt.Errorf("letter: letters to send: %w", err)
	}
	if len(due) == 0 {
		return nil
	}
	return markSentTx(ctx, tx, due, actor)
}
