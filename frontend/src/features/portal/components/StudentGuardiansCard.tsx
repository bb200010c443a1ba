import { Link } from 'react-router';
import { Anchor, Card, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSession } from '@/auth/session';

/** On the student page: where staff see the student's guardians and print activation codes. */
export function StudentGuardiansCard({ studentId }: { studentId: number }) {
  const { t } = useTranslation('portal');
  const { can } = useSession();
  if (!can('guardians.view')) return null;
  return (
    <Card withBorder radius="md" p="md">
      <Text fw={600} size="sm">
        {t('guardians.onStudent')}
      </Text>
      <Anchor component={Link} to={`/guardians?student_id=${studentId}`} size="sm" data-testid="student-guardians-link">
        {t('guardians.open')}
      </Anchor>
    </Card>
  );
}
