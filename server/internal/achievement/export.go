package achievement

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/locale"
	"github.com/tatib/tatib/server/internal/schoolday"
	"github.com/tatib/tatib/server/internal/violationtype"
	"github.com/tatib/tatib/server/internal/xlsxw"
)

// MaxExportRows bounds one export (one row per student of an achievement).
const MaxExportRows = 20000

// Export writes the achievements matching f the caller may see as an .xlsx:
// one row per student of each achievement (a team's win gives each member
// a row), in the caller's language.
func (s *Store) Export(ctx context.Context, sc Scope, f Filter, lang locale.Lang) ([]byte, error) {
	f.Limit, f.Offset = MaxExportRows+1, 0
	list, _, err := s.List(ctx, sc, f)
	if err != nil {
		return nil, err
	}
	rows := 0
	for _, a := range list {
		rows += len(a.Students)
	}
	if len(list) > MaxExportRows || rows > MaxExportRows {
		return nil, apperr.New(apperr.Invalid, "achievement.export.too_many", "max", MaxExportRows)
	}
	t := func(key string) string { return locale.Render(lang, key, nil) }
	b, err := xlsxw.New()
	if err != nil {
		return nil, err
	}
	defer b.Close()
	sh, err := b.Sheet(t("achievement.export.sheet"))
	if err != nil {
		return nil, err
	}
	cols := []xlsxw.Column{}
	for _, c := range []struct {
		key string
		w   float64
	}{{"date", 12}, {"student", 28}, {"nisn", 14}, {"class", 12}, {"type", 36}, {"category", 16}, {"level", 14},
		{"points", 8}, {"description", 40}, {"recorded_by", 20}, {"verified_by", 20}} {
		cols = append(cols, xlsxw.Column{Title: t("achievement.export.col." + c.key), Width: c.w})
	}
	if err := sh.Header(cols...); err != nil {
		return nil, err
	}
	for _, a := range list {
		day, err := schoolday.ParseDate(a.AchievedOn)
		if err != nil {
			return nil, err
		}
		for _, st := range a.Students {
			if err := sh.SetRow(day.Time(), st.Name, st.NISN, st.ClassName, a.TypeName, a.CategoryName, levelNames[a.Level], a.Points,
				a.Description, a.RecordedByName, a.VerifiedByName); err != nil {
				return nil, err
			}
		}
	}
	return b.Bytes()
}

func (h *Handler) export(w http.ResponseWriter, r *http.Request) error {
	f, err := filterOf(r)
	if err != nil {
		return err
	}
	b, err := h.store.Export(r.Context(), ScopeOf(r), f, locale.FromContext(r.Context()))
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", violationtype.XLSXContentType)
	w.Header().Set("Content-Disposition", `attachment; filename="prestasi-`+strings.ReplaceAll(schoolday.Of(time.Now()), "-", "")+`.xlsx"`)
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.Header().Set("Cache-Control", "private, no-store")
	_, err = w.Write(b)
	return err
}
