import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Anchor, Badge, Button, Card, Grid, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconHistory, IconPlus } from '@tabler/icons-react';
import { useSession } from '@/auth/session';
import { useFormatNumber } from '@/lib/numbers';
import { useFormatDate } from '@/lib/useFormatDate';
import { DEFAULT_LETTER_FILTERS, lettersFiltersToSearch } from '../letters';
import { useLetters, useLevelColour, useStudentPoints, useStudentViolations } from '../hooks';
import { letterPath, paths, pointHistoryPath } from '../paths';
import { useTouchButton } from '../touch';
import { recordViolationPath, violationPath } from '../violationPaths';
import { LevelBadge } from './LevelBadge';
import { PointsProgress } from './PointsProgress';
import { StatusBadge } from './StatusBadge';

const RECENT = 10;

function Block({ title, action, children, testId }: { title: string; action?: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <Card withBorder padding="md" h="100%" data-testid={testId}>
      <Group justify="space-between" align="center" mb="sm" gap="xs" wrap="wrap">
        <Title order={2} size="h5">
          {title}
        </Title>
        {action}
      </Group>
      {children}
    </Card>
  );
}

/**
 * The student page's violations and points: the SP progress, the recent violations and the
 * letters, each shown only to those allowed to see it.
 */
export function StudentDisciplineSection({ studentId }: { studentId: number }) {
  const { t } = useTranslation('warning-letters');
  const fmt = useFormatDate();
  const num = useFormatNumber();
  const { can } = useSession();
  const touch = useTouchButton();
  const seeViolations = can('violations.view');
  const seeLetters = can('warning_letters.view');
  const points = useStudentPoints(studentId, seeViolations);
  const violations = useStudentViolations(studentId, RECENT, seeViolations);
  const lettersFilter = { ...DEFAULT_LETTER_FILTERS, studentId };
  const letters = useLetters(lettersFilter, RECENT, seeLetters);
  const colourOf = useLevelColour(points.data);
  if (!seeViolations && !seeLetters) return null;

  return (
    <Stack gap="md" data-testid="student-discipline">
      {seeViolations && (
        <Card withBorder padding="md">
          <Group justify="space-between" align="center" mb="sm" gap="xs" wrap="wrap">
            <Title order={2} size="h5">
              {t('student.title')}
            </Title>
            <Group gap="xs" wrap="wrap">
              {can('point_audit.view') && (
                <Button component={Link} to={pointHistoryPath(studentId)} variant="subtle" {...touch} leftSection={<IconHistory size={16} aria-hidden />} data-testid="student-point-history">
                  {t('student.pointHistory')}
                </Button>
              )}
              {can('violations.record') && (
                <Button component={Link} to={recordViolationPath(studentId)} {...touch} leftSection={<IconPlus size={16} aria-hidden />} data-testid="student-record-violation">
                  {t('student.record')}
                </Button>
              )}
            </Group>
          </Group>
          {points.data ? <PointsProgress points={points.data} testId="student-points" /> : points.isPending ? <Loader size="sm" /> : null}
        </Card>
      )}
      <Grid gutter="md">
        {seeViolations && (
          <Grid.Col span={{ base: 12, md: seeLetters ? 7 : 12 }}>
            <Block title={t('student.recent')} testId="student-violations">
              {violations.data && violations.data.data.length === 0 && (
                <Text size="sm" c="dimmed">
                  {t('student.noViolations')}
                </Text>
              )}
              <Stack gap={0}>
                {(violations.data?.data ?? []).map((v) => (
                  <Group
                    key={v.id}
                    justify="space-between"
                    wrap="nowrap"
                    gap="sm"
                    py="xs"
                    style={{ borderTop: '1px solid var(--mantine-color-gray-2)', minHeight: 44 }}
                    data-testid={`student-violation-${v.id}`}
                  >
                    <Stack gap={0} style={{ minWidth: 0 }}>
                      <Anchor component={Link} to={violationPath(v.id)} size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
                        {v.type_name}
                      </Anchor>
                      <Text size="xs" c="dimmed">
                        {fmt(v.occurred_at, 'dateTime')}
                        {v.handling_status ? ` · ${t(`student.handling.${v.handling_status}`)}` : ''}
                      </Text>
                    </Stack>
                    <Badge variant="light" color="gray" style={{ flexShrink: 0 }}>
                      {t('student.pointsValue', { points: num(v.points) })}
                    </Badge>
                  </Group>
                ))}
              </Stack>
            </Block>
          </Grid.Col>
        )}
        {seeLetters && (
          <Grid.Col span={{ base: 12, md: seeViolations ? 5 : 12 }}>
            <Block
              title={t('student.letters')}
              testId="student-letters"
              action={
                letters.data && letters.data.data.length > 0 ? (
                  <Anchor component={Link} to={`${paths.letters}?${lettersFiltersToSearch(lettersFilter).toString()}`} size="sm">
                    {t('student.allLetters')}
                  </Anchor>
                ) : undefined
              }
            >
              {letters.data && letters.data.data.length === 0 && (
                <Text size="sm" c="dimmed">
                  {t('student.noLetters')}
                </Text>
              )}
              <Stack gap={0}>
                {(letters.data?.data ?? []).map((l) => (
                  <Group
                    key={l.id}
                    justify="space-between"
                    wrap="nowrap"
                    gap="sm"
                    py="xs"
                    style={{ borderTop: '1px solid var(--mantine-color-gray-2)', minHeight: 44 }}
                    data-testid={`student-letter-${l.id}`}
                  >
                    <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
                      <LevelBadge level={l.level} name={l.name} colour={colourOf(l)} />
                      <Anchor component={Link} to={letterPath(l.id)} size="sm">
                        {fmt(l.issued_at, 'shortDate')}
                      </Anchor>
                    </Group>
                    <StatusBadge status={l.status} />
                  </Group>
                ))}
              </Stack>
            </Block>
          </Grid.Col>
        )}
      </Grid>
    </Stack>
  );
}
