import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The child's excuses (part 3 of issue 26 fills this in). */
export function ExcusesTab({ childId }: { childId: number }) {
  const { t } = useTranslation('portal');
  return (
    <Text size="sm" c="dimmed" data-child={childId}>
      {t('ortu.excuses.none')}
    </Text>
  );
}
