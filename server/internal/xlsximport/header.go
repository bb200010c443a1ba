package xlsximport

import (
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"

	"github.com/tatib/tatib/server/internal/apperr"
)

// Header maps an import sheet's header row to the import's columns.
type Header struct {
	Aliases map[string]int      // a title's key → column
	Labels  []string            // column → its name in messages
	Key     func(string) string // a title's key
	// Required are groups of columns each of which needs one present; a
	// group's name in a message is its labels joined by "/".
	Required [][]int
	// Message keys, refusals of the field "headers": a column found twice
	// (param "column"; with TwiceCells also "first" and "second", the
	// sheet's column letters), required columns missing (param "columns").
	Twice, Missing string
	TwiceCells     bool
}

// Map answers, for each column, its 0-based sheet column (-1: absent).
// Titles it does not know are ignored (No, catatan, ...).
func (h Header) Map(cells []string) ([]int, error) {
	cols := make([]int, len(h.Labels))
	for i := range cols {
		cols[i] = -1
	}
	for i, c := range cells {
		col, ok := h.Aliases[h.Key(c)]
		if !ok {
			continue
		}
		if cols[col] >= 0 {
			kv := []any{"column", h.Labels[col]}
			if h.TwiceCells {
				kv = append(kv, "first", ColumnLetter(cols[col]), "second", ColumnLetter(i))
			}
			return cols, invalidHeaders(h.Twice, kv...)
		}
		cols[col] = i
	}
	var missing []string
	for _, group := range h.Required {
		var names []string
		found := false
		for _, c := range group {
			found = found || cols[c] >= 0
			names = append(names, h.Labels[c])
		}
		if !found {
			missing = append(missing, strings.Join(names, "/"))
		}
	}
	if len(missing) > 0 {
		return cols, invalidHeaders(h.Missing, "columns", strings.Join(missing, ", "))
	}
	return cols, nil
}

func invalidHeaders(key string, kv ...any) error {
	return apperr.New(apperr.Invalid, key, kv...).WithField("headers", key, kv...)
}

// ColumnLetter is the sheet column letter of 0-based column i ("A" for 0).
func ColumnLetter(i int) string {
	s, err := excelize.ColumnNumberToName(i + 1)
	if err != nil {
		return strconv.Itoa(i + 1)
	}
	return s
}
