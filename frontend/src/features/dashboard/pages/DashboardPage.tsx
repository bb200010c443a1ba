import { Card, SimpleGrid, Text, ThemeIcon, Title } from '@mantine/core';
import { IconChartBar } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '@/components/PageHeader';
import { useSession } from '@/auth/session';

/** A placeholder the dashboard issue fills with statistics and the violation calendar. */
export default function DashboardPage() {
  const { t } = useTranslation('dashboard');
  const { me } = useSession();
  return (
    <>
      <PageHeader title={t('title')} description={t('welcome', { name: me?.user.name ?? '' })} />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Card withBorder padding="lg" data-testid="dashboard-placeholder">
          <ThemeIcon variant="light" size="xl" mb="sm" aria-hidden>
            <IconChartBar />
          </ThemeIcon>
          <Title order={2} size="h4" mb={4}>
            {t('placeholder.title')}
          </Title>
          <Text c="dimmed" size="sm">
            {t('placeholder.body')}
          </Text>
        </Card>
      </SimpleGrid>
    </>
  );
}
