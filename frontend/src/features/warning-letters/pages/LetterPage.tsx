import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { Alert, Anchor, Card, Grid, Group, Stack, Text, Timeline, Title } from '@mantine/core';
import { IconArrowLeft, IconCircleCheck, IconExternalLink, IconInfoCircle } from '@tabler/icons-react';
import { useSession } from '@/auth/session';
import { NotFoundPage } from '@/components/errors';
import { PageLoader } from '@/components/PageLoader';
import { LetterActivationButton } from '@/features/portal/components/LetterActivationButton';
import { useFormatNumber } from '@/lib/numbers';
import { useFormatDate } from '@/lib/useFormatDate';
import { yearLabel } from '../academicYear';
import type { WarningLetter, WarningLetterEvent } from '../api';
import { HistoryCause } from '../components/HistoryCause';
import { PdfButton, StepButton } from '../components/LetterActions';
import { LetterStanding } from '../components/LetterStanding';
import { LevelBadge } from '../components/LevelBadge';
import { PointsProgress } from '../components/PointsProgress';
import { SendToParent } from '../components/SendToParent';
import { StatusBadge } from '../components/StatusBadge';
import { useLetter, useLevelColour, useStudentPoints } from '../hooks';
import { groupCode, LETTER_STEPS, levelName } from '../letters';
import { paths } from '../paths';
import { violationPath } from '../violationPaths';
import '@/app/pageStyles';

/** The status history: the server's events, else what the letter's own dates say. */
function historyOf(l: WarningLetter): WarningLetterEvent[] {
  if (l.events?.length) return l.events;
  const out: WarningLetterEvent[] = [{ status: 'draft', at: l.issued_at, actor_name: '', level: null, violation_id: null }];
  if (l.printed_at) out.push({ status: 'printed', at: l.printed_at, actor_name: '', level: null, violation_id: null });
  if (l.signed_at) out.push({ status: 'signed', at: l.signed_at, actor_name: '', level: null, violation_id: null });
  if (l.delivered_at) out.push({ status: 'delivered', at: l.delivered_at, actor_name: '', level: null, violation_id: null });
  if (l.withdrawn_at) out.push({ status: 'withdrawn', at: l.withdrawn_at, actor_name: '', level: null, violation_id: null });
  return out;
}

export default function LetterPage() {
  const { t } = useTranslation('warning-letters');
  const fmt = useFormatDate();
  const num = useFormatNumber();
  const { can } = useSession();
  const id = Number(useParams().id);
  const valid = Number.isSafeInteger(id) && id > 0;
  const letter = useLetter(valid ? id : 0);
  const points = useStudentPoints(letter.data?.student_id ?? 0, can('violations.view'));
  const colourOf = useLevelColour(points.data);
  if (!valid) return <NotFoundPage />;
  if (!letter.data) return <PageLoader />;
  const l = letter.data;
  const history = historyOf(l);
  const reached = LETTER_STEPS.indexOf(l.status);
  const colour = colourOf(l);

  return (
    <Stack gap="md" data-testid="letter-page">
      <Anchor component={Link} to={paths.letters} size="sm">
        <Group gap={4}>
          <IconArrowLeft size={16} aria-hidden />
          {t('backToList')}
        </Group>
      </Anchor>
      <Card withBorder padding="md">
        <Stack gap="sm">
          <Group gap="sm" wrap="wrap">
            <LevelBadge level={l.level} name={l.name} colour={colour} size="lg" />
            <StatusBadge status={l.status} testId="letter-status" />
          </Group>
          <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
            {t('letterFor', { level: levelName(l.level, l.name), student: l.student_name })}
          </Title>
          <Text size="sm" c="dimmed">
            {[l.class_name, l.student_nisn && t('fields.nisn', { nisn: l.student_nisn })].filter(Boolean).join(' · ')}
          </Text>
          <LetterStanding letter={l} />
          <Group gap="sm" wrap="wrap">
            <PdfButton letter={l} />
            <StepButton letter={l} />
            <SendToParent letter={l} />
            <LetterActivationButton letterId={l.id} studentId={l.student_id} withdrawn={l.status === 'withdrawn'} />
          </Group>
        </Stack>
      </Card>

      {l.past_year && (
        <Alert color="gray" icon={<IconInfoCircle />} title={t('pastYear.title', { year: l.academic_year ?? yearLabel(l.academic_year_start) })} data-testid="letter-past-year">
          {t('pastYear.body')}
        </Alert>
      )}

      {l.status === 'withdrawn' && (
        <Alert color="gray" icon={<IconInfoCircle />} title={t('withdrawn.title')}>
          {l.withdrawn_reason || t('withdrawn.body')}
        </Alert>
      )}

      <Grid gutter="md">
        <Grid.Col span={{ base: 12, md: 6 }}>
          <Card withBorder padding="md" h="100%">
            <Title order={2} size="h5" mb="sm">
              {t('details')}
            </Title>
            <Stack gap="xs">
              {l.number ? (
                <Text size="sm" data-testid="letter-number">
                  {t('fields.number', { number: l.number })}
                </Text>
              ) : (
                <Text size="sm" c="dimmed" data-testid="letter-number">
                  {l.status === 'withdrawn' ? t('fields.noNumberWithdrawn') : t('fields.noNumber')}
                </Text>
              )}
              {l.verify_code && (
                <Group gap="xs" wrap="wrap" data-testid="letter-verify">
                  <Text size="sm">{t('fields.verifyCode', { code: groupCode(l.verify_code) })}</Text>
                  {l.verify_url && (
                    <Anchor href={l.verify_url} target="_blank" rel="noopener noreferrer" size="sm" data-testid="letter-verify-link">
                      <Group gap={4} wrap="nowrap">
                        {t('fields.verifyOpen')}
                        <IconExternalLink size={14} aria-hidden />
                      </Group>
                    </Anchor>
                  )}
                </Group>
              )}
              <Text size="sm">{t('fields.pointsAtIssue', { points: num(l.points), min: num(l.min_points) })}</Text>
              <Text size="sm">{t('fields.issuedOn', { date: fmt(l.issued_at, 'dateTime') })}</Text>
              <Text size="sm" data-testid="letter-year">
                {t('fields.yearFrom', { year: l.academic_year ?? yearLabel(l.academic_year_start), date: fmt(l.academic_year_start, 'date') })}
              </Text>
              <Group gap="md" wrap="wrap">
                <Anchor component={Link} to={`/students/${l.student_id}`} size="sm">
                  {t('openStudent')}
                </Anchor>
                {l.violation_id && can('violations.view') && (
                  <Anchor component={Link} to={violationPath(l.violation_id)} size="sm">
                    {t('openViolation')}
                  </Anchor>
                )}
              </Group>
              {points.data && (
                <Stack gap={4} mt="sm">
                  <Text size="xs" c="dimmed">
                    {t('pointsNow')}
                  </Text>
                  <PointsProgress points={points.data} />
                </Stack>
              )}
            </Stack>
          </Card>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <Card withBorder padding="md" h="100%">
            <Title order={2} size="h5" mb="sm">
              {t('history.title')}
            </Title>
            <Timeline active={l.events?.length || l.status === 'withdrawn' ? history.length - 1 : Math.max(0, reached)} bulletSize={22} lineWidth={2} data-testid="letter-history">
              {history.map((e, i) => (
                <Timeline.Item key={`${e.status}-${i}`} bullet={<IconCircleCheck size={14} aria-hidden />} title={t(`status.${e.status}`, { defaultValue: e.status })}>
                  <Text size="sm">{fmt(e.at, 'dateTime')}</Text>
                  {e.actor_name && (
                    <Text size="xs" c="dimmed">
                      {t('history.by', { name: e.actor_name })}
                    </Text>
                  )}
                  <HistoryCause event={e} />
                </Timeline.Item>
              ))}
            </Timeline>
          </Card>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
