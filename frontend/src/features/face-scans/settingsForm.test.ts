import { describe, expect, it } from 'vitest';
import { formFromSettings, isTime, normaliseChallenges, settingsPayload, splitFieldErrors, validateFaceSettings, type FaceSettingsFormValues } from './settingsForm';

const ok: FaceSettingsFormValues = {
  school_start: '07:00',
  late_grace_minutes: 10,
  threshold: 0.5,
  margin: 0.08,
  retention_days: 30,
  challenges: ['blink', 'turn_left', 'turn_right'],
};

describe('face settings: the server\'s rules, field by field', () => {
  it('takes the defaults and the edges', () => {
    expect(validateFaceSettings(ok)).toEqual({});
    expect(
      validateFaceSettings({ school_start: '00:00', late_grace_minutes: 0, threshold: 0.01, margin: 0, retention_days: 0, challenges: ['blink'] }),
    ).toEqual({});
    expect(validateFaceSettings({ ...ok, school_start: '23:59', late_grace_minutes: 120, threshold: 0.99, margin: 0.99, retention_days: 365 })).toEqual({});
  });

  it('wants the start as HH:MM', () => {
    for (const bad of ['', '7:00', '24:00', '07:60', '07.00', '07:00:00', 'jam 7']) {
      expect(validateFaceSettings({ ...ok, school_start: bad }).school_start, bad).toBe('time');
    }
    expect(isTime('06:45')).toBe(true);
  });

  it('wants whole minutes from 0 to 120 and whole days from 0 to 365', () => {
    for (const bad of ['', -1, 121, 2.5, 'x']) {
      expect(validateFaceSettings({ ...ok, late_grace_minutes: bad }).late_grace_minutes, String(bad)).toBe('grace');
    }
    for (const bad of ['', -1, 366, 0.5]) {
      expect(validateFaceSettings({ ...ok, retention_days: bad }).retention_days, String(bad)).toBe('retention');
    }
    expect(validateFaceSettings({ ...ok, late_grace_minutes: '15', retention_days: '0' })).toEqual({});
  });

  it('wants the threshold strictly between 0 and 1, the margin from 0 to below 1', () => {
    for (const bad of ['', 0, 1, -0.1, 1.5]) {
      expect(validateFaceSettings({ ...ok, threshold: bad }).threshold, String(bad)).toBe('threshold');
    }
    for (const bad of ['', 1, -0.01]) {
      expect(validateFaceSettings({ ...ok, margin: bad }).margin, String(bad)).toBe('margin');
    }
    // A comma typed as the decimal mark reads as a decimal.
    expect(validateFaceSettings({ ...ok, threshold: '0,55', margin: '0,1' })).toEqual({});
  });

  it('wants at least one known challenge', () => {
    expect(validateFaceSettings({ ...ok, challenges: [] }).challenges).toBe('challenges');
    expect(validateFaceSettings({ ...ok, challenges: ['smile'] }).challenges).toBe('challenges');
    expect(normaliseChallenges(['turn_right', 'smile', 'blink', 'blink'])).toEqual(['blink', 'turn_right']);
  });

  it('reports every wrong field at once', () => {
    expect(
      Object.keys(validateFaceSettings({ school_start: '', late_grace_minutes: '', threshold: '', margin: '', retention_days: '', challenges: [] })).sort(),
    ).toEqual(['challenges', 'late_grace_minutes', 'margin', 'retention_days', 'school_start', 'threshold']);
  });
});

describe('face settings: to and from the wire', () => {
  it('reads HH:MM from a time column and the challenges in order', () => {
    const v = formFromSettings({
      school_start: '06:30:00',
      late_grace_minutes: 5,
      threshold: 0.55,
      margin: 0.1,
      retention_days: 0,
      challenges: ['turn_right', 'blink'],
      updated_at: '2026-11-23T01:00:00Z',
    });
    expect(v).toEqual({ school_start: '06:30', late_grace_minutes: 5, threshold: 0.55, margin: 0.1, retention_days: 0, challenges: ['blink', 'turn_right'] });
  });

  it('sends numbers, without floating noise, and no updated_at', () => {
    expect(settingsPayload({ ...ok, school_start: ' 07:15 ', late_grace_minutes: '10', threshold: 0.1 + 0.2, margin: '0,05', retention_days: '7', challenges: ['turn_left', 'blink'] })).toEqual({
      school_start: '07:15',
      late_grace_minutes: 10,
      threshold: 0.3,
      margin: 0.05,
      retention_days: 7,
      challenges: ['blink', 'turn_left'],
    });
  });

  it('puts the server\'s field errors at the fields and keeps the rest for above the form', () => {
    expect(
      splitFieldErrors({
        school_start: 'Jam tidak valid.',
        threshold: 'Harus di antara 0 dan 1.',
        'challenges[1]': 'Tantangan tidak dikenal.',
        'challenges.2': 'Tantangan tidak dikenal.',
        updated_by: 'Aneh.',
      }),
    ).toEqual({
      form: { school_start: 'Jam tidak valid.', threshold: 'Harus di antara 0 dan 1.', challenges: 'Tantangan tidak dikenal.' },
      rest: ['Aneh.'],
    });
  });
});
