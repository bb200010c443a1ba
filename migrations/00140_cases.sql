-- +goose Up
-- Cases (kasus): one incident with several people in roles, moved through
-- the stages of Permendikdasmen No. 6 Tahun 2026 (docs/cases.md).

-- Case categories: school-editable master data.
CREATE TABLE case_categories (
    id         bigserial PRIMARY KEY,
    name       text NOT NULL,
    active     boolean NOT NULL DEFAULT true,
    sort_order integer NOT NULL DEFAULT 0,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX case_categories_name_key ON case_categories (lower(name));
INSERT INTO case_categories (name, sort_order) VALUES
    ('Perundungan', 10),
    ('Kekerasan fisik', 20),
    ('Kekerasan psikis', 30),
    ('Kekerasan seksual', 40),
    ('Diskriminasi/intoleransi', 50),
    ('Pelanggaran tata tertib lain', 60);

CREATE TABLE cases (
    id             bigserial PRIMARY KEY,
    title          text NOT NULL,
    occurred_at    timestamptz NOT NULL,
    place          text NOT NULL DEFAULT '',
    description    text NOT NULL DEFAULT '',
    category_id    bigint NOT NULL REFERENCES case_categories(id),
    source         text NOT NULL CHECK (source IN ('staff_finding', 'report', 'anonymous_report')),
    -- '' until identification classifies it
    classification text NOT NULL DEFAULT '' CHECK (classification IN ('', 'school_rule', 'suspected_law')),
    stage          text NOT NULL DEFAULT 'identification' CHECK (stage IN ('identification', 'handling', 'conclusions', 'closed')),
    created_by     bigint REFERENCES users(id) ON DELETE SET NULL,
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX cases_stage_idx ON cases (stage);
CREATE INDEX cases_category_idx ON cases (category_id);

-- One row per stage a case has reached or will reach: owner and due date.
CREATE TABLE case_stages (
    case_id      bigint NOT NULL REFERENCES cases(id) ON DELETE CASCADE,
    stage        text NOT NULL CHECK (stage IN ('identification', 'handling', 'conclusions')),
    owner_id     bigint REFERENCES users(id) ON DELETE SET NULL,
    due_on       date NOT NULL,
    started_at   timestamptz,
    completed_at timestamptz,
    notes        text NOT NULL DEFAULT '',
    PRIMARY KEY (case_id, stage)
);

-- The case team: the named users who see everything in the case.
CREATE TABLE case_team (
    case_id  bigint NOT NULL REFERENCES cases(id) ON DELETE CASCADE,
    user_id  bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    added_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (case_id, user_id)
);
CREATE INDEX case_team_user_idx ON case_team (user_id);

-- Participants: a student in a role, or a staff user / outsider with a
-- relation (orang tua, wali kelas, BK, ...).
CREATE TABLE case_participants (
    id         bigserial PRIMARY KEY,
    case_id    bigint NOT NULL REFERENCES cases(id) ON DELETE CASCADE,
    kind       text NOT NULL CHECK (kind IN ('student', 'staff', 'outsider')),
    student_id bigint REFERENCES students(id) ON DELETE CASCADE,
    user_id    bigint REFERENCES users(id) ON DELETE SET NULL,
    name       text NOT NULL DEFAULT '',
    role       text NOT NULL DEFAULT '' CHECK (role IN ('', 'terduga_pelaku', 'korban', 'saksi', 'pelapor')),
    relation   text NOT NULL DEFAULT '',
    created_at timestamptz NOT NULL DEFAULT now(),
    CHECK ((kind = 'student') = (student_id IS NOT NULL)),
    CHECK (kind <> 'student' OR role <> ''),
    CHECK (kind <> 'staff' OR user_id IS NOT NULL)
);
CREATE UNIQUE INDEX case_participants_student_role_key ON case_participants (case_id, student_id, role) WHERE kind = 'student';
CREATE INDEX case_participants_case_idx ON case_participants (case_id);
CREATE INDEX case_participants_student_idx ON case_participants (student_id) WHERE student_id IS NOT NULL;

-- Every read of a case, by anyone: who, when, what. Admins read it.
CREATE TABLE case_access_log (
    id        bigserial PRIMARY KEY,
    case_id   bigint NOT NULL REFERENCES cases(id) ON DELETE CASCADE,
    user_id   bigint REFERENCES users(id) ON DELETE SET NULL,
    user_name text NOT NULL,
    at        timestamptz NOT NULL DEFAULT now(),
    what      text NOT NULL,
    -- what the reader was allowed to see: full, managed, homeroom
    level     text NOT NULL
);
CREATE INDEX case_access_log_case_idx ON case_access_log (case_id, at DESC);

-- +goose Down
DROP TABLE case_access_log;
DROP TABLE case_participants;
DROP TABLE case_team;
DROP TABLE case_stages;
DROP TABLE cases;
DROP TABLE case_categories;
