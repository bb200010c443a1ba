import { describe, expect, it } from 'vitest';
import {
  CAPTURE_TIMEOUT_MS,
  CHALLENGE_TIMEOUT_MS,
  initialKioskState,
  isFrontal,
  kioskStep,
  outcomeColour,
  RESULT_MS,
  RETRY_MS,
  statusState,
  type KioskEvent,
  type KioskScanResult,
  type KioskState,
} from './machine';

const EXPIRES = '2026-11-27T03:00:00Z';

const run = (events: KioskEvent[], from: KioskState = initialKioskState) => events.reduce(kioskStep, from);

const result: KioskScanResult = {
  scan_id: 7,
  outcome: 'matched',
  student: { id: 1, name: 'Ani', class_name: 'X-1' },
  attendance: 'H',
  greeting: 'Selamat pagi, Ani!',
  scanned_at: '2026-11-23T00:00:00Z',
};

/** Face seen at 100 (not frontal yet), then frontal at 300 and 500: a challenge is asked. */
const toRequesting: KioskEvent[] = [
  { type: 'frame', at: 100, faces: 1, frontal: false },
  { type: 'frame', at: 300, faces: 1, frontal: true },
  { type: 'frame', at: 500, faces: 1, frontal: true },
];
const toChallenge: KioskEvent[] = [...toRequesting, { type: 'challenge', at: 600, challenge: { id: 'c1', kind: 'blink', expires_at: EXPIRES } }];

describe('kiosk machine', () => {
  it('asks for a challenge after one frontal face on two frames in a row', () => {
    const one = run(toRequesting.slice(0, 2));
    expect(one.phase).toBe('idle');
    expect(one.frontalRun).toBe(1);
    const s = run(toRequesting);
    expect(s.phase).toBe('requesting');
    expect(s.seenSince).toBe(100);
  });

  it('starts over when the face goes or a second face comes', () => {
    const gone = run([toRequesting[1]!, { type: 'frame', at: 400, faces: 0, frontal: false }, { type: 'frame', at: 600, faces: 1, frontal: true }]);
    expect(gone.phase).toBe('idle');
    expect(gone.seenSince).toBe(600);
    expect(gone.frontalRun).toBe(1);
    const two = run([toRequesting[1]!, { type: 'frame', at: 400, faces: 2, frontal: false }, { type: 'frame', at: 600, faces: 1, frontal: true }]);
    expect(two.phase).toBe('idle');
    expect(two.frontalRun).toBe(1);
  });

  it('passes, captures and shows the answer with the time from face in view', () => {
    let s = run(toChallenge);
    expect(s.phase).toBe('challenge');
    expect(s.challenge?.kind).toBe('blink');
    s = run([{ type: 'tracked', at: 700, state: 'waiting' }], s);
    expect(s.phase).toBe('challenge');
    s = run([{ type: 'tracked', at: 900, state: 'passed' }], s);
    expect(s.phase).toBe('capturing');
    s = run([{ type: 'captured', at: 1000, embedding: null }], s);
    expect(s.phase).toBe('capturing');
    s = run([{ type: 'captured', at: 1100, embedding: [0.1, 0.2] }], s);
    expect(s.phase).toBe('checking');
    expect(s.scan).toEqual({ passed: true, embedding: [0.1, 0.2] });
    s = run([{ type: 'scanned', at: 1350, result }], s);
    expect(s.phase).toBe('result');
    expect(s.millis).toBe(1250);
    expect(s.result?.greeting).toBe('Selamat pagi, Ani!');
    // Frames while the result shows change nothing.
    s = run([{ type: 'frame', at: 1500, faces: 1, frontal: true }, { type: 'tick', at: 1350 + RESULT_MS - 1 }], s);
    expect(s.phase).toBe('result');
    s = run([{ type: 'tick', at: 1350 + RESULT_MS }], s);
    expect(s).toEqual(initialKioskState);
  });

  it('keeps a result at least four seconds', () => {
    expect(RESULT_MS).toBeGreaterThanOrEqual(4000);
  });

  it('sends a failed challenge without an embedding', () => {
    const s = run([...toChallenge, { type: 'tracked', at: 800, state: 'failed' }]);
    expect(s.phase).toBe('checking');
    expect(s.scan).toEqual({ passed: false, embedding: null });
  });

  it('fails a challenge not passed in time, by frame or by tick', () => {
    const byFrame = run([...toChallenge, { type: 'tracked', at: 600 + CHALLENGE_TIMEOUT_MS + 1, state: 'waiting' }]);
    expect(byFrame.scan).toEqual({ passed: false, embedding: null });
    const byTick = run([...toChallenge, { type: 'tick', at: 600 + CHALLENGE_TIMEOUT_MS + 1 }]);
    expect(byTick.phase).toBe('checking');
    const notYet = run([...toChallenge, { type: 'tick', at: 600 + CHALLENGE_TIMEOUT_MS - 1 }]);
    expect(notYet.phase).toBe('challenge');
  });

  it('fails when no good frame comes after a passed challenge', () => {
    const s = run([...toChallenge, { type: 'tracked', at: 900, state: 'passed' }, { type: 'captured', at: 900 + CAPTURE_TIMEOUT_MS + 1, embedding: null }]);
    expect(s.phase).toBe('checking');
    expect(s.scan).toEqual({ passed: false, embedding: null });
  });

  it('waits and starts over after a network error', () => {
    let s = run([...toRequesting, { type: 'failed', at: 1000, error: 'network' }]);
    expect(s.phase).toBe('error');
    expect(s.error).toBe('network');
    s = run([{ type: 'tick', at: 1000 + RETRY_MS - 1 }], s);
    expect(s.phase).toBe('error');
    s = run([{ type: 'tick', at: 1000 + RETRY_MS }], s);
    expect(s).toEqual(initialKioskState);
    // A failure outside a call is ignored.
    expect(run([{ type: 'failed', at: 5, error: 'network' }]).phase).toBe('idle');
  });

  it('ignores events of another phase', () => {
    expect(run([{ type: 'challenge', at: 1, challenge: { id: 'x', kind: 'turn_left', expires_at: EXPIRES } }])).toEqual(initialKioskState);
    expect(run([{ type: 'scanned', at: 1, result }])).toEqual(initialKioskState);
    expect(run([...toRequesting, { type: 'frame', at: 700, faces: 0, frontal: false }]).phase).toBe('requesting');
  });

  it('maps phases to the status the screen reports', () => {
    expect(statusState('loading')).toBe('loading');
    expect(statusState('requesting')).toBe('idle');
    expect(statusState('capturing')).toBe('checking');
    expect(statusState('result')).toBe('result');
  });

  it('calls a face frontal only when it looks straight on', () => {
    expect(isFrontal({ yaw: 3, pitch: -5 })).toBe(true);
    expect(isFrontal({ yaw: -14, pitch: 0 })).toBe(false);
    expect(isFrontal({ yaw: 0, pitch: 30 })).toBe(false);
  });

  it('colours a late arrival apart from an on-time one', () => {
    expect(outcomeColour({ outcome: 'matched', attendance: 'H' })).toBe('teal');
    expect(outcomeColour({ outcome: 'matched', attendance: 'T' })).toBe('orange');
    expect(outcomeColour({ outcome: 'liveness_failed', attendance: 'none' })).toBe('red');
  });
});
