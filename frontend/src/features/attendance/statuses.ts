import type { CellStatus } from './types';

/**
 * Each status has its own colour AND letter (never colour alone); text at least 4.6:1 on its
 * background (statuses.test.ts checks). Alpha is the one filled strongly: it is what a
 * counselor looks for.
 */
export const STATUS_COLOURS: Record<CellStatus, { bg: string; fg: string; border: string }> = {
  H: { bg: '#d3f9d8', fg: '#14532d', border: '#8ce99a' },
  S: { bg: '#d0ebff', fg: '#0b3d91', border: '#74c0fc' },
  I: { bg: '#e5dbff', fg: '#4a1d96', border: '#b197fc' },
  A: { bg: '#c92a2a', fg: '#ffffff', border: '#a51d1d' },
  T: { bg: '#ffe8cc', fg: '#7c2d12', border: '#ffa94d' },
  belum: { bg: '#ffffff', fg: '#5c636a', border: '#ced4da' },
};

/** What a cell shows as its letter: the status, or a dash for belum. */
export function letterOf(s: CellStatus): string {
  return s === 'belum' ? '–' : s;
}
