// The face engine: @vladmandic/human 3.3.6 on the tfjs wasm backend, its models and wasm
// files served by Tatib itself (/face/models/, /face/wasm/: scripts/face-assets.mjs), so no
// request leaves the school. This module is loaded only through engineModule.ts's dynamic
// import (its own chunk): the shell and the main bundle never carry it.
//
// What it adds to human: the observation the pages need (head angles in degrees with a fixed
// sign, eye openness from the eyelid distance in the refined mesh, sharpness and brightness of
// the face crop), the quality verdict for an enrolment sample, and the liveness challenge
// trackers. The server re-checks a challenge's figures (server/internal/face/scan.go); the
// thresholds here are a little stricter, so a pass here is a pass there.
import type { Config, FaceResult, Human as HumanType } from '@vladmandic/human';
import {
  FACE_MODEL,
  type ChallengeKind,
  type ChallengeState,
  type ChallengeTracker,
  type FaceEngine,
  type FaceObservation,
  type FrameResult,
  type QualityProblem,
  type QualityVerdict,
} from './types';

export { FACE_MODEL };
export type * from './types';

const BASE = import.meta.env.BASE_URL ?? '/';

/** human's configuration: face only, every model from Tatib, no caching between frames. */
function humanConfig(): Partial<Config> {
  return {
    backend: 'wasm',
    wasmPath: `${BASE}face/wasm/`,
    wasmPlatformFetch: false,
    modelBasePath: `${BASE}face/models/`,
    cacheModels: false,
    debug: false,
    async: true,
    warmup: 'none',
    // 0: every frame is detected afresh (a cached box would hide a blink).
    cacheSensitivity: 0,
    filter: { enabled: false },
    face: {
      enabled: true,
      detector: { modelPath: 'blazeface.json', rotation: false, maxDetected: 3, skipFrames: 0, skipTime: 0, minConfidence: 0.5, iouThreshold: 0.2, return: false, mask: false, scale: 1.4, square: false },
      mesh: { enabled: true, modelPath: 'facemesh.json', keepInvalid: false },
      attention: { enabled: false },
      iris: { enabled: true, modelPath: 'iris.json', scale: 2.3 },
      description: { enabled: true, modelPath: 'faceres.json', skipFrames: 0, skipTime: 0, minConfidence: 0.1 },
      emotion: { enabled: false },
      antispoof: { enabled: true, modelPath: 'antispoof.json', skipFrames: 0, skipTime: 0 },
      liveness: { enabled: true, modelPath: 'liveness.json', skipFrames: 0, skipTime: 0 },
      gear: { enabled: false },
    },
    body: { enabled: false },
    hand: { enabled: false },
    object: { enabled: false },
    gesture: { enabled: false },
    segmentation: { enabled: false },
  } as unknown as Partial<Config>;
}

// ---- Observations ----------------------------------------------------------------------

const DEG = 180 / Math.PI;

/**
 * Eye openness is the lid gap over the height of the eye's surrounding region (human's own
 * blink measure, gesture.ts, on the mesh the iris model refines), scaled so an average open
 * eye reads about 1. Measured on the test portraits: open 0.37–0.44, painted shut 0.21–0.26;
 * a real closed eye reads under 0.2 (human's blink gesture). Eye shapes differ, so a blink is
 * judged against the person's own open eyes (BLINK below, and the server's re-check).
 */
const OPEN_RATIO = 0.4;

type Point = [number, number, number?];

function gap(mesh: Point[], a: number, b: number): number {
  const p = mesh[a];
  const q = mesh[b];
  if (!p || !q) return 0;
  return Math.abs(p[1] - q[1]);
}

/** Openness of one eye from four mesh points: upper and lower lid, then the region's height. */
function openness(mesh: Point[], upper: number, lower: number, top: number, bottom: number): number {
  const region = gap(mesh, top, bottom);
  if (region <= 0) return 0;
  return clamp(gap(mesh, upper, lower) / region / OPEN_RATIO, 0, 1.5);
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, v));
}

/** A small grey crop of the face, for sharpness and brightness (nothing is kept). */
let scratch: HTMLCanvasElement | OffscreenCanvas | null = null;
const CROP = 96;

function cropStats(source: CanvasImageSource, box: [number, number, number, number]): { sharpness: number; brightness: number } {
  const [x, y, w, h] = box;
  if (w < 4 || h < 4) return { sharpness: 0, brightness: 0 };
  scratch ??= typeof OffscreenCanvas !== 'undefined' ? new OffscreenCanvas(CROP, CROP) : Object.assign(document.createElement('canvas'), { width: CROP, height: CROP });
  const ctx = scratch.getContext('2d', { willReadFrequently: true }) as CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D | null;
  if (!ctx) return { sharpness: 0, brightness: 0 };
  // The central part of the box: the face, without hair and background.
  const cx = x + w * 0.15;
  const cy = y + h * 0.15;
  ctx.drawImage(source, cx, cy, w * 0.7, h * 0.7, 0, 0, CROP, CROP);
  const px = ctx.getImageData(0, 0, CROP, CROP).data;
  return greyStats(px, CROP, CROP);
}

/** Mean grey level and the variance of the 4-neighbour Laplacian over an RGBA buffer. */
export function greyStats(px: Uint8ClampedArray, w: number, h: number): { sharpness: number; brightness: number } {
  const grey = new Float32Array(w * h);
  let sum = 0;
  for (let i = 0; i < w * h; i++) {
    const g = 0.299 * (px[i * 4] ?? 0) + 0.587 * (px[i * 4 + 1] ?? 0) + 0.114 * (px[i * 4 + 2] ?? 0);
    grey[i] = g;
    sum += g;
  }
  let n = 0;
  let mean = 0;
  let m2 = 0;
  for (let yy = 1; yy < h - 1; yy++) {
    for (let xx = 1; xx < w - 1; xx++) {
      const i = yy * w + xx;
      const lap = grey[i - 1]! + grey[i + 1]! + grey[i - w]! + grey[i + w]! - 4 * grey[i]!;
      n++;
      const d = lap - mean;
      mean += d / n;
      m2 += d * (lap - mean);
    }
  }
  return { sharpness: n > 1 ? m2 / (n - 1) : 0, brightness: sum / (w * h) };
}

function frameSize(source: HTMLVideoElement | HTMLCanvasElement | HTMLImageElement): { width: number; height: number } {
  if (source instanceof HTMLVideoElement) return { width: source.videoWidth, height: source.videoHeight };
  if (source instanceof HTMLImageElement) return { width: source.naturalWidth, height: source.naturalHeight };
  return { width: source.width, height: source.height };
}

/**
 * One human face as a FaceObservation. The head's yaw: its size is human's (from the 3D mesh),
 * its direction is read off the picture, where it cannot be mistaken: a face turned to the
 * person's left has the nose tip (mesh 1) right of the middle between the cheeks (234, 454)
 * in the camera's unmirrored frame. The types promise yaw < 0 for the person's left.
 */
function observe(f: FaceResult, source: HTMLVideoElement | HTMLCanvasElement | HTMLImageElement, withEmbedding: boolean): FaceObservation {
  const mesh = (f.mesh ?? []) as Point[];
  const angle = f.rotation?.angle ?? { yaw: 0, pitch: 0, roll: 0 };
  const box = f.box as [number, number, number, number];
  const stats = cropStats(source, box);
  return {
    box: { x: box[0], y: box[1], width: box[2], height: box[3] },
    frame: frameSize(source),
    score: f.score ?? 0,
    yaw: signedYaw(mesh, angle.yaw * DEG),
    pitch: angle.pitch * DEG,
    roll: angle.roll * DEG,
    // The person's left eye is on the image's right: mesh 386/374 (lids), 443/450 (region).
    eyeOpenLeft: mesh.length >= 468 ? openness(mesh, 386, 374, 443, 450) : 1,
    eyeOpenRight: mesh.length >= 468 ? openness(mesh, 159, 145, 223, 230) : 1,
    sharpness: stats.sharpness,
    brightness: stats.brightness,
    real: typeof f.real === 'number' ? f.real : null,
    live: typeof f.live === 'number' ? f.live : null,
    embedding: withEmbedding && f.embedding && f.embedding.length > 0 ? Array.from(f.embedding) : null,
  };
}

/** human's yaw in degrees, signed by where the nose is (see observe). */
export function signedYaw(mesh: Point[], humanYaw: number): number {
  const nose = mesh[1];
  const right = mesh[234];
  const left = mesh[454];
  if (!nose || !right || !left) return humanYaw;
  const width = Math.abs(left[0] - right[0]);
  const offset = nose[0] - (left[0] + right[0]) / 2;
  if (width <= 0 || Math.abs(offset) < 0.02 * width) return humanYaw;
  return offset > 0 ? -Math.abs(humanYaw) : Math.abs(humanYaw);
}

// ---- The engine ------------------------------------------------------------------------

let started: Promise<FaceEngine> | undefined;

/** Loads human, its wasm backend and the models once; later calls share the same engine. */
export function loadFaceEngine(): Promise<FaceEngine> {
  started ??= start().catch((err: unknown) => {
    started = undefined;
    throw err;
  });
  return started;
}

async function start(): Promise<FaceEngine> {
  const t0 = performance.now();
  const { Human } = await import('@vladmandic/human');
  const human: HumanType = new Human(humanConfig());
  await human.load();
  // One empty detection initialises the backend's kernels, so the first real frame is quick.
  const warm = document.createElement('canvas');
  warm.width = 64;
  warm.height = 64;
  await human.detect(warm);
  const loadMillis = Math.round(performance.now() - t0);
  const backend = String(human.tf?.getBackend?.() ?? 'wasm');
  let busy: Promise<unknown> = Promise.resolve();
  return {
    async detect(source, opts) {
      const withEmbedding = opts?.embedding === true;
      const run = busy.then(async () => {
        const t = performance.now();
        const res = await human.detect(source, {
          face: { description: { enabled: withEmbedding }, antispoof: { enabled: withEmbedding }, liveness: { enabled: withEmbedding } },
        } as unknown as Partial<Config>);
        const faces = (res.face ?? []).map((f) => observe(f, source, withEmbedding));
        return { faces, millis: Math.round(performance.now() - t) } satisfies FrameResult;
      });
      busy = run.catch(() => undefined);
      return run;
    },
    info() {
      return { backend, loadMillis, version: human.version };
    },
  };
}

// ---- Quality of an enrolment sample ------------------------------------------------------

/** The limits a sample must meet; the kiosk uses the same for the frame it sends. */
export const QUALITY = {
  /** The face's width as a share of the frame's. */
  minWidthShare: 0.18,
  maxYaw: 15,
  maxPitch: 20,
  minSharpness: 50,
  minBrightness: 50,
  maxBrightness: 215,
  minOpen: 0.45,
  minScore: 0.6,
};

/** Why the frame's faces would make a poor sample (all problems, most important first). */
export function checkQuality(faces: FaceObservation[]): QualityVerdict {
  const good = faces.filter((f) => f.score >= QUALITY.minScore);
  if (good.length === 0) return { ok: false, problems: ['no_face'] };
  if (good.length > 1) return { ok: false, problems: ['many_faces'] };
  const f = good[0]!;
  const problems: QualityProblem[] = [];
  if (f.frame.width > 0 && f.box.width / f.frame.width < QUALITY.minWidthShare) problems.push('too_small');
  if (Math.abs(f.yaw) > QUALITY.maxYaw || Math.abs(f.pitch) > QUALITY.maxPitch) problems.push('not_frontal');
  if (f.brightness < QUALITY.minBrightness) problems.push('too_dark');
  if (f.brightness > QUALITY.maxBrightness) problems.push('too_bright');
  if (f.sharpness < QUALITY.minSharpness) problems.push('blurry');
  if ((f.eyeOpenLeft + f.eyeOpenRight) / 2 < QUALITY.minOpen) problems.push('eyes_closed');
  return { ok: problems.length === 0, problems };
}

// ---- Liveness challenges -----------------------------------------------------------------

/**
 * A blink: the eyes seen open (at least OPEN), then down to CLOSED of the highest openness so
 * far, then up again by REOPEN of it. The server accepts open_min ≤ 0.8 × open_max with
 * open_max ≥ 0.5 (server/internal/face/scan.go); these are a little stricter.
 */
export const BLINK = { open: 0.55, closed: 0.78, reopen: 0.12 };
export const TURN = { start: 10, peak: 18 };
/** Fewest frames a challenge is decided on (the server wants 3). */
export const MIN_FRAMES = 3;

/** A tracker for one challenge, fed one frame's single face at a time. */
export function createChallengeTracker(kind: ChallengeKind): ChallengeTracker {
  let frames = 0;
  let firstAt: number | null = null;
  let lastAt: number | null = null;
  let state: ChallengeState = 'waiting';
  // Blink.
  let openMax: number | null = null;
  let openMin: number | null = null;
  let closedSeen = false;
  // Turn.
  let yawStart: number | null = null;
  let yawPeak: number | null = null;
  // Extra signals.
  let realMax: number | null = null;
  let liveMax: number | null = null;
  const dir = kind === 'turn_left' ? -1 : 1;

  function push(face: FaceObservation | null, at: number): ChallengeState {
    if (state !== 'waiting' || !face) return state;
    frames++;
    firstAt ??= at;
    lastAt = at;
    if (face.real !== null) realMax = Math.max(realMax ?? 0, face.real);
    if (face.live !== null) liveMax = Math.max(liveMax ?? 0, face.live);
    if (kind === 'blink') {
      const open = (face.eyeOpenLeft + face.eyeOpenRight) / 2;
      if (!closedSeen) {
        // Before the lids come down: the highest openness so far is the reference.
        if (openMax === null || open > openMax) openMax = open;
        if (openMax >= BLINK.open && open <= BLINK.closed * openMax) {
          closedSeen = true;
          openMin = open;
        }
      } else {
        if (openMin === null || open < openMin) openMin = open;
        if (openMax !== null && open - (openMin ?? open) >= BLINK.reopen * openMax && frames >= MIN_FRAMES) state = 'passed';
      }
    } else {
      // A turn counts from a frontal start: until one comes, the start moves with the face.
      if (yawStart === null) {
        if (Math.abs(face.yaw) <= TURN.start) yawStart = face.yaw;
        return state;
      }
      const toward = dir * face.yaw;
      if (yawPeak === null || toward > dir * yawPeak) yawPeak = face.yaw;
      if (toward >= TURN.peak && frames >= MIN_FRAMES) state = 'passed';
    }
    return state;
  }

  return {
    kind,
    push,
    summary() {
      const out: ReturnType<ChallengeTracker['summary']> = {
        frames,
        millis: firstAt !== null && lastAt !== null ? Math.round(lastAt - firstAt) : 0,
      };
      if (kind === 'blink') {
        if (openMin !== null) out.open_min = round3(openMin);
        if (openMax !== null) out.open_max = round3(openMax);
      } else {
        if (yawStart !== null) out.yaw_start = round3(yawStart);
        if (yawPeak !== null) out.yaw_peak = round3(yawPeak);
      }
      if (realMax !== null) out.real_score = round3(realMax);
      if (liveMax !== null) out.live_score = round3(liveMax);
      return out;
    },
  };
}

function round3(v: number): number {
  return Math.round(v * 1000) / 1000;
}

/** One of the allowed challenges, picked with the browser's random source. */
export function randomChallenge(allowed: ChallengeKind[]): ChallengeKind {
  const kinds = allowed.length > 0 ? allowed : (['blink'] as ChallengeKind[]);
  const r = new Uint32Array(1);
  crypto.getRandomValues(r);
  return kinds[(r[0] ?? 0) % kinds.length] ?? 'blink';
}
