import { describe, expect, it } from 'vitest';
import type { ChallengeTracker, FaceObservation } from '../engine/types';
import { capturedEmbedding, effectOf, frameDelay, frameEvent, formatSeconds, kioskFailure, scanInput, tokenFromHash } from './logic';
import { initialKioskState, kioskStep, type KioskState } from './machine';

const EXPIRES = '2026-11-27T03:00:00Z';

const token = `kiosk_${'A'.repeat(43)}`;

function face(over: Partial<FaceObservation> = {}): FaceObservation {
  return {
    box: { x: 200, y: 100, width: 200, height: 240 },
    frame: { width: 640, height: 480 },
    score: 0.95,
    yaw: 2,
    pitch: -3,
    roll: 1,
    eyeOpenLeft: 0.8,
    eyeOpenRight: 0.8,
    sharpness: 120,
    brightness: 130,
    real: 0.9,
    live: 0.9,
    embedding: null,
    ...over,
  };
}

describe('tokenFromHash', () => {
  it('reads #token=', () => {
    expect(tokenFromHash(`#token=${token}`)).toBe(token);
    expect(tokenFromHash(`token=${token}`)).toBe(token);
    expect(tokenFromHash(`#a=1&token=${encodeURIComponent(token)}`)).toBe(token);
  });
  it('is null without one', () => {
    expect(tokenFromHash('')).toBeNull();
    expect(tokenFromHash('#')).toBeNull();
    expect(tokenFromHash('#token=')).toBeNull();
    expect(tokenFromHash('#other=1')).toBeNull();
  });
});

describe('kioskFailure', () => {
  it('sorts errors', () => {
    expect(kioskFailure({ status: 401, code: 'unauthorized' })).toBe('revoked');
    expect(kioskFailure({ status: 0, code: 'network' })).toBe('network');
    expect(kioskFailure({ status: 503, code: 'unavailable' })).toBe('network');
    expect(kioskFailure({ status: 409, code: 'conflict' })).toBe('challenge');
    expect(kioskFailure({ status: 500, code: 'internal' })).toBe('server');
    expect(kioskFailure({ status: 400, code: 'invalid' })).toBe('server');
    expect(kioskFailure(new DOMException('gone', 'AbortError'))).toBe('aborted');
    expect(kioskFailure(new Error('x'))).toBe('server');
    expect(kioskFailure(undefined)).toBe('server');
  });
});

describe('effectOf', () => {
  it('asks for a challenge, a tracker and a scan on the right transitions', () => {
    let s: KioskState = initialKioskState;
    const step = (e: Parameters<typeof kioskStep>[1]) => {
      const next = kioskStep(s, e);
      const eff = effectOf(s, next);
      s = next;
      return eff;
    };
    expect(step({ type: 'frame', at: 0, faces: 1, frontal: true })).toBeNull();
    expect(step({ type: 'frame', at: 100, faces: 1, frontal: true })).toBe('request_challenge');
    expect(step({ type: 'frame', at: 150, faces: 1, frontal: true })).toBeNull();
    expect(step({ type: 'challenge', at: 200, challenge: { id: 'c1', kind: 'blink', expires_at: EXPIRES } })).toBe('start_tracker');
    expect(step({ type: 'tracked', at: 300, state: 'waiting' })).toBeNull();
    expect(step({ type: 'tracked', at: 400, state: 'passed' })).toBeNull();
    expect(step({ type: 'captured', at: 500, embedding: null })).toBeNull();
    expect(step({ type: 'captured', at: 600, embedding: [0.1, 0.2] })).toBe('send_scan');
    expect(step({ type: 'tick', at: 700 })).toBeNull();
  });
  it('sends a failed challenge too', () => {
    const ch: KioskState = { ...initialKioskState, phase: 'challenge', challenge: { id: 'c', kind: 'turn_left', expires_at: EXPIRES }, challengeAt: 0 };
    const next = kioskStep(ch, { type: 'tracked', at: 10, state: 'failed' });
    expect(effectOf(ch, next)).toBe('send_scan');
  });
});

describe('frameEvent', () => {
  it('counts faces and frontality', () => {
    expect(frameEvent([], 5)).toEqual({ type: 'frame', at: 5, faces: 0, frontal: false });
    expect(frameEvent([face()], 5)).toEqual({ type: 'frame', at: 5, faces: 1, frontal: true });
    expect(frameEvent([face({ yaw: 25 })], 5)).toMatchObject({ faces: 1, frontal: false });
    expect(frameEvent([face(), face()], 5)).toMatchObject({ faces: 2, frontal: false });
  });
});

describe('capturedEmbedding', () => {
  it('takes the embedding of a good single face only', () => {
    expect(capturedEmbedding([face({ embedding: [1, 2] })], { ok: true, problems: [] })).toEqual([1, 2]);
    expect(capturedEmbedding([face({ embedding: [1, 2] })], { ok: false, problems: ['blurry'] })).toBeNull();
    expect(capturedEmbedding([face({ embedding: [] })], { ok: true, problems: [] })).toBeNull();
    expect(capturedEmbedding([face({ embedding: null })], { ok: true, problems: [] })).toBeNull();
    expect(capturedEmbedding([face({ embedding: [1] }), face({ embedding: [2] })], { ok: true, problems: [] })).toBeNull();
  });
});

describe('scanInput', () => {
  const tracker: ChallengeTracker = {
    kind: 'blink',
    push: () => 'passed',
    summary: () => ({ open_min: 0.1, open_max: 0.8, frames: 12, millis: 1400 }),
  };
  const checking: KioskState = {
    ...initialKioskState,
    phase: 'checking',
    challenge: { id: 'c9', kind: 'blink', expires_at: EXPIRES },
    scan: { passed: true, embedding: [0.5, 0.25] },
  };
  it('builds the body', () => {
    expect(scanInput('m1', checking, tracker)).toEqual({
      model: 'm1',
      embedding: [0.5, 0.25],
      challenge: { id: 'c9', kind: 'blink', passed: true, open_min: 0.1, open_max: 0.8, frames: 12, millis: 1400 },
    });
  });
  it('sends no embedding for a failed challenge', () => {
    const failed = { ...checking, scan: { passed: false, embedding: null } };
    expect(scanInput('m1', failed, null)).toEqual({
      model: 'm1',
      embedding: [],
      challenge: { id: 'c9', kind: 'blink', passed: false, frames: 0, millis: 0 },
    });
  });
  it('is null outside checking', () => {
    expect(scanInput('m1', { ...checking, phase: 'result' }, tracker)).toBeNull();
    expect(scanInput('m1', { ...checking, challenge: null }, tracker)).toBeNull();
  });
});

describe('small helpers', () => {
  it('frameDelay runs the challenge fastest', () => {
    expect(frameDelay('challenge')).toBe(0);
    expect(frameDelay('capturing')).toBe(0);
    expect(frameDelay('idle')).toBeGreaterThan(0);
    expect(frameDelay('result')).toBeGreaterThan(frameDelay('idle'));
  });
  it('formatSeconds uses the language', () => {
    expect(formatSeconds(1432, 'id')).toBe('1,4');
    expect(formatSeconds(1432, 'en')).toBe('1.4');
  });
});
