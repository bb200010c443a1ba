import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Anchor, Badge, Card, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useSession } from '@/auth/session';
import { useFormatDate } from '@/lib/useFormatDate';
import { achievementsApi } from '../api';

/** The student page's achievements, beside the violations (achievements.view). */
export function StudentAchievements({ studentId }: { studentId: number }) {
  const { t } = useTranslation('achievements');
  const { can } = useSession();
  const fmt = useFormatDate();
  const allowed = can('achievements.view');
  const list = useQuery({
    queryKey: ['achievements', 'student', studentId],
    queryFn: ({ signal }) => achievementsApi.list({ student_id: studentId }, signal),
    enabled: allowed,
  });
  if (!allowed) return null;
  const rows = list.data?.data ?? [];
  return (
    <Card withBorder padding="md" data-testid="student-achievements">
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h4">
          {t('student.title')}
        </Title>
        {list.data && list.data.meta.total > rows.length && (
          <Anchor component={Link} to="/achievements" size="sm">
            {t('student.all', { count: list.data.meta.total })}
          </Anchor>
        )}
      </Group>
      {list.data && rows.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('student.none')}
        </Text>
      )}
      <Stack gap={6}>
        {rows.map((a) => (
          <Group key={a.id} justify="space-between" wrap="nowrap" gap="xs">
            <Text size="sm" style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
              {a.type_name} · {t(`level.${a.level}`)} · {fmt(a.achieved_on)}
            </Text>
            <Badge color={a.verified_at ? 'teal' : 'gray'} variant={a.verified_at ? 'filled' : 'light'} style={{ flexShrink: 0 }}>
              {t('points', { count: a.points })}
            </Badge>
          </Group>
        ))}
      </Stack>
    </Card>
  );
}
