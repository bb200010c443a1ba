-- +goose Up
-- School data brought in from the student-affairs (kesiswaan) system:
-- departments, classes, students, and the record of every sync run.

-- Trigram indexes make "q" (name, NISN, NIS) fast on a substring search.
-- pg_trgm is a trusted extension (a database owner may create it); where it
-- is missing the search still works, only slower, so its absence is not an
-- error.
-- +goose StatementBegin
DO $$
BEGIN
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
EXCEPTION WHEN OTHERS THEN
    RAISE NOTICE 'pg_trgm unavailable (%): student search uses plain indexes', SQLERRM;
END
$$;
-- +goose StatementEnd

CREATE TABLE departments (
    id         bigserial PRIMARY KEY,
    code       text NOT NULL,
    name       text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX departments_code_key ON departments (code);

CREATE TABLE classes (
    id                  bigserial PRIMARY KEY,
    name                text NOT NULL,
    grade               smallint NOT NULL CHECK (grade IN (10, 11, 12)),
    department_id       bigint REFERENCES departments(id) ON DELETE SET NULL,
    academic_year       text NOT NULL DEFAULT '',
    homeroom_teacher_id bigint REFERENCES users(id) ON DELETE SET NULL,
    -- the student-affairs classroom id, when the source gives one
    source_id           bigint,
    created_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX classes_name_key ON classes (name);
CREATE INDEX classes_source_id_idx ON classes (source_id);
CREATE INDEX classes_department_id_idx ON classes (department_id);
-- One class per homeroom teacher: scoping "their class" must be one class.
CREATE UNIQUE INDEX classes_homeroom_teacher_key ON classes (homeroom_teacher_id) WHERE homeroom_teacher_id IS NOT NULL;

CREATE TABLE students (
    id             bigserial PRIMARY KEY,
    -- the student-affairs id (what the journal sends as source_student_id)
    source_id      bigint NOT NULL,
    nisn           text NOT NULL DEFAULT '',
    nis            text NOT NULL DEFAULT '',
    full_name      text NOT NULL,
    gender         text NOT NULL DEFAULT '' CHECK (gender IN ('L', 'P', '')),
    place_of_birth text NOT NULL DEFAULT '',
    date_of_birth  date,
    address        text NOT NULL DEFAULT '',
    phone          text NOT NULL DEFAULT '',
    email          text NOT NULL DEFAULT '',
    class_id       bigint REFERENCES classes(id) ON DELETE SET NULL,
    parent_name    text NOT NULL DEFAULT '',
    parent_phone   text NOT NULL DEFAULT '',
    photo_path     text NOT NULL DEFAULT '',
    active         boolean NOT NULL DEFAULT true,
    synced_at      timestamptz,
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX students_source_id_key ON students (source_id);
CREATE INDEX students_class_id_idx ON students (class_id);
CREATE INDEX students_nisn_idx ON students (nisn) WHERE nisn <> '';
CREATE INDEX students_nis_idx ON students (nis) WHERE nis <> '';
CREATE INDEX students_name_idx ON students (lower(full_name), id);

-- +goose StatementBegin
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
        EXECUTE 'CREATE INDEX students_name_trgm_idx ON students USING gin (lower(full_name) gin_trgm_ops)';
        EXECUTE 'CREATE INDEX students_nisn_trgm_idx ON students USING gin (nisn gin_trgm_ops)';
        EXECUTE 'CREATE INDEX students_nis_trgm_idx ON students USING gin (lower(nis) gin_trgm_ops)';
    END IF;
END
$$;
-- +goose StatementEnd

-- One row per sync run. The partial unique index lets only one run be
-- 'running' at a time across every replica; a run whose heartbeat stopped
-- (its server died) is marked failed by the next start.
CREATE TABLE student_syncs (
    id          bigserial PRIMARY KEY,
    status      text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'succeeded', 'failed')),
    trigger     text NOT NULL DEFAULT 'manual' CHECK (trigger IN ('manual', 'schedule', 'demo')),
    phase       text NOT NULL DEFAULT 'fetching',
    actor_id    bigint REFERENCES users(id) ON DELETE SET NULL,
    actor_name  text NOT NULL DEFAULT '',
    started_at  timestamptz NOT NULL DEFAULT now(),
    heartbeat_at timestamptz NOT NULL DEFAULT now(),
    finished_at timestamptz,
    pages_done  int NOT NULL DEFAULT 0,
    pages_total int NOT NULL DEFAULT 0,
    fetched     int NOT NULL DEFAULT 0,
    expected    int NOT NULL DEFAULT 0,
    result      jsonb NOT NULL DEFAULT '{}'::jsonb,
    error       text NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX student_syncs_one_running ON student_syncs ((true)) WHERE status = 'running';
CREATE INDEX student_syncs_started_idx ON student_syncs (started_at DESC);

-- +goose Down
DROP TABLE student_syncs;
DROP TABLE students;
DROP TABLE classes;
DROP TABLE departments;
