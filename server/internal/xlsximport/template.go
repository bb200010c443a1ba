package xlsximport

import (
	"context"
	"fmt"
	"strconv"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/xlsxw"
)

// Template is an import template: the header row and example rows (marked,
// never imported) on the first sheet, instructions on a second, one a row.
type Template struct {
	Sheet     string
	Columns   []xlsxw.Column
	Examples  [][]any
	HelpSheet string
	Help      []string
}

// Build writes the template's workbook.
func (t Template) Build() ([]byte, error) {
	b, err := xlsxw.New()
	if err != nil {
		return nil, err
	}
	defer b.Close()
	sheet, err := b.Sheet(t.Sheet)
	if err != nil {
		return nil, err
	}
	if err := sheet.Header(t.Columns...); err != nil {
		return nil, err
	}
	for _, r := range t.Examples {
		if err := sheet.SetRow(r...); err != nil {
			return nil, err
		}
	}
	help, err := b.Sheet(t.HelpSheet)
	if err != nil {
		return nil, err
	}
	for _, n := range t.Help {
		if err := help.SetRow(n); err != nil {
			return nil, err
		}
	}
	return b.Bytes()
}

// Stored is what an import compares its rows with: the stored categories
// and the (category, name) keys of the stored types, names compared by
// the key function LoadStored was given.
type Stored struct {
	CategoryID   map[string]int64  // name key → id
	CategoryName map[string]string // name key → the stored spelling
	Types        map[string]bool   // TypeKey(category id, name key)
}

// TypeKey is the key of a type: its category and its name's key.
func TypeKey(categoryID int64, nameKey string) string {
	return strconv.FormatInt(categoryID, 10) + "\x00" + nameKey
}

// LoadStored reads the categories (id, name) of the table categories and
// the types (category_id, name) of the table types; key is how names
// compare. Both table names are the caller's constants.
func LoadStored(ctx context.Context, q sqlx.QueryerContext, categories, types string, key func(string) string) (Stored, error) {
	s := Stored{CategoryID: map[string]int64{}, CategoryName: map[string]string{}, Types: map[string]bool{}}
	var cats []struct {
		ID   int64  `db:"id"`
		Name string `db:"name"`
	}
	if err := sqlx.SelectContext(ctx, q, &cats, `SELECT id, name FROM `+categories); err != nil {
		return s, fmt.Errorf("xlsximport: %s: %w", categories, err)
	}
	for _, c := range cats {
		s.CategoryID[key(c.Name)], s.CategoryName[key(c.Name)] = c.ID, c.Name
	}
	var stored []struct {
		CategoryID int64  `db:"category_id"`
		Name       string `db:"name"`
	}
	if err := sqlx.SelectContext(ctx, q, &stored, `SELECT category_id, name FROM `+types); err != nil {
		return s, fmt.Errorf("xlsximport: %s: %w", types, err)
	}
	for _, t := range stored {
		s.Types[TypeKey(t.CategoryID, key(t.Name))] = true
	}
	return s, nil
}
