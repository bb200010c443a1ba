import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { Alert, Anchor, Badge, Box, Button, Card, CloseButton, Grid, Group, Loader, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconArrowLeft, IconCamera, IconCheck, IconDeviceFloppy, IconRefresh } from '@tabler/icons-react';
import { isApiError } from '@/api/errors';
import { NotFoundPage } from '@/components/errors';
import { LeaveGuard } from '@/components/LeaveGuard';
import { PageHeader } from '@/components/PageHeader';
import { PageLoader } from '@/components/PageLoader';
import { errorMessage } from '@/components/serverErrors';
import { MAX_SAMPLES, MIN_SAMPLES, type FaceStatus } from '../api';
import { CameraError, startCamera, stopCamera, type CameraProblem } from '../camera';
import type { FaceEngine, QualityProblem, QualityVerdict } from '../engine/types';
import { loadEngine, type EngineModule } from '../engineModule';
import { useEnrol, useFaceStatus } from '../hooks';
import { studentPath } from '../paths';
import { canSave, decideSample, firstProblem } from '../samples';
import '@/app/pageStyles';

/** The live quality line is refreshed about four times a second. */
const LIVE_INTERVAL_MS = 250;

type Setup = { state: 'starting' } | { state: 'ready' } | { state: 'camera'; problem: CameraProblem } | { state: 'engine' };

interface Sample {
  key: number;
  embedding: number[];
}

/** Runs one engine call at a time (the live line and a capture never overlap). */
function useSerial() {
  const chain = useRef<Promise<unknown>>(Promise.resolve());
  return useCallback(<T,>(fn: () => Promise<T>): Promise<T> => {
    const next = chain.current.then(fn, fn);
    chain.current = next.catch(() => undefined);
    return next;
  }, []);
}

function Capture({ status, onRestart }: { status: FaceStatus; onRestart: () => void }) {
  const { t } = useTranslation('face');
  const { t: tc } = useTranslation();
  const videoRef = useRef<HTMLVideoElement>(null);
  const engineRef = useRef<{ mod: EngineModule; engine: FaceEngine } | null>(null);
  const serial = useSerial();
  const [setup, setSetup] = useState<Setup>({ state: 'starting' });
  const [quality, setQuality] = useState<QualityVerdict | null>(null);
  const [samples, setSamples] = useState<Sample[]>([]);
  const [refused, setRefused] = useState<QualityProblem | 'no_embedding' | 'full' | null>(null);
  const [capturing, setCapturing] = useState(false);
  const [done, setDone] = useState<FaceStatus | null>(null);
  const [saveError, setSaveError] = useState<string | null>(null);
  const nextKey = useRef(1);
  const enrol = useEnrol(status.student_id);

  // Camera and engine together; both stop when the page is left or the face is saved.
  useEffect(() => {
    if (done) return;
    let stopped = false;
    let stream: MediaStream | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const video = videoRef.current;

    const live = async () => {
      if (stopped) return;
      const started = performance.now();
      const eng = engineRef.current;
      if (eng && video && video.readyState >= 2) {
        try {
          const frame = await serial(() => eng.engine.detect(video, { embedding: false }));
          if (!stopped) setQuality(eng.mod.checkQuality(frame.faces));
        } catch {
          /* one bad frame: the next one tells */
        }
      }
      if (!stopped) timer = setTimeout(() => void live(), Math.max(0, LIVE_INTERVAL_MS - (performance.now() - started)));
    };

    (async () => {
      if (!video) return;
      const [cam, eng] = await Promise.allSettled([startCamera(video), loadEngine()]);
      if (cam.status === 'fulfilled') stream = cam.value;
      if (stopped) {
        stopCamera(stream, video);
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
      engineRef.current = eng.value;
      setSetup({ state: 'ready' });
      void live();
      // A camera unplugged mid-capture: no more samples from its frozen last frame.
      cam.value.getVideoTracks().forEach((track) =>
        track.addEventListener(
          'ended',
          () => {
            if (stopped) return;
            engineRef.current = null;
            setQuality(null);
            setSetup({ state: 'camera', problem: 'lost' });
          },
          { once: true },
        ),
      );
    })();

    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      stopCamera(stream, video);
    };
  }, [done, serial]);

  const capture = async () => {
    const eng = engineRef.current;
    const video = videoRef.current;
    if (!eng || !video) return;
    setCapturing(true);
    setRefused(null);
    try {
      const frame = await serial(() => eng.engine.detect(video, { embedding: true }));
      const verdict = eng.mod.checkQuality(frame.faces);
      setQuality(verdict);
      const decision = decideSample(frame.faces, verdict, samples.length);
      if (decision.ok) {
        setSamples((s) => [...s, { key: nextKey.current++, embedding: decision.embedding }]);
        setSaveError(null);
      } else {
        setRefused(decision.problem);
      }
    } catch {
      setRefused('no_embedding');
    } finally {
      setCapturing(false);
    }
  };

  const save = () => {
    const eng = engineRef.current;
    if (!eng || !canSave(samples.length)) return;
    setSaveError(null);
    enrol.mutate(
      { model: eng.mod.FACE_MODEL, embeddings: samples.map((s) => s.embedding) },
      {
        onSuccess: (st) => {
          setDone(st);
          setSamples([]);
        },
        onError: (err) => {
          if (isApiError(err) && err.hasFieldErrors) setSaveError([err.message, ...Object.values(err.fields)].filter(Boolean).join(' '));
          else setSaveError(errorMessage(err, tc));
        },
      },
    );
  };

  const problem = quality ? firstProblem(quality.problems) : null;
  const dirty = samples.length > 0 && !done;

  if (done) {
    return (
      <Stack gap="md">
        <Alert color="teal" icon={<IconCheck />} data-testid="face-enrol-done">
          {t('enrol.done', { name: done.student_name, count: done.samples })}
        </Alert>
        <Group gap="sm" wrap="wrap">
          <Button component={Link} to={studentPath(done.student_id)} mih={44} leftSection={<IconArrowLeft size={16} aria-hidden />}>
            {t('enrol.back')}
          </Button>
          <Button variant="default" mih={44} leftSection={<IconRefresh size={16} aria-hidden />} onClick={onRestart}>
            {t('enrol.again')}
          </Button>
        </Group>
      </Stack>
    );
  }

  return (
    <Grid gutter="md">
      <Grid.Col span={{ base: 12, md: 7 }}>
        <Card withBorder padding={0} style={{ overflow: 'hidden' }}>
          <Box pos="relative" bg="dark.8" style={{ aspectRatio: '4 / 3' }}>
            {/* Mirrored like a mirror, which is how people expect to see themselves. */}
            <video
              ref={videoRef}
              data-testid="face-camera"
              muted
              playsInline
              autoPlay
              style={{ width: '100%', height: '100%', objectFit: 'cover', transform: 'scaleX(-1)', display: 'block' }}
            />
            {setup.state === 'starting' && (
              <Stack pos="absolute" inset={0} align="center" justify="center" gap="xs" c="white">
                <Loader color="white" />
                <Text size="sm">
                  {t('camera.starting')} {t('enrol.engineLoading')}
                </Text>
              </Stack>
            )}
          </Box>
        </Card>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 5 }}>
        <Stack gap="md">
          {setup.state === 'camera' && (
            <Alert color="red" icon={<IconAlertCircle />} role="alert" data-testid="face-camera-error" data-problem={setup.problem}>
              <Stack gap="xs" align="flex-start">
                <Text size="sm">{t(`camera.${setup.problem}`)}</Text>
                <Button size="sm" mih={44} variant="default" onClick={onRestart}>
                  {t('camera.retry')}
                </Button>
              </Stack>
            </Alert>
          )}
          {setup.state === 'engine' && (
            <Alert color="red" icon={<IconAlertCircle />} role="alert" data-testid="face-engine-error">
              <Stack gap="xs" align="flex-start">
                <Text size="sm">{t('enrol.engineFailed')}</Text>
                <Button size="sm" mih={44} variant="default" onClick={onRestart}>
                  {t('camera.retry')}
                </Button>
              </Stack>
            </Alert>
          )}
          <Text
            size="lg"
            fw={600}
            role="status"
            aria-live="polite"
            c={quality?.ok ? 'teal.9' : quality ? 'orange.9' : 'dimmed'}
            data-testid="face-quality"
            data-ok={quality?.ok ? 'true' : 'false'}
            data-problems={(quality?.problems ?? []).join(',')}
          >
            {setup.state !== 'ready' ? '—' : !quality ? t('quality.waiting') : quality.ok ? t('quality.ok') : t(`quality.${problem ?? 'no_face'}`)}
          </Text>
          <Button
            size="lg"
            mih={48}
            leftSection={<IconCamera size={20} aria-hidden />}
            onClick={() => void capture()}
            loading={capturing}
            disabled={setup.state !== 'ready' || samples.length >= MAX_SAMPLES}
            data-testid="face-capture"
          >
            {t('enrol.capture')}
          </Button>
          {refused && (
            <Alert color="orange" variant="light" role="alert" data-testid="face-sample-refused" data-problem={refused}>
              {t('enrol.refused', { reason: t(`quality.${refused}`) })}
            </Alert>
          )}
          <Stack gap="xs">
            <Text size="sm" fw={500} data-testid="face-sample-count" data-count={samples.length}>
              {t('enrol.sampleCount', { count: samples.length, min: MIN_SAMPLES, max: MAX_SAMPLES })}
            </Text>
            {samples.length > 0 && (
              <Group gap="xs" wrap="wrap">
                {samples.map((s, i) => (
                  <Badge key={s.key} size="lg" variant="light" h={44} pr={4} rightSection={<CloseButton size="md" aria-label={t('enrol.removeSample', { n: i + 1 })} onClick={() => setSamples((all) => all.filter((x) => x.key !== s.key))} />} data-testid={`face-sample-${i + 1}`}>
                    {t('enrol.sample', { n: i + 1 })}
                  </Badge>
                ))}
              </Group>
            )}
          </Stack>
          {status.samples > 0 && (
            <Text size="sm" c="dimmed">
              {t('enrol.replaces', { count: status.samples })}
            </Text>
          )}
          {saveError && (
            <Alert color="red" icon={<IconAlertCircle />} role="alert" data-testid="face-enrol-error">
              {saveError}
            </Alert>
          )}
          <Button
            size="lg"
            mih={48}
            color="teal"
            leftSection={<IconDeviceFloppy size={20} aria-hidden />}
            onClick={save}
            loading={enrol.isPending}
            disabled={!canSave(samples.length) || setup.state !== 'ready'}
            data-testid="face-enrol-save"
          >
            {t('enrol.save')}
          </Button>
          {!canSave(samples.length) && (
            <Text size="xs" c="dimmed">
              {t('enrol.needMore', { min: MIN_SAMPLES })}
            </Text>
          )}
          <Text size="xs" c="dimmed">
            {t('card.noPhoto')}
          </Text>
        </Stack>
      </Grid.Col>
      <LeaveGuard dirty={dirty} title={t('enrol.leaveTitle')} body={t('enrol.leaveBody')} stay={t('enrol.stay')} leave={t('enrol.leave')} testId="face-enrol-leave" stayTestId="face-enrol-stay" leaveTestId="face-enrol-leave-confirm" />
    </Grid>
  );
}

/**
 * Enrolment (/students/:id/face, face.enrol): 3–5 face samples from the device camera with a
 * live quality line; only the embeddings go to the server, no image is kept anywhere.
 */
export default function EnrolPage() {
  const { t } = useTranslation('face');
  const { t: tc } = useTranslation();
  const id = Number(useParams().id);
  const valid = Number.isSafeInteger(id) && id > 0;
  const status = useFaceStatus(valid ? id : 0);
  const [attempt, setAttempt] = useState(0);
  if (!valid) return <NotFoundPage />;
  if (status.isError && isApiError(status.error) && status.error.status === 404) return <NotFoundPage />;
  if (status.isPending) return <PageLoader />;

  const s = status.data;
  return (
    <Stack gap="md" data-testid="face-enrol-page">
      <Anchor component={Link} to={studentPath(id)} size="sm">
        <Group gap={4}>
          <IconArrowLeft size={16} />
          {t('enrol.back')}
        </Group>
      </Anchor>
      <PageHeader title={s ? `${t('enrol.title')} — ${s.student_name}` : t('enrol.title')} description={t('enrol.intro')} />
      {status.isError && (
        <Alert color="red" icon={<IconAlertCircle />} role="alert">
          {errorMessage(status.error, tc)}
        </Alert>
      )}
      {s && !s.consent && (
        <Alert color="orange" icon={<IconAlertCircle />} data-testid="face-enrol-no-consent">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{t('enrol.noConsent', { name: s.student_name })}</Text>
            <Button component={Link} to={studentPath(id)} variant="default" mih={44}>
              {t('enrol.back')}
            </Button>
          </Stack>
        </Alert>
      )}
      {s?.consent && <Capture key={attempt} status={s} onRestart={() => setAttempt((n) => n + 1)} />}
    </Stack>
  );
}
