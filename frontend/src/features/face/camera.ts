/**
 * The device camera for the face pages: 640×480, the user-facing camera, no sound. Nothing
 * here keeps a frame; the video element is only read by the engine.
 */

/** Why the camera could not start (i18n face:camera.<code>). */
export type CameraProblem = 'unsupported' | 'denied' | 'no_camera' | 'busy' | 'failed' | 'lost';

export const CAMERA_CONSTRAINTS: MediaStreamConstraints = {
  audio: false,
  video: { width: { ideal: 640 }, height: { ideal: 480 }, facingMode: 'user' },
};

/** Sorts a getUserMedia failure into what a person can do about it. */
export function cameraProblem(err: unknown): CameraProblem {
  const name = typeof err === 'object' && err !== null && 'name' in err ? String((err as { name: unknown }).name) : '';
  switch (name) {
    case 'NotAllowedError':
    case 'PermissionDeniedError':
    case 'SecurityError':
      return 'denied';
    case 'NotFoundError':
    case 'DevicesNotFoundError':
    case 'OverconstrainedError':
      return 'no_camera';
    case 'NotReadableError':
    case 'TrackStartError':
    case 'AbortError':
      return 'busy';
    case 'TypeError':
      return 'unsupported';
    default:
      return 'failed';
  }
}

export class CameraError extends Error {
  constructor(readonly problem: CameraProblem) {
    super(`camera: ${problem}`);
    this.name = 'CameraError';
  }
}

/** Starts the camera into `video`; throws CameraError. */
export async function startCamera(video: HTMLVideoElement): Promise<MediaStream> {
  const media = typeof navigator !== 'undefined' ? navigator.mediaDevices : undefined;
  // No mediaDevices: an insecure page (http other than localhost) or a browser without a camera API.
  if (!media?.getUserMedia) throw new CameraError('unsupported');
  let stream: MediaStream;
  try {
    stream = await media.getUserMedia(CAMERA_CONSTRAINTS);
  } catch (err) {
    throw new CameraError(cameraProblem(err));
  }
  video.muted = true;
  video.playsInline = true;
  video.srcObject = stream;
  try {
    await video.play();
  } catch {
    /* autoplay of a muted stream is allowed; a refused play still shows frames once allowed */
  }
  if (video.readyState < 2) {
    await new Promise<void>((resolve) => {
      const done = () => resolve();
      video.addEventListener('loadeddata', done, { once: true });
      setTimeout(done, 3000);
    });
  }
  return stream;
}

/** Stops every track and lets go of the video element. */
export function stopCamera(stream: MediaStream | null, video?: HTMLVideoElement | null): void {
  stream?.getTracks().forEach((t) => t.stop());
  // Only our own stream: a page's effect run twice (React's StrictMode) must not blank the
  // stream the second run started.
  if (video && (stream === null || video.srcObject === stream)) video.srcObject = null;
}
