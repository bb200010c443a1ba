package school

import (
	"context"

	"github.com/jmoiron/sqlx"
)

// SettingDemo is the demo school's marker key in the settings table, which
// the demo loader reads in SQL.
const SettingDemo = keyDemo

// MarkDemoTx stores v as the demo school's marker setting.
func MarkDemoTx(ctx context.Context, q sqlx.ExecerContext, v any) error {
	return WriteSetting(ctx, q, keyDemo, v, 0)
}
