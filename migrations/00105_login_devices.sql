-- +goose Up
-- Devices that signed in successfully before (OWASP's "device cookie"): a
-- browser holds the token in an HttpOnly cookie, the desktop app in its
-- settings. Failures sent with a device's token count against that device
-- only, so failures from elsewhere never lock its owner out. See README,
-- "Sign-in throttling".
CREATE TABLE login_devices (
    id           bigserial PRIMARY KEY,
    user_id      bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    token_hash   bytea NOT NULL UNIQUE,
    created_at   timestamptz NOT NULL DEFAULT now(),
    last_used_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX login_devices_user_idx ON login_devices (user_id, last_used_at);

ALTER TABLE login_failures ADD COLUMN device_id bigint REFERENCES login_devices(id) ON DELETE CASCADE;
CREATE INDEX login_failures_device_idx ON login_failures (device_id, at) WHERE device_id IS NOT NULL;

-- +goose Down
ALTER TABLE login_failures DROP COLUMN device_id;
DROP TABLE login_devices;
