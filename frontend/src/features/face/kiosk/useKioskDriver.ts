import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import type { ChallengeTracker, FaceEngine } from '../engine/types';
import type { EngineModule } from '../engineModule';
import { kioskApi, type KioskError } from './api';
import { capturedEmbedding, effectOf, frameDelay, frameEvent, kioskFailure, scanInput } from './logic';
import { initialKioskState, kioskStep, type KioskEvent, type KioskState } from './machine';

/** The machine's clock ticks this often (timeouts, how long a result stays). */
const TICK_MS = 250;

export interface DriverOptions {
  token: string;
  videoRef: RefObject<HTMLVideoElement | null>;
  /** The engine once loaded; the loop runs only with it. */
  engine: { mod: EngineModule; engine: FaceEngine } | null;
  /** Any call answered 401: the token was revoked. */
  onRevoked: (err: KioskError) => void;
}

/**
 * The kiosk's driver loop: reads the camera through the engine, one detection at a time,
 * feeds what happened to machine.ts, and makes the calls the machine's transitions ask for.
 * Nothing is kept of a frame but the numbers the machine and the server need.
 */
export function useKioskDriver({ token, videoRef, engine, onRevoked }: DriverOptions): KioskState {
  const [state, setState] = useState<KioskState>(initialKioskState);
  const stateRef = useRef<KioskState>(initialKioskState);
  const trackerRef = useRef<ChallengeTracker | null>(null);
  const revokedRef = useRef(onRevoked);
  revokedRef.current = onRevoked;

  const start = useCallback(
    (eng: { mod: EngineModule; engine: FaceEngine }, video: HTMLVideoElement) => {
      let stopped = false;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const calls = new AbortController();

      const failed = (err: unknown) => {
        const f = kioskFailure(err);
        if (stopped || f === 'aborted') return;
        if (f === 'revoked') {
          stopped = true;
          revokedRef.current(err as KioskError);
          return;
        }
        dispatch({ type: 'failed', at: performance.now(), error: f });
      };

      const dispatch = (e: KioskEvent) => {
        if (stopped) return;
        const prev = stateRef.current;
        const next = kioskStep(prev, e);
        if (next === prev) return;
        stateRef.current = next;
        setState(next);
        switch (effectOf(prev, next)) {
          case 'request_challenge':
            trackerRef.current = null;
            kioskApi.challenge(token, calls.signal).then((challenge) => dispatch({ type: 'challenge', at: performance.now(), challenge }), failed);
            break;
          case 'start_tracker':
            trackerRef.current = next.challenge ? eng.mod.createChallengeTracker(next.challenge.kind) : null;
            break;
          case 'send_scan': {
            const input = scanInput(eng.mod.FACE_MODEL, next, trackerRef.current);
            trackerRef.current = null;
            if (!input) break;
            kioskApi.scan(token, input, calls.signal).then((result) => dispatch({ type: 'scanned', at: performance.now(), result }), failed);
            break;
          }
        }
      };

      const frame = async () => {
        if (stopped) return;
        const s = stateRef.current;
        try {
          if (video.readyState >= 2) {
            const at = performance.now();
            if (s.phase === 'idle') {
              const r = await eng.engine.detect(video);
              dispatch(frameEvent(r.faces, at));
            } else if (s.phase === 'challenge' && trackerRef.current) {
              const tracker = trackerRef.current;
              const r = await eng.engine.detect(video);
              const seen = performance.now();
              if (trackerRef.current === tracker) {
                dispatch({ type: 'tracked', at: seen, state: tracker.push(r.faces.length === 1 ? r.faces[0]! : null, at) });
              }
            } else if (s.phase === 'capturing') {
              const r = await eng.engine.detect(video, { embedding: true });
              dispatch({ type: 'captured', at: performance.now(), embedding: capturedEmbedding(r.faces, eng.mod.checkQuality(r.faces)) });
            }
          }
        } catch {
          /* one bad frame: the next one tells */
        }
        if (!stopped) timer = setTimeout(() => void frame(), frameDelay(stateRef.current.phase));
      };

      const tick = setInterval(() => dispatch({ type: 'tick', at: performance.now() }), TICK_MS);
      void frame();

      return () => {
        stopped = true;
        calls.abort();
        clearInterval(tick);
        if (timer) clearTimeout(timer);
      };
    },
    [token],
  );

  useEffect(() => {
    const video = videoRef.current;
    if (!engine || !video) return;
    stateRef.current = initialKioskState;
    setState(initialKioskState);
    return start(engine, video);
  }, [engine, start, videoRef]);

  return state;
}
