import type { ChallengeKind, ChallengeTracker, FaceEngine, FaceObservation, QualityVerdict } from './engine/types';

/**
 * What the face pages use of engine/index.ts. The engine (@vladmandic/human and its wasm) is
 * loaded only through this dynamic import, so it lands in its own chunk: the student page,
 * the shell and the main bundle never carry it.
 */
export interface EngineModule {
  loadFaceEngine(): Promise<FaceEngine>;
  checkQuality(faces: FaceObservation[]): QualityVerdict;
  createChallengeTracker(kind: ChallengeKind, opts?: Record<string, unknown>): ChallengeTracker;
  randomChallenge(allowed: ChallengeKind[]): ChallengeKind;
  FACE_MODEL: string;
}

let loading: Promise<EngineModule> | undefined;

/** The engine module (one download, shared by the enrol page and the kiosk); retried after a failure. */
export function loadEngineModule(): Promise<EngineModule> {
  loading ??= (import('@/features/face/engine') as Promise<unknown> as Promise<EngineModule>).catch((err: unknown) => {
    loading = undefined;
    throw err;
  });
  return loading;
}

/** The module and its started engine (models loaded, backend ready). */
export async function loadEngine(): Promise<{ mod: EngineModule; engine: FaceEngine }> {
  const mod = await loadEngineModule();
  const engine = await mod.loadFaceEngine();
  return { mod, engine };
}
