import { useTranslation } from 'react-i18next';
import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useSession } from '@/auth/session';
import type { WarningLetterEvent } from '../api';
import { violationPath } from '../violationPaths';

/** Under a history step: the level it left the letter at and the violation whose change caused it. */
export function HistoryCause({ event }: { event: WarningLetterEvent }) {
  const { t } = useTranslation('warning-letters');
  const { can } = useSession();
  const rule = ['raised', 'lowered', 'draft', 'withdrawn', 'sent'].includes(event.status);
  if (!rule || !event.level) return null;
  return (
    <Text size="xs" c="dimmed">
      {t('history.level', { level: `SP ${event.level}` })}
      {event.violation_id && (
        <>
          {' · '}
          {can('violations.view') ? (
            <Anchor component={Link} to={violationPath(event.violation_id)} size="xs">
              {t('history.cause', { id: event.violation_id })}
            </Anchor>
          ) : (
            t('history.cause', { id: event.violation_id })
          )}
        </>
      )}
    </Text>
  );
}
