import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Box, Button, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconAlertCircle, IconLinkOff } from '@tabler/icons-react';
import { LanguageSwitch } from '@/components/LanguageSwitch';
import { CameraError, startCamera, stopCamera, type CameraProblem } from '../camera';
import type { FaceEngine } from '../engine/types';
import { loadEngine, type EngineModule } from '../engineModule';
import { kioskApi, type KioskError, type KioskInfo } from './api';
import { big, ChallengePrompt, Clock, ResultPanel } from './KioskParts';
import { kioskFailure } from './logic';
import { statusState, type KioskState } from './machine';
import { useKioskDriver } from './useKioskDriver';

type Setup = { state: 'starting' } | { state: 'ready' } | { state: 'camera'; problem: CameraProblem } | { state: 'engine' };

/** GET /face/kiosk is tried again this often while the server cannot be reached. */
const INFO_RETRY_MS = 5000;

/** Keeps the tablet's screen on while the kiosk runs (where the browser allows it). */
function useWakeLock() {
  useEffect(() => {
    type Sentinel = { release(): Promise<void> };
    const wl = (navigator as Navigator & { wakeLock?: { request(type: 'screen'): Promise<Sentinel> } }).wakeLock;
    if (!wl) return;
    let lock: Sentinel | null = null;
    let stopped = false;
    const take = () => {
      if (document.visibilityState !== 'visible') return;
      wl.request('screen').then(
        (l) => {
          if (stopped) void l.release().catch(() => {});
          else lock = l;
        },
        () => {},
      );
    };
    take();
    document.addEventListener('visibilitychange', take);
    return () => {
      stopped = true;
      document.removeEventListener('visibilitychange', take);
      void lock?.release().catch(() => {});
    };
  }, []);
}

/** The kiosk's own name and school, from GET /face/kiosk; a revoked token ends the pairing. */
function useKioskInfo(token: string, initial: KioskInfo | null, onRevoked: (err: KioskError) => void) {
  const [info, setInfo] = useState<KioskInfo | null>(initial);
  const revoked = useRef(onRevoked);
  revoked.current = onRevoked;
  useEffect(() => {
    if (initial) return;
    const calls = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = () => {
      kioskApi.info(token, calls.signal).then(setInfo, (err: unknown) => {
        const f = kioskFailure(err);
        if (f === 'aborted') return;
        if (f === 'revoked') revoked.current(err as KioskError);
        else timer = setTimeout(load, INFO_RETRY_MS);
      });
    };
    load();
    return () => {
      calls.abort();
      if (timer) clearTimeout(timer);
    };
  }, [token, initial]);
  return info;
}

/** The camera and the engine together, started once the page shows; both stop when it goes. */
function useCameraAndEngine(videoRef: React.RefObject<HTMLVideoElement | null>, attempt: number) {
  const [setup, setSetup] = useState<Setup>({ state: 'starting' });
  const [engine, setEngine] = useState<{ mod: EngineModule; engine: FaceEngine } | null>(null);
  useEffect(() => {
    let stopped = false;
    let stream: MediaStream | null = null;
    const video = videoRef.current;
    setSetup({ state: 'starting' });
    setEngine(null);
    // Started a task later, so an effect undone at once (React's StrictMode runs it twice in
    // development) never opens a second stream into the same video element.
    const timer = setTimeout(() => void start(), 0);
    const start = async () => {
      if (!video) return;
      const [cam, eng] = await Promise.allSettled([startCamera(video), loadEngine()]);
      if (cam.status === 'fulfilled') stream = cam.value;
      if (stopped) {
        stopCamera(stream, video.srcObject === stream ? video : null);
        return;
      }
      if (cam.status === 'rejected') {
        setSetup({ state: 'camera', problem: cam.reason instanceof CameraError ? cam.reason.problem : 'failed' });
        return;
      }
      if (eng.status === 'rejected') {
        setSetup({ state: 'engine' });
        return;
      }
      setEngine(eng.value);
      setSetup({ state: 'ready' });
      // A camera unplugged or taken by the system mid-day: stop the loop and say so, with Retry.
      const lost = () => {
        if (stopped) return;
        setEngine(null);
        setSetup({ state: 'camera', problem: 'lost' });
      };
      cam.value.getVideoTracks().forEach((track) => track.addEventListener('ended', lost, { once: true }));
    };
    return () => {
      stopped = true;
      clearTimeout(timer);
      stopCamera(stream, video && video.srcObject === stream ? video : null);
    };
  }, [videoRef, attempt]);
  return { setup, engine };
}

function statusText(t: (k: string) => string, s: KioskState): string {
  switch (s.phase) {
    case 'idle':
    case 'requesting':
      return t('kiosk.idle');
    case 'challenge':
      return t('kiosk.follow');
    case 'capturing':
    case 'checking':
      return t('kiosk.checkingScan');
    case 'result':
      return '';
    case 'error':
      return s.error === 'network' ? t('kiosk.networkError') : s.error === 'challenge' ? t('kiosk.challengeError') : t('kiosk.serverError');
  }
}

/**
 * The running kiosk: school and kiosk name, the clock, the mirrored camera, and one big
 * panel that says what to do (face the camera, follow the prompt) or who was recognised.
 */
export function KioskScreen({
  token,
  initialInfo,
  onUnpair,
}: {
  token: string;
  initialInfo: KioskInfo | null;
  /** Back to pairing; the message says why (a revoked token), null when unpaired by hand. */
  onUnpair: (message: string | null) => void;
}) {
  const { t } = useTranslation('face');
  const portrait = useMediaQuery('(orientation: portrait)', false, { getInitialValueInEffect: false });
  const videoRef = useRef<HTMLVideoElement>(null);
  const [attempt, setAttempt] = useState(0);
  const [confirming, setConfirming] = useState(false);
  const revoked = useCallback((err: KioskError) => onUnpair(err.message || t('kiosk.revoked')), [onUnpair, t]);
  const info = useKioskInfo(token, initialInfo, revoked);
  const { setup, engine } = useCameraAndEngine(videoRef, attempt);
  const state = useKioskDriver({ token, videoRef, engine, onRevoked: revoked });
  useWakeLock();

  const failedSetup = setup.state === 'camera' || setup.state === 'engine';
  const dataState = failedSetup ? 'error' : statusState(setup.state === 'ready' ? state.phase : 'loading');
  const running = setup.state === 'ready';

  return (
    <Box
      bg="dark.8"
      c="white"
      h="100dvh"
      style={{ display: 'flex', flexDirection: 'column', overflow: 'hidden' }}
      data-testid="kiosk-screen"
    >
      <Group justify="space-between" align="center" wrap="nowrap" px="xl" py="md" gap="md" bg="dark.9">
        <Stack gap={0} style={{ minWidth: 0 }}>
          <Text fw={700} lh={1.15} style={{ fontSize: big(1.5, 4, 2.25) }} truncate="end" data-testid="kiosk-school">
            {info?.school || info?.name || t('kiosk.title')}
          </Text>
          <Text size="xl" c="gray.4" truncate="end" data-testid="kiosk-name">
            {info?.school ? `${t('kiosk.title')} · ${info.name}` : t('kiosk.title')}
          </Text>
        </Stack>
        <Clock />
      </Group>

      <Box
        style={{
          flex: 1,
          minHeight: 0,
          display: 'flex',
          flexDirection: portrait ? 'column' : 'row',
          gap: 'var(--mantine-spacing-lg)',
          padding: 'var(--mantine-spacing-lg)',
        }}
      >
        <Box
          pos="relative"
          bg="black"
          style={{
            flex: portrait ? '0 0 auto' : '1 1 0',
            aspectRatio: portrait ? '4 / 3' : undefined,
            minHeight: 0,
            minWidth: 0,
            borderRadius: 'var(--mantine-radius-lg)',
            overflow: 'hidden',
            outline: state.phase === 'challenge' ? '6px solid var(--mantine-color-blue-5)' : undefined,
          }}
        >
          {/* Mirrored, as people expect to see themselves. Only the engine reads it; no frame is kept. */}
          <video
            ref={videoRef}
            data-testid="kiosk-camera"
            muted
            playsInline
            autoPlay
            style={{ width: '100%', height: '100%', objectFit: 'cover', transform: 'scaleX(-1)', display: 'block' }}
          />
          {setup.state === 'starting' && (
            <Stack pos="absolute" inset={0} align="center" justify="center" gap="sm">
              <Loader color="white" size="xl" />
            </Stack>
          )}
        </Box>

        <Stack
          justify="center"
          align="center"
          gap="lg"
          style={{ flex: portrait ? '1 1 0' : '0 0 40%', minHeight: 0, minWidth: 0 }}
        >
          {running && state.phase === 'challenge' && state.challenge && <ChallengePrompt kind={state.challenge.kind} />}
          {running && state.phase === 'result' && state.result && <ResultPanel result={state.result} millis={state.millis} />}
          {setup.state === 'camera' && (
            <Alert color="red" variant="filled" icon={<IconAlertCircle size={32} />} w="100%" data-testid="kiosk-camera-error" data-problem={setup.problem}>
              <Stack gap="md" align="flex-start">
                <Text style={{ fontSize: big(1.25, 3, 1.75) }}>{t(`camera.${setup.problem}`)}</Text>
                <Button size="lg" variant="white" color="red" onClick={() => setAttempt((n) => n + 1)}>
                  {t('kiosk.retry')}
                </Button>
              </Stack>
            </Alert>
          )}
          {setup.state === 'engine' && (
            <Alert color="red" variant="filled" icon={<IconAlertCircle size={32} />} w="100%" data-testid="kiosk-engine-error">
              <Stack gap="md" align="flex-start">
                <Text style={{ fontSize: big(1.25, 3, 1.75) }}>{t('kiosk.engineFailed')}</Text>
                <Button size="lg" variant="white" color="red" onClick={() => setAttempt((n) => n + 1)}>
                  {t('kiosk.retry')}
                </Button>
              </Stack>
            </Alert>
          )}
          <Stack gap="xs" align="center" ta="center" role="status" aria-live="polite">
            <Text
              fw={700}
              lh={1.15}
              style={{ fontSize: state.phase === 'challenge' || state.phase === 'result' ? big(1.25, 3, 1.75) : big(2, 5.5, 3.5) }}
              c={dataState === 'error' && !failedSetup ? 'orange.4' : undefined}
              data-testid="kiosk-status"
              data-state={dataState}
            >
              {setup.state === 'starting' ? t('kiosk.loading') : failedSetup ? '' : statusText(t, state)}
            </Text>
            {running && state.phase === 'idle' && (
              <Text c="gray.4" style={{ fontSize: big(1.25, 3, 1.75) }}>
                {t('kiosk.idleHint')}
              </Text>
            )}
          </Stack>
        </Stack>
      </Box>

      <Group justify="space-between" align="center" px="xl" py="xs" gap="md" wrap="nowrap">
        <Text size="sm" c="gray.4">
          {t('kiosk.noPhoto')}
        </Text>
        <Group gap="sm" wrap="nowrap">
          <LanguageSwitch size="sm" />
          <Button
            variant="subtle"
            color="gray"
            c="gray.4"
            size="sm"
            mih={44}
            leftSection={<IconLinkOff size={16} aria-hidden />}
            onClick={() => setConfirming(true)}
            data-testid="kiosk-unpair"
          >
            {t('kiosk.forget')}
          </Button>
        </Group>
      </Group>

      <Modal opened={confirming} onClose={() => setConfirming(false)} title={t('kiosk.forgetTitle')} centered data-testid="kiosk-unpair-dialog">
        <Stack gap="md">
          <Text>{t('kiosk.forgetBody')}</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" mih={44} onClick={() => setConfirming(false)}>
              {t('kiosk.cancel')}
            </Button>
            <Button color="red" mih={44} onClick={() => onUnpair(null)} data-testid="kiosk-unpair-confirm">
              {t('kiosk.forgetConfirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Box>
  );
}
