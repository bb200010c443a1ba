import type { AttendanceStatus } from './types';

/**
 * The class form's colours (features/attendance/statuses.ts), so a status looks the same on
 * every attendance screen: each has a letter too (never colour alone), text at least 4.5:1.
 */
export const STATUS_COLOURS: Record<AttendanceStatus, { bg: string; fg: string; border: string }> = {
  H: { bg: '#d3f9d8', fg: '#14532d', border: '#8ce99a' },
  S: { bg: '#d0ebff', fg: '#0b3d91', border: '#74c0fc' },
  I: { bg: '#e5dbff', fg: '#4a1d96', border: '#b197fc' },
  A: { bg: '#c92a2a', fg: '#ffffff', border: '#a51d1d' },
  T: { bg: '#ffe8cc', fg: '#7c2d12', border: '#ffa94d' },
};

/** A class day: every student recorded, or some. */
export const CLASS_STATE_COLOURS: Record<string, { bg: string; fg: string; border: string }> = {
  complete: { bg: '#d3f9d8', fg: '#14532d', border: '#8ce99a' },
  partial: { bg: '#fff3bf', fg: '#5c3c00', border: '#fcc419' },
};

export function isStatus(s: string): s is AttendanceStatus {
  return s === 'H' || s === 'S' || s === 'I' || s === 'A' || s === 'T';
}
