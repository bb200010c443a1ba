-- +goose Up
-- Issue 25: kiosk liveness relies on what the kiosk reports, so the server
-- bounds what one kiosk can do (challenges per minute, counted from this
-- index) and raises an alarm on a kiosk that matches different students
-- faster than people can step up to a camera (see docs/face-id.md).
CREATE INDEX face_challenges_kiosk_time_idx ON face_challenges (kiosk_id, issued_at DESC);
CREATE INDEX face_scans_kiosk_matched_idx ON face_scans (kiosk_id, scanned_at DESC) WHERE outcome = 'matched';
ALTER TABLE kiosks
    ADD COLUMN alarm_count integer NOT NULL DEFAULT 0,
    ADD COLUMN alarm_at    timestamptz;

-- +goose Down
ALTER TABLE kiosks DROP COLUMN alarm_at, DROP COLUMN alarm_count;
DROP INDEX face_scans_kiosk_matched_idx;
DROP INDEX face_challenges_kiosk_time_idx;
