import { describe, expect, it } from 'vitest';
import { BLINK, checkQuality, createChallengeTracker, greyStats, randomChallenge, signedYaw } from './index';
import type { FaceObservation } from './types';

function face(over: Partial<FaceObservation> = {}): FaceObservation {
  return {
    box: { x: 200, y: 100, width: 240, height: 240 },
    frame: { width: 640, height: 480 },
    score: 0.99,
    yaw: 0,
    pitch: 0,
    roll: 0,
    eyeOpenLeft: 1,
    eyeOpenRight: 1,
    sharpness: 500,
    brightness: 130,
    real: 0.6,
    live: 0.9,
    embedding: null,
    ...over,
  };
}

describe('checkQuality', () => {
  it('takes one good face', () => {
    expect(checkQuality([face()])).toEqual({ ok: true, problems: [] });
  });
  it('names what is wrong', () => {
    expect(checkQuality([]).problems).toEqual(['no_face']);
    expect(checkQuality([face(), face()]).problems).toEqual(['many_faces']);
    expect(checkQuality([face({ score: 0.2 })]).problems).toEqual(['no_face']);
    expect(checkQuality([face({ box: { x: 0, y: 0, width: 60, height: 60 } })]).problems).toEqual(['too_small']);
    expect(checkQuality([face({ yaw: 25 })]).problems).toEqual(['not_frontal']);
    expect(checkQuality([face({ brightness: 20, sharpness: 10 })]).problems).toEqual(['too_dark', 'blurry']);
    expect(checkQuality([face({ brightness: 240 })]).problems).toEqual(['too_bright']);
    expect(checkQuality([face({ eyeOpenLeft: 0.2, eyeOpenRight: 0.3 })]).problems).toEqual(['eyes_closed']);
  });
});

describe('blink tracker', () => {
  const run = (opens: number[]) => {
    const tr = createChallengeTracker('blink');
    let st = tr.push(null, 0);
    opens.forEach((o, i) => (st = tr.push(face({ eyeOpenLeft: o, eyeOpenRight: o }), i * 100)));
    return { st, sum: tr.summary() };
  };
  it('passes open, shut, open, and reports the figures the server re-checks', () => {
    const { st, sum } = run([0.9, 0.9, 0.5, 0.5, 0.9]);
    expect(st).toBe('passed');
    expect(sum).toMatchObject({ open_min: 0.5, open_max: 0.9, frames: 5, millis: 400 });
    // The server's rule: open_min ≤ 0.8 × open_max, open_max ≥ 0.5.
    expect(sum.open_min!).toBeLessThanOrEqual(0.8 * sum.open_max!);
  });
  it('is judged against the person’s own open eyes', () => {
    expect(run([0.6, 0.6, 0.45, 0.6]).st).toBe('passed');
  });
  it('waits on a still face, eyes that stay shut, or a small flicker', () => {
    expect(run([1, 1, 1, 1, 1, 1]).st).toBe('waiting');
    expect(run([0.3, 0.2, 0.3, 0.2]).st).toBe('waiting');
    expect(run([1, 0.9, 1, 0.9, 1]).st).toBe('waiting');
    expect(run([1, 0.5]).st).toBe('waiting'); // not reopened
  });
  it('stays stricter than the server', () => {
    expect(BLINK.closed).toBeLessThan(0.8);
    expect(BLINK.open).toBeGreaterThanOrEqual(0.5);
  });
});

describe('turn tracker', () => {
  const run = (kind: 'turn_left' | 'turn_right', yaws: number[]) => {
    const tr = createChallengeTracker(kind);
    let st = tr.push(null, 0);
    yaws.forEach((y, i) => (st = tr.push(face({ yaw: y }), i * 100)));
    return { st, sum: tr.summary() };
  };
  it('passes a turn to the asked side from a frontal start', () => {
    const { st, sum } = run('turn_left', [2, -5, -12, -20]);
    expect(st).toBe('passed');
    expect(sum).toMatchObject({ yaw_start: 2, yaw_peak: -20, frames: 4 });
    expect(run('turn_right', [0, 8, 19]).st).toBe('passed');
  });
  it('refuses the other side, a start already turned, and too small a turn', () => {
    expect(run('turn_left', [0, 10, 25]).st).toBe('waiting');
    expect(run('turn_left', [-30, -30, -30]).st).toBe('waiting');
    expect(run('turn_right', [0, 5, 12, 14]).st).toBe('waiting');
  });
});

describe('signedYaw', () => {
  const mesh = (noseX: number) => {
    const m: [number, number, number][] = Array.from({ length: 468 }, () => [0, 0, 0]);
    m[1] = [noseX, 200, 0];
    m[234] = [200, 200, 0];
    m[454] = [400, 200, 0];
    return m;
  };
  it('reads the side from the nose: right of the middle in the picture is the person’s left', () => {
    expect(signedYaw(mesh(340), 20)).toBe(-20);
    expect(signedYaw(mesh(340), -20)).toBe(-20);
    expect(signedYaw(mesh(260), -20)).toBe(20);
    expect(signedYaw(mesh(301), 3)).toBe(3); // frontal: human's own sign
  });
});

describe('greyStats', () => {
  it('measures brightness and finds a flat patch unsharp and a checkerboard sharp', () => {
    const flat = new Uint8ClampedArray(16 * 16 * 4).fill(100);
    expect(greyStats(flat, 16, 16)).toEqual({ sharpness: 0, brightness: expect.closeTo(100, 5) });
    const checker = new Uint8ClampedArray(16 * 16 * 4);
    for (let i = 0; i < 256; i++) checker.fill(((i % 16) + Math.floor(i / 16)) % 2 ? 255 : 0, i * 4, i * 4 + 4);
    expect(greyStats(checker, 16, 16).sharpness).toBeGreaterThan(1000);
  });
});

describe('randomChallenge', () => {
  it('picks only allowed kinds', () => {
    for (let i = 0; i < 20; i++) expect(['blink', 'turn_left']).toContain(randomChallenge(['blink', 'turn_left']));
    expect(randomChallenge([])).toBe('blink');
  });
});
