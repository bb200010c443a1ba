// Package migrations holds Tatib's SQL migrations, embedded so the server
// binary carries them. Files are applied in order by pressly/goose v3.
package migrations

import "embed"

// FS holds every NNNNN_name.sql file of this folder.
//
//go:embed *.sql
var FS embed.FS
