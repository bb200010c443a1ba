-- +goose Up
-- Classes of every school level: primary (SD/MI) grades 1–6, junior high
-- (SMP/MTs) 7–9, senior high (SMA/SMK/MA) 10–12. The first schema knew only
-- 10–12 and refused a junior high school's sync.
ALTER TABLE classes DROP CONSTRAINT IF EXISTS classes_grade_check;
ALTER TABLE classes ADD CONSTRAINT classes_grade_check CHECK (grade BETWEEN 1 AND 12);

-- A sync run's failure as a catalogue key and its parameters, rendered in
-- the reader's language, instead of a sentence in one language (which
-- could also quote what the remote side sent). Old rows keep their text
-- in "error" with an empty code.
ALTER TABLE student_syncs
    ADD COLUMN error_code   text  NOT NULL DEFAULT '',
    ADD COLUMN error_params jsonb NOT NULL DEFAULT '{}'::jsonb;

-- +goose Down
ALTER TABLE student_syncs DROP COLUMN error_params, DROP COLUMN error_code;
-- Fails while classes of grades 1–9 exist: going back would lose them.
ALTER TABLE classes DROP CONSTRAINT IF EXISTS classes_grade_check;
ALTER TABLE classes ADD CONSTRAINT classes_grade_check CHECK (grade IN (10, 11, 12));
