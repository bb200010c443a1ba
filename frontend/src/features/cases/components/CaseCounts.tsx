import { useTranslation } from 'react-i18next';
import { Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useFormatNumber } from '@/lib/numbers';
import type { CaseCounts } from '../api';

function Column({ title, rows, testId }: { title: string; rows: { key: string; label: string; count: number }[]; testId: string }) {
  const num = useFormatNumber();
  return (
    <Stack gap={4} data-testid={testId}>
      <Text size="sm" fw={600}>
        {title}
      </Text>
      {rows.map((r) => (
        <Group key={r.key} justify="space-between" wrap="nowrap" gap="xs">
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {r.label}
          </Text>
          <Text size="sm" fw={700}>
            {num(r.count)}
          </Text>
        </Group>
      ))}
    </Stack>
  );
}

/** Cases as counts only (no case, no name): the principal's view (cases.view_counts). */
export function CaseCountsCard({ counts }: { counts: CaseCounts }) {
  const { t } = useTranslation('cases');
  const num = useFormatNumber();
  return (
    <Card withBorder padding="md" radius="md" data-testid="dash-cases">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h5">
            {t('counts.title')}
          </Title>
          <Text size="sm" c={counts.overdue > 0 ? 'red.8' : 'dimmed'} data-testid="dash-cases-summary">
            {t('counts.summary', { open: num(counts.open), total: num(counts.total), overdue: num(counts.overdue) })}
          </Text>
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
          <Column title={t('counts.byCategory')} rows={counts.by_category} testId="dash-cases-category" />
          <Column title={t('counts.byStage')} rows={counts.by_stage.map((s) => ({ ...s, label: t(`stage.${s.key}`) }))} testId="dash-cases-stage" />
          <Column title={t('counts.byClass')} rows={counts.by_class.map((c) => ({ ...c, label: c.label || t('counts.noClass') }))} testId="dash-cases-class" />
        </SimpleGrid>
      </Stack>
    </Card>
  );
}
