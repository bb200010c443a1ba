import type { ChallengeTracker, FaceObservation, QualityVerdict } from '../engine/types';
import { formatDecimal } from '@/lib/numbers';
import type { KioskScanInput } from './api';
import { isFrontal, type KioskEvent, type KioskState } from './machine';

/**
 * The kiosk page's small decisions, kept out of the components so they are tested without a
 * camera, an engine or a server (logic.test.ts).
 */

/**
 * The token in a pair link's fragment (`/kiosk#token=kiosk_…`), or null. The fragment never
 * reaches the server or its logs; the page stores the token and drops the fragment at once.
 */
export function tokenFromHash(hash: string): string | null {
  const h = hash.startsWith('#') ? hash.slice(1) : hash;
  if (!h) return null;
  const v = new URLSearchParams(h).get('token');
  return v && v.trim() ? v.trim() : null;
}

/** What a failed kiosk call means for the kiosk. */
export type KioskFailure = 'revoked' | 'network' | 'challenge' | 'server' | 'aborted';

export function kioskFailure(err: unknown): KioskFailure {
  if (typeof err === 'object' && err !== null && 'name' in err && (err as { name: unknown }).name === 'AbortError') return 'aborted';
  if (typeof err !== 'object' || err === null || !('status' in err)) return 'server';
  const { status, code } = err as { status: unknown; code?: unknown };
  if (status === 401) return 'revoked';
  if (code === 'network' || code === 'unavailable' || status === 0 || status === 502 || status === 503 || status === 504) return 'network';
  // 409 face.challenge_expired / _used / _unknown: the challenge is gone, start again.
  if (status === 409) return 'challenge';
  return 'server';
}

/** What the driver has to start when the machine moves from one state to the next. */
export type KioskEffect = 'request_challenge' | 'start_tracker' | 'send_scan' | null;

export function effectOf(prev: KioskState, next: KioskState): KioskEffect {
  if (prev.phase === next.phase) return null;
  switch (next.phase) {
    case 'requesting':
      return 'request_challenge';
    case 'challenge':
      return 'start_tracker';
    case 'checking':
      return next.scan ? 'send_scan' : null;
    default:
      return null;
  }
}

/** An idle frame as the machine's 'frame' event. */
export function frameEvent(faces: FaceObservation[], at: number): KioskEvent {
  return { type: 'frame', at, faces: faces.length, frontal: faces.length === 1 && isFrontal(faces[0]!) };
}

/** A capture frame's embedding: only from a frame good enough to match (one face, frontal, sharp, eyes open). */
export function capturedEmbedding(faces: FaceObservation[], verdict: QualityVerdict): number[] | null {
  if (!verdict.ok || faces.length !== 1) return null;
  const e = faces[0]!.embedding;
  return e && e.length > 0 ? e : null;
}

/** POST /face/scan's body once the machine is "checking". */
export function scanInput(model: string, state: KioskState, tracker: ChallengeTracker | null): KioskScanInput | null {
  if (state.phase !== 'checking' || !state.scan || !state.challenge) return null;
  const summary = tracker?.summary() ?? { frames: 0, millis: 0 };
  return {
    model,
    embedding: state.scan.passed && state.scan.embedding ? state.scan.embedding : [],
    challenge: { ...summary, id: state.challenge.id, kind: state.challenge.kind, passed: state.scan.passed },
  };
}

/** How long the driver waits before the next frame: busy phases as fast as the engine goes, idle ones a little slower. */
export function frameDelay(phase: KioskState['phase']): number {
  switch (phase) {
    case 'challenge':
    case 'capturing':
      return 0;
    case 'idle':
      return 60;
    default:
      return 150;
  }
}

/** Seconds with one decimal, for "answered in 1.4 s" (a comma in Indonesian). */
export function formatSeconds(ms: number, lang: string): string {
  return formatDecimal(ms / 1000, lang, 1, 1);
}
