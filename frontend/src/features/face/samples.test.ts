import { describe, expect, it } from 'vitest';
import { cameraProblem } from './camera';
import type { FaceObservation } from './engine/types';
import { canSave, decideSample, firstProblem } from './samples';

function face(embedding: number[] | null): FaceObservation {
  return {
    box: { x: 200, y: 100, width: 240, height: 240 },
    frame: { width: 640, height: 480 },
    score: 0.9,
    yaw: 0,
    pitch: 0,
    roll: 0,
    eyeOpenLeft: 0.4,
    eyeOpenRight: 0.4,
    sharpness: 100,
    brightness: 120,
    real: null,
    live: null,
    embedding,
  };
}

describe('samples', () => {
  it('keeps a good frame with its embedding', () => {
    expect(decideSample([face([0.1, -0.2])], { ok: true, problems: [] }, 0)).toEqual({ ok: true, embedding: [0.1, -0.2] });
  });

  it('refuses with the problem to fix first', () => {
    expect(decideSample([face([1])], { ok: false, problems: ['blurry', 'too_small'] }, 1)).toEqual({ ok: false, problem: 'too_small' });
    expect(firstProblem(['blurry', 'many_faces'])).toBe('many_faces');
    expect(firstProblem([])).toBeNull();
  });

  it('refuses without an embedding, with a broken one, or beyond five', () => {
    expect(decideSample([face(null)], { ok: true, problems: [] }, 0)).toEqual({ ok: false, problem: 'no_embedding' });
    expect(decideSample([face([1, NaN])], { ok: true, problems: [] }, 0)).toEqual({ ok: false, problem: 'no_embedding' });
    expect(decideSample([face([1]), face([1])], { ok: true, problems: [] }, 0)).toEqual({ ok: false, problem: 'no_embedding' });
    expect(decideSample([face([1])], { ok: true, problems: [] }, 5)).toEqual({ ok: false, problem: 'full' });
  });

  it('saves three to five samples', () => {
    expect([2, 3, 5, 6].map(canSave)).toEqual([false, true, true, false]);
  });

  it('tells camera failures apart', () => {
    expect(cameraProblem({ name: 'NotAllowedError' })).toBe('denied');
    expect(cameraProblem({ name: 'NotFoundError' })).toBe('no_camera');
    expect(cameraProblem({ name: 'NotReadableError' })).toBe('busy');
    expect(cameraProblem(new Error('x'))).toBe('failed');
  });
});
