import type { FaceObservation, QualityProblem, QualityVerdict } from './engine/types';
import { MAX_SAMPLES, MIN_SAMPLES } from './api';

/** The order a refused sample's problems are told in: the one to fix first. */
const PRIORITY: QualityProblem[] = ['no_face', 'many_faces', 'too_small', 'not_frontal', 'eyes_closed', 'too_dark', 'too_bright', 'blurry'];

/** The problem to tell first (null when none). */
export function firstProblem(problems: readonly QualityProblem[]): QualityProblem | null {
  for (const p of PRIORITY) if (problems.includes(p)) return p;
  return problems[0] ?? null;
}

export type SampleDecision = { ok: true; embedding: number[] } | { ok: false; problem: QualityProblem | 'no_embedding' | 'full' };

/**
 * Whether a captured frame becomes a sample: quality ok, exactly one face with an embedding
 * of finite numbers, and room for one more.
 */
export function decideSample(faces: FaceObservation[], verdict: QualityVerdict, have: number): SampleDecision {
  if (have >= MAX_SAMPLES) return { ok: false, problem: 'full' };
  if (!verdict.ok) return { ok: false, problem: firstProblem(verdict.problems) ?? 'no_face' };
  const emb = faces.length === 1 ? faces[0]!.embedding : null;
  if (!emb || emb.length === 0 || !emb.every(Number.isFinite)) return { ok: false, problem: 'no_embedding' };
  return { ok: true, embedding: [...emb] };
}

export function canSave(count: number): boolean {
  return count >= MIN_SAMPLES && count <= MAX_SAMPLES;
}
