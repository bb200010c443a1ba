import type { ParentMessageList, ParentMessageStatus } from './api';

/** Pure helpers of the delivery log's display (unit-tested). */

/**
 * A normalised number ("6281234567890") as people read it: "+62 812-3456-7890". A masked
 * one ("62812•••••890", the server's phone.Mask) keeps its dots, with the country code set
 * apart. '' stays ''.
 */
export function formatPhone(phone: string, masked: boolean): string {
  const p = phone.trim();
  if (!p) return '';
  if (!p.startsWith('62')) return p;
  const rest = p.slice(2);
  if (masked || !/^\d+$/.test(rest) || rest.length < 8) return `+62 ${rest}`;
  return `+62 ${rest.slice(0, 3)}-${rest.slice(3, 7)}-${rest.slice(7)}`;
}

/** One line of at most `max` characters (whitespace collapsed), "…" when cut. */
export function truncateAnswer(s: string, max = 80): string {
  const one = s.replace(/\s+/g, ' ').trim();
  if (one.length <= max) return one;
  return `${one.slice(0, max - 1).trimEnd()}…`;
}

/** A gateway's JSON answer indented for reading; anything else as it came. */
export function prettyAnswer(s: string): string {
  const t = s.trim();
  if (!t.startsWith('{') && !t.startsWith('[')) return s;
  try {
    return JSON.stringify(JSON.parse(t), null, 2);
  } catch {
    return s;
  }
}

/** Badge colours per status (light variant; text shades chosen by the theme). */
export const statusColor: Record<ParentMessageStatus, string> = {
  queued: 'blue',
  sent: 'teal',
  failed: 'red',
  cancelled: 'gray',
  skipped: 'orange',
};

export const outcomeColor: Record<string, string> = {
  sent: 'teal',
  permanent: 'red',
  temporary: 'orange',
  rate_limited: 'grape',
};

/** Whether the log should refresh on its own: something is still waiting to go out. */
export function hasQueued(list: Pick<ParentMessageList, 'data' | 'counts'> | undefined): boolean {
  if (!list) return false;
  return (list.counts?.queued ?? 0) > 0 || list.data.some((m) => m.status === 'queued');
}

/** The total over every status (the "all" chip). */
export function totalCount(counts: Partial<Record<ParentMessageStatus, number>> | undefined): number {
  return Object.values(counts ?? {}).reduce<number>((a, b) => a + (b ?? 0), 0);
}

/** Which actions a message allows (the server decides too; these only hide buttons that would be refused). */
export function actionsFor(status: ParentMessageStatus): { retry: boolean; cancel: boolean } {
  return { retry: status === 'failed' || status === 'cancelled' || status === 'skipped', cancel: status === 'queued' };
}
