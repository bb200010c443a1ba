import dayjs from 'dayjs';
import { SCHOOL_TZ, todayInJakarta } from '@/lib/dates';
import { MAX_PHOTO_BYTES, MAX_PHOTOS } from './api';

/** The form's default date and time: now, on the school's clock. */
export function nowInJakarta(now: Date = new Date()): { date: string; time: string } {
  const d = todayInJakarta(now);
  return { date: d.format('YYYY-MM-DD'), time: d.format('HH:mm') };
}

/** A Jakarta date and time ("2026-11-02", "07:15") as the instant the server stores (RFC 3339, UTC). */
export function occurredAt(date: string, time: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return null;
  const hm = /^(\d{2}):(\d{2})/.exec(time);
  if (!hm) return null;
  const d = dayjs.tz(`${date} ${hm[1]}:${hm[2]}`, 'YYYY-MM-DD HH:mm', SCHOOL_TZ);
  return d.isValid() ? d.toISOString() : null;
}

/**
 * The sanction to prefill: the type's own when exactly one type is chosen; empty for several
 * (then each violation takes its type's default). `current` is kept when the person typed it.
 */
export function prefilledSanction(chosen: readonly { default_sanction: string }[], current: string, lastPrefill: string): string {
  if (current.trim() !== '' && current !== lastPrefill) return current;
  return chosen.length === 1 ? chosen[0]!.default_sanction : '';
}

/** Keeps only images within the size limit, up to the count limit; answers the files kept and how many were refused. */
export function addPhotos(current: readonly File[], picked: readonly File[], max = MAX_PHOTOS): { files: File[]; refused: number } {
  const images = picked.filter((f) => f.type.startsWith('image/') && f.size > 0 && f.size <= MAX_PHOTO_BYTES);
  const room = Math.max(0, max - current.length);
  const kept = images.slice(0, room);
  return { files: [...current, ...kept], refused: picked.length - kept.length };
}
