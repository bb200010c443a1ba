-- +goose Up
-- The violation list's default order (newest first) and the export's read
-- the rows in occurred_at order straight from this index: the first page
-- needs no sort of every matching row, and the export streams rows to the
-- spreadsheet while the database is still reading, instead of sorting
-- 100,000 wide rows (on disk, past work_mem) before the first one.
CREATE INDEX violations_occurred_at_idx ON violations (occurred_at DESC, id DESC);
-- The recorder filter ("the journal": recorded_by IS NULL, or one user).
CREATE INDEX violations_recorded_by_idx ON violations (recorded_by, occurred_at DESC);

-- +goose Down
DROP INDEX violations_recorded_by_idx;
DROP INDEX violations_occurred_at_idx;
