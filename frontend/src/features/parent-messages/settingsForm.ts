import type { GatewayKind, MessagingEvent, MessagingGateway, MessagingSettings, ParentEvent } from './api';

/** Pure helpers of Settings → Parent messaging (unit-tested). */

/** The form's values: the wire shape without secrets, quiet hours as a switch plus two times. */
export interface MessagingFormValues {
  gateway: {
    kind: GatewayKind;
    base_url: string;
    username: string;
    webhook_body: string;
    timeout_seconds: number | string;
  };
  events: Record<ParentEvent, MessagingEvent>;
  quietOn: boolean;
  quiet_hours: { from: string; to: string };
}

/** A write-only secret being edited: '' typed keeps the stored one, `clear` removes it. */
export interface SecretEdit {
  value: string;
  clear: boolean;
}

export const KEEP: SecretEdit = { value: '', clear: false };

/** The usual base URL of each gateway, shown as a hint and filled in when the field is empty. */
export const BASE_URL_EXAMPLES: Record<Exclude<GatewayKind, ''>, string> = {
  fonnte: 'https://api.fonnte.com',
  wablas: 'https://jogja.wablas.com',
  gowa: 'http://192.168.1.10:3000',
  webhook: 'https://contoh.sekolah.sch.id/kirim-wa',
};

export const DEFAULT_WEBHOOK_BODY = '{"phone": "{phone}", "message": "{message}"}';

/** Which secrets a kind needs: Fonnte and Wablas a token, go-whatsapp a username and password. */
export function credentialsOf(kind: GatewayKind): 'token' | 'basic' | 'none' {
  if (kind === 'fonnte' || kind === 'wablas') return 'token';
  if (kind === 'gowa') return 'basic';
  return kind === 'webhook' ? 'token' : 'none';
}

/** An event's own settings (the attendance day's settle time; a letter's send_on and correction), when it has them. */
function eventExtras(e: MessagingEvent): Partial<MessagingEvent> {
  return {
    ...(e.settle_minutes !== undefined ? { settle_minutes: e.settle_minutes } : {}),
    ...(e.send_on !== undefined ? { send_on: e.send_on } : {}),
    ...(e.correction_template !== undefined ? { correction_template: e.correction_template } : {}),
  };
}

export function formFromSettings(s: MessagingSettings): MessagingFormValues {
  const ev = (e: MessagingEvent): MessagingEvent => ({
    enabled: !!e.enabled,
    template: e.template ?? '',
    min_points: e.min_points ?? 0,
    include_automatic: !!e.include_automatic,
    ...eventExtras(e),
  });
  return {
    gateway: {
      kind: s.gateway.kind ?? '',
      base_url: s.gateway.base_url ?? '',
      username: s.gateway.username ?? '',
      webhook_body: s.gateway.webhook_body ?? '',
      timeout_seconds: s.gateway.timeout_seconds || 15,
    },
    events: {
      violation: ev(s.events.violation),
      warning_letter: ev(s.events.warning_letter),
      summons: ev(s.events.summons),
      achievement: ev(s.events.achievement),
    },
    quietOn: s.quiet_hours !== null,
    quiet_hours: s.quiet_hours ?? { from: '21:00', to: '06:00' },
  };
}

/** "" sent clears a secret, a typed value replaces it, nothing keeps it (the key is left out). */
function secret(e: SecretEdit): { v?: string } {
  if (e.clear) return { v: '' };
  return e.value.trim() ? { v: e.value.trim() } : {};
}

/** The gateway as PUT and the test send it: secrets only when replaced or cleared. */
export function gatewayPayload(v: MessagingFormValues['gateway'], token: SecretEdit, password: SecretEdit): MessagingGateway {
  // No gateway: nothing of one is kept (the server refuses an address without a kind).
  if (!v.kind) return { kind: '', base_url: '', username: '', webhook_body: '', timeout_seconds: Number(v.timeout_seconds) || 15 };
  const t = secret(token);
  const p = secret(password);
  const timeout = Number(v.timeout_seconds);
  return {
    kind: v.kind,
    base_url: v.base_url.trim(),
    username: v.kind === 'gowa' ? v.username.trim() : '',
    webhook_body: v.kind === 'webhook' ? v.webhook_body : '',
    timeout_seconds: Number.isFinite(timeout) ? timeout : 0,
    ...('v' in t ? { token: t.v } : {}),
    ...('v' in p ? { password: p.v } : {}),
  };
}

/** What PUT /settings/messaging gets. */
export function settingsPayload(v: MessagingFormValues, token: SecretEdit, password: SecretEdit): MessagingSettings {
  const ev = (e: MessagingEvent): MessagingEvent => ({
    enabled: e.enabled,
    template: e.template,
    min_points: Number(e.min_points) || 0,
    include_automatic: e.include_automatic,
    ...eventExtras({ ...e, settle_minutes: e.settle_minutes === undefined ? undefined : Number(e.settle_minutes) || 0 }),
  });
  return {
    gateway: gatewayPayload(v.gateway, token, password),
    events: { violation: ev(v.events.violation), warning_letter: ev(v.events.warning_letter), summons: ev(v.events.summons), achievement: ev(v.events.achievement) },
    quiet_hours: v.quietOn ? { from: v.quiet_hours.from, to: v.quiet_hours.to } : null,
  };
}

/** The form paths a server field error can sit at (the wire's dotted names). */
export const FORM_PATHS = [
  'gateway.kind',
  'gateway.base_url',
  'gateway.username',
  'gateway.webhook_body',
  'gateway.timeout_seconds',
  'events.violation.template',
  'events.violation.min_points',
  'events.violation.settle_minutes',
  'events.warning_letter.send_on',
  'events.warning_letter.correction_template',
  'events.warning_letter.template',
  'events.summons.template',
  'events.achievement.template',
  'quiet_hours.from',
  'quiet_hours.to',
] as const;

/**
 * Splits the server's field errors: those at form fields, the secrets' (shown at their own
 * inputs), and the rest (shown above the form). `quiet_hours` alone goes to its first time.
 */
export function splitFieldErrors(fields: Record<string, string>): {
  form: Record<string, string>;
  token?: string;
  password?: string;
  rest: string[];
} {
  const form: Record<string, string> = {};
  const rest: string[] = [];
  let token: string | undefined;
  let password: string | undefined;
  for (const [k, v] of Object.entries(fields)) {
    if (k === 'gateway.token') token = v;
    else if (k === 'gateway.password') password = v;
    else if ((FORM_PATHS as readonly string[]).includes(k)) form[k] = v;
    else if (k === 'quiet_hours') form['quiet_hours.from'] = v;
    else if (/^events\.(violation|warning_letter|summons|achievement)$/.test(k)) form[`${k}.template`] = v;
    else rest.push(v);
  }
  return { form, token, password, rest };
}

/** Inserts `{name}` into text at the caret (or the end), answering the new text and caret. */
export function insertPlaceholder(text: string, name: string, start?: number | null, end?: number | null): { text: string; caret: number } {
  const token = `{${name}}`;
  const s = start ?? text.length;
  const e = end ?? s;
  const next = text.slice(0, s) + token + text.slice(e);
  return { text: next, caret: s + token.length };
}

/** Placeholders a template names that the server does not know (shown before saving). */
export function unknownPlaceholders(template: string, known: readonly string[]): string[] {
  const found = new Set<string>();
  for (const m of template.matchAll(/\{([a-z_]+)\}/g)) {
    const name = m[1] ?? '';
    if (!known.includes(name)) found.add(name);
  }
  return [...found];
}

/** "HH:MM" 24-hour. */
export function isTime(v: string): boolean {
  return /^([01]\d|2[0-3]):[0-5]\d$/.test(v);
}
