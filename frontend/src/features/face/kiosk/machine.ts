import type { ChallengeState } from '../engine/types';
import type { Schema } from '@/api';

/**
 * The kiosk's flow as a pure state machine: the page's driver loop runs the camera, the
 * engine and the network, and feeds what happened here as events; everything the kiosk
 * decides (when to ask for a challenge, when it failed, how long a result stays) is here,
 * tested without a camera (machine.test.ts).
 *
 *   idle ──(one frontal face on 2 frames in a row)──▶ requesting ──▶ challenge
 *   challenge ──passed──▶ capturing ──(frontal, eyes open, embedding)──▶ checking
 *   challenge ──failed / timeout──▶ checking (passed: false, no embedding)
 *   checking ──answer──▶ result ──(≥ 4 s)──▶ idle
 *   requesting / checking ──network error──▶ error ──(retry delay)──▶ idle
 */

export type KioskPhase = 'idle' | 'requesting' | 'challenge' | 'capturing' | 'checking' | 'result' | 'error';

/** kiosk-status data-state (the e2e contract). */
export type KioskStatusState = 'loading' | 'idle' | 'challenge' | 'checking' | 'result' | 'error';

export type KioskChallenge = Schema<'FaceChallenge'>;

export type ScanOutcome = 'matched' | 'uncertain' | 'unknown' | 'liveness_failed' | 'not_enrolled_model';
export type ScanAttendance = 'H' | 'T' | 'kept' | 'none';

export type KioskScanResult = Schema<'FaceScanResult'>;

/** What goes to POST /face/scan once the machine reaches "checking". */
export interface PendingScan {
  passed: boolean;
  embedding: number[] | null;
}

/** Why the kiosk is waiting: the network, or a challenge the server no longer takes. */
export type KioskErrorKind = 'network' | 'challenge' | 'server';

export interface KioskState {
  phase: KioskPhase;
  /** When the face now in view was first seen (ms, the driver's clock); null when none. */
  seenSince: number | null;
  /** Frames in a row with exactly one frontal face. */
  frontalRun: number;
  challenge: KioskChallenge | null;
  challengeAt: number | null;
  passedAt: number | null;
  scan: PendingScan | null;
  result: KioskScanResult | null;
  /** Face in view → answer, ms. */
  millis: number | null;
  /** Until when the result (or the error) stays. */
  until: number | null;
  error: KioskErrorKind | null;
}

export type KioskEvent =
  /** One frame while idle: how many faces, and whether the only one looks straight at the camera. */
  | { type: 'frame'; at: number; faces: number; frontal: boolean }
  | { type: 'challenge'; at: number; challenge: KioskChallenge }
  /** The tracker's state after a challenge frame. */
  | { type: 'tracked'; at: number; state: ChallengeState }
  /** One frame after the challenge passed: the embedding when the frame was good for it. */
  | { type: 'captured'; at: number; embedding: number[] | null }
  | { type: 'scanned'; at: number; result: KioskScanResult }
  | { type: 'failed'; at: number; error: KioskErrorKind }
  | { type: 'tick'; at: number };

/** Frames in a row with one frontal face before a challenge is asked. */
export const FRONTAL_FRAMES = 2;
/** A challenge not passed within this time has failed (the server's challenge lives 60 s). */
export const CHALLENGE_TIMEOUT_MS = 7000;
/** After a passed challenge, how long to wait for a frontal, eyes-open frame. */
export const CAPTURE_TIMEOUT_MS = 3000;
/** A result stays at least this long. */
export const RESULT_MS = 4500;
/** Before trying again after a network error. */
export const RETRY_MS = 3000;
/** A refused challenge (expired, used) is explained this long before the kiosk starts again. */
export const CHALLENGE_ERROR_MS = 2500;

export const initialKioskState: KioskState = {
  phase: 'idle',
  seenSince: null,
  frontalRun: 0,
  challenge: null,
  challengeAt: null,
  passedAt: null,
  scan: null,
  result: null,
  millis: null,
  until: null,
  error: null,
};

/** Idle again, nothing remembered. */
function idle(): KioskState {
  return { ...initialKioskState };
}

function failChallenge(s: KioskState): KioskState {
  return { ...s, phase: 'checking', scan: { passed: false, embedding: null } };
}

export function kioskStep(s: KioskState, e: KioskEvent): KioskState {
  switch (e.type) {
    case 'frame': {
      if (s.phase !== 'idle') return s;
      if (e.faces !== 1) return { ...s, seenSince: e.faces === 0 ? null : s.seenSince, frontalRun: 0 };
      const seenSince = s.seenSince ?? e.at;
      const frontalRun = e.frontal ? s.frontalRun + 1 : 0;
      if (frontalRun >= FRONTAL_FRAMES) return { ...s, phase: 'requesting', seenSince, frontalRun };
      return { ...s, seenSince, frontalRun };
    }
    case 'challenge':
      if (s.phase !== 'requesting') return s;
      return { ...s, phase: 'challenge', challenge: e.challenge, challengeAt: e.at };
    case 'tracked': {
      if (s.phase !== 'challenge') return s;
      if (e.state === 'passed') return { ...s, phase: 'capturing', passedAt: e.at };
      if (e.state === 'failed') return failChallenge(s);
      if (s.challengeAt !== null && e.at - s.challengeAt > CHALLENGE_TIMEOUT_MS) return failChallenge(s);
      return s;
    }
    case 'captured': {
      if (s.phase !== 'capturing') return s;
      if (e.embedding && e.embedding.length > 0) return { ...s, phase: 'checking', scan: { passed: true, embedding: e.embedding } };
      if (s.passedAt !== null && e.at - s.passedAt > CAPTURE_TIMEOUT_MS) return failChallenge(s);
      return s;
    }
    case 'scanned':
      if (s.phase !== 'checking') return s;
      return {
        ...s,
        phase: 'result',
        result: e.result,
        millis: s.seenSince === null ? null : Math.max(0, Math.round(e.at - s.seenSince)),
        until: e.at + RESULT_MS,
        scan: null,
      };
    case 'failed':
      if (s.phase !== 'requesting' && s.phase !== 'checking') return s;
      return { ...idle(), phase: 'error', error: e.error, until: e.at + (e.error === 'network' ? RETRY_MS : CHALLENGE_ERROR_MS) };
    case 'tick':
      if ((s.phase === 'result' || s.phase === 'error') && s.until !== null && e.at >= s.until) return idle();
      if (s.phase === 'challenge' && s.challengeAt !== null && e.at - s.challengeAt > CHALLENGE_TIMEOUT_MS) return failChallenge(s);
      if (s.phase === 'capturing' && s.passedAt !== null && e.at - s.passedAt > CAPTURE_TIMEOUT_MS) return failChallenge(s);
      return s;
  }
}

/** kiosk-status data-state for a phase. */
export function statusState(phase: KioskPhase | 'loading'): KioskStatusState {
  switch (phase) {
    case 'loading':
      return 'loading';
    case 'idle':
    case 'requesting':
      return 'idle';
    case 'challenge':
      return 'challenge';
    case 'capturing':
    case 'checking':
      return 'checking';
    case 'result':
      return 'result';
    case 'error':
      return 'error';
  }
}

/** Whether a face looks straight at the camera: the server wants |yaw| ≤ 12° at a turn's start. */
export function isFrontal(face: { yaw: number; pitch: number }): boolean {
  return Math.abs(face.yaw) <= 10 && Math.abs(face.pitch) <= 20;
}

/** Colour of a result by outcome (and attendance, a late arrival in orange). */
export function outcomeColour(result: Pick<KioskScanResult, 'outcome' | 'attendance'>): string {
  switch (result.outcome) {
    case 'matched':
      return result.attendance === 'T' ? 'orange' : 'teal';
    case 'uncertain':
      return 'yellow';
    case 'liveness_failed':
      return 'red';
    default:
      return 'gray';
  }
}
