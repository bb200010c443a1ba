// The face engine's interface: what the enrolment page and the kiosk use, whatever runs
// underneath (@vladmandic/human 3.3.6 on the tfjs wasm backend, served by Tatib itself).
// Everything under engine/ is loaded only by the face pages (its own chunk).

/** The model name the server stores with every embedding; a scan is matched only against it. */
export const FACE_MODEL = 'human-3.3.6-faceres';

export type ChallengeKind = 'blink' | 'turn_left' | 'turn_right';

/** One detected face in one video frame. */
export interface FaceObservation {
  /** Box in source pixels. */
  box: { x: number; y: number; width: number; height: number };
  /** The frame's size in pixels. */
  frame: { width: number; height: number };
  /** Detector confidence, 0–1. */
  score: number;
  /** Head angles in degrees: yaw < 0 is turned to the person's left, > 0 to their right. */
  yaw: number;
  pitch: number;
  roll: number;
  /** Eye openness, 0 (closed) – 1 (wide open), per eye, from the eyelid distance in the mesh. */
  eyeOpenLeft: number;
  eyeOpenRight: number;
  /** Sharpness of the face crop (variance of the Laplacian on grey levels). */
  sharpness: number;
  /** Mean brightness of the face crop, 0–255. */
  brightness: number;
  /** The detector's own anti-spoof (real) and liveness scores, 0–1, extra signals only. */
  real: number | null;
  live: number | null;
  /** The face's embedding (faceres, 1024 numbers), or null when not computed. */
  embedding: number[] | null;
}

/** One frame's result: every face found. */
export interface FrameResult {
  faces: FaceObservation[];
  /** Milliseconds the detection took. */
  millis: number;
}

/** Why a sample is refused (i18n keys face:quality.<code>). */
export type QualityProblem = 'no_face' | 'many_faces' | 'not_frontal' | 'blurry' | 'too_dark' | 'too_bright' | 'too_small' | 'eyes_closed';

export interface QualityVerdict {
  ok: boolean;
  problems: QualityProblem[];
}

export interface FaceEngine {
  /** Detects faces in the current video frame; embeddings only when asked (they cost time). */
  detect(source: HTMLVideoElement | HTMLCanvasElement | HTMLImageElement, opts?: { embedding?: boolean }): Promise<FrameResult>;
  /** The backend in use ("wasm") and the load time, for the kiosk's status line. */
  info(): { backend: string; loadMillis: number; version: string };
}

/** The state of a liveness challenge as frames come in. */
export type ChallengeState = 'waiting' | 'passed' | 'failed';

export interface ChallengeTracker {
  kind: ChallengeKind;
  /** Feed one frame's single face (or null when no face or many); returns the state after it. */
  push(face: FaceObservation | null, atMillis: number): ChallengeState;
  /** The observations for the server (api FaceChallengeResult without id/kind/passed). */
  summary(): {
    open_min?: number;
    open_max?: number;
    yaw_start?: number;
    yaw_peak?: number;
    real_score?: number;
    live_score?: number;
    frames: number;
    millis: number;
  };
}
