import { describe, expect, it } from 'vitest';
import type { MessagingSettings } from './api';
import { formFromSettings, gatewayPayload, insertPlaceholder, KEEP, settingsPayload, splitFieldErrors, unknownPlaceholders } from './settingsForm';

const stored: MessagingSettings = {
  gateway: { kind: 'fonnte', base_url: 'https://api.fonnte.com', username: '', webhook_body: '', timeout_seconds: 15, token_set: true, password_set: false },
  events: {
    violation: { enabled: true, template: 'Halo {nama_siswa}', min_points: 5, include_automatic: false, settle_minutes: 45 },
    warning_letter: { enabled: true, template: 'SP {level_sp}', min_points: 0, include_automatic: false, send_on: 'printed', correction_template: 'Batal {level_sp}' },
    summons: { enabled: false, template: '', min_points: 0, include_automatic: false },
    achievement: { enabled: true, template: 'Selamat {nama_siswa}', min_points: 0, include_automatic: false },
  },
  quiet_hours: null,
  placeholders: ['nama_siswa', 'level_sp'],
};

describe('messaging settings form', () => {
  it('round-trips the stored settings, quiet hours off, secrets untouched', () => {
    const v = formFromSettings(stored);
    expect(v.quietOn).toBe(false);
    expect(v.quiet_hours).toEqual({ from: '21:00', to: '06:00' });
    const out = settingsPayload(v, KEEP, KEEP);
    expect(out.quiet_hours).toBeNull();
    expect('token' in out.gateway).toBe(false);
    expect('password' in out.gateway).toBe(false);
    expect(out.events).toEqual(stored.events);
  });

  it('sends a typed secret, and "" when it is to be removed', () => {
    const g = formFromSettings(stored).gateway;
    expect(gatewayPayload(g, { value: ' abc ', clear: false }, KEEP).token).toBe('abc');
    expect(gatewayPayload(g, { value: 'ignored', clear: true }, KEEP).token).toBe('');
  });

  it('sends the username and webhook body only for the kinds that use them', () => {
    const g = { ...formFromSettings(stored).gateway, username: 'u', webhook_body: '{}' };
    expect(gatewayPayload(g, KEEP, KEEP)).toMatchObject({ username: '', webhook_body: '' });
    expect(gatewayPayload({ ...g, kind: 'gowa' }, KEEP, { value: 'pw', clear: false })).toMatchObject({ username: 'u', password: 'pw' });
    expect(gatewayPayload({ ...g, kind: 'webhook' }, KEEP, KEEP).webhook_body).toBe('{}');
  });

  it('sends no address or secret without a gateway', () => {
    const g = { ...formFromSettings(stored).gateway, kind: '' as const };
    expect(gatewayPayload(g, { value: 'x', clear: false }, KEEP)).toEqual({ kind: '', base_url: '', username: '', webhook_body: '', timeout_seconds: 15 });
  });

  it('puts the server field errors where they belong', () => {
    const r = splitFieldErrors({
      'gateway.base_url': 'bad url',
      'gateway.token': 'need token',
      'events.summons.template': 'unknown {x}',
      quiet_hours: 'same times',
      'something.else': 'other',
    });
    expect(r.form).toEqual({ 'gateway.base_url': 'bad url', 'events.summons.template': 'unknown {x}', 'quiet_hours.from': 'same times' });
    expect(r.token).toBe('need token');
    expect(r.rest).toEqual(['other']);
  });

  it('inserts a placeholder at the caret', () => {
    expect(insertPlaceholder('Halo !', 'nama_siswa', 5, 5)).toEqual({ text: 'Halo {nama_siswa}!', caret: 17 });
    expect(insertPlaceholder('Halo', 'kelas')).toEqual({ text: 'Halo{kelas}', caret: 11 });
    expect(insertPlaceholder('Halo XX', 'poin', 5, 7).text).toBe('Halo {poin}');
  });

  it('names the placeholders the server does not know', () => {
    expect(unknownPlaceholders('{nama_siswa} {nama} {nama}', ['nama_siswa'])).toEqual(['nama']);
  });
});
