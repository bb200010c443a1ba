import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { mantineColour } from '@/features/violation-types/grouping';
import { levelName } from '../letters';

/**
 * A warning-letter level in its threshold's colour ("SP 2"); level 0 is "no letter". Filled,
 * so the theme picks white or black text for 4.5:1 on the colour.
 */
export function LevelBadge({ level, name, colour, size = 'md', testId }: { level: number; name?: string | null; colour?: string | null; size?: 'sm' | 'md' | 'lg'; testId?: string }) {
  const { t } = useTranslation('warning-letters');
  if (level <= 0) {
    return (
      <Badge variant="light" color="gray" size={size} data-testid={testId} data-level={0}>
        {t('level.none')}
      </Badge>
    );
  }
  return (
    <Badge variant="filled" color={colour ? mantineColour(colour) : 'orange'} size={size} data-testid={testId} data-level={level}>
      {levelName(level, name)}
    </Badge>
  );
}
