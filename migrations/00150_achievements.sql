-- +goose Up
-- Positive behaviour (issue 28): achievement categories and types (master
-- data like the violation types'), achievements recorded for one or several
-- students (a team's win), their evidence photos.

CREATE TABLE achievement_categories (
    id         bigserial PRIMARY KEY,
    name       text NOT NULL CHECK (length(name) BETWEEN 1 AND 50),
    sort_order integer NOT NULL DEFAULT 0,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX achievement_categories_name_key ON achievement_categories (lower(name));
INSERT INTO achievement_categories (name, sort_order) VALUES
    ('Akademik', 1), ('Non-akademik', 2), ('Sikap/Karakter', 3), ('Kepemimpinan', 4), ('Lainnya', 5);

-- points_<level>: the points at that level; NULL: the type does not apply
-- at that level. At least one level applies.
CREATE TABLE achievement_types (
    id                    bigserial PRIMARY KEY,
    category_id           bigint NOT NULL REFERENCES achievement_categories(id) ON DELETE RESTRICT,
    name                  text NOT NULL CHECK (length(name) BETWEEN 1 AND 150),
    points_sekolah        integer CHECK (points_sekolah BETWEEN 0 AND 1000),
    points_kabupaten      integer CHECK (points_kabupaten BETWEEN 0 AND 1000),
    points_provinsi       integer CHECK (points_provinsi BETWEEN 0 AND 1000),
    points_nasional       integer CHECK (points_nasional BETWEEN 0 AND 1000),
    points_internasional  integer CHECK (points_internasional BETWEEN 0 AND 1000),
    description           text NOT NULL DEFAULT '' CHECK (length(description) <= 2000),
    active                boolean NOT NULL DEFAULT true,
    created_at            timestamptz NOT NULL DEFAULT now(),
    updated_at            timestamptz NOT NULL DEFAULT now(),
    CHECK (num_nonnulls(points_sekolah, points_kabupaten, points_provinsi, points_nasional, points_internasional) > 0)
);
CREATE UNIQUE INDEX achievement_types_category_name_key ON achievement_types (category_id, lower(name));

-- One achievement per win; its students (one, or a team) in
-- achievement_students. points is the type's at the level, copied when
-- recorded: a later change of the type never rewrites it.
CREATE TABLE achievements (
    id                  bigserial PRIMARY KEY,
    achievement_type_id bigint NOT NULL REFERENCES achievement_types(id) ON DELETE RESTRICT,
    level               text NOT NULL CHECK (level IN ('sekolah', 'kabupaten', 'provinsi', 'nasional', 'internasional')),
    points              integer NOT NULL CHECK (points BETWEEN 0 AND 1000),
    achieved_on         date NOT NULL,
    description         text NOT NULL DEFAULT '' CHECK (length(description) <= 2000),
    recorded_by         bigint REFERENCES users(id) ON DELETE SET NULL,
    recorded_by_name    text NOT NULL DEFAULT '',
    verified_by         bigint REFERENCES users(id) ON DELETE SET NULL,
    verified_at         timestamptz,
    created_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX achievements_achieved_on_idx ON achievements (achieved_on);

CREATE TABLE achievement_students (
    achievement_id bigint NOT NULL REFERENCES achievements(id) ON DELETE CASCADE,
    student_id     bigint NOT NULL REFERENCES students(id) ON DELETE RESTRICT,
    -- the class on the day it was recorded (homeroom scoping reads the
    -- student's class now, as for violations)
    class_id       bigint REFERENCES classes(id) ON DELETE SET NULL,
    class_name     text NOT NULL DEFAULT '',
    PRIMARY KEY (achievement_id, student_id)
);
CREATE INDEX achievement_students_student_idx ON achievement_students (student_id);

CREATE TABLE achievement_photos (
    id             bigserial PRIMARY KEY,
    achievement_id bigint NOT NULL REFERENCES achievements(id) ON DELETE CASCADE,
    position       smallint NOT NULL DEFAULT 0 CHECK (position BETWEEN 0 AND 4),
    content_type   text NOT NULL CHECK (content_type IN ('image/jpeg', 'image/png')),
    width          integer NOT NULL,
    height         integer NOT NULL,
    image          bytea NOT NULL,
    thumbnail      bytea NOT NULL,
    created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX achievement_photos_achievement_idx ON achievement_photos (achievement_id, position);

-- +goose Down
DROP TABLE achievement_photos;
DROP TABLE achievement_students;
DROP TABLE achievements;
DROP TABLE achievement_types;
DROP TABLE achievement_categories;
