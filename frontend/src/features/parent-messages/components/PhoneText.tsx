import { useTranslation } from 'react-i18next';
import { Group, Text, Tooltip } from '@mantine/core';
import { IconEyeOff } from '@tabler/icons-react';
import type { ParentMessage } from '../api';
import { formatPhone } from '../display';

/** The parent's number: masked ones say so; none says why the message was not sent. */
export function PhoneText({ m, size = 'sm' }: { m: Pick<ParentMessage, 'phone' | 'phone_masked' | 'skip_reason'>; size?: string }) {
  const { t } = useTranslation('parent-messages');
  if (!m.phone) {
    return (
      <Text size={size} c="dimmed" data-testid="pm-phone">
        {m.skip_reason ? t(`skip.${m.skip_reason}`) : t('noPhone')}
      </Text>
    );
  }
  const shown = formatPhone(m.phone, m.phone_masked);
  if (!m.phone_masked) {
    return (
      <Text size={size} ff="monospace" style={{ whiteSpace: 'nowrap' }} data-testid="pm-phone">
        {shown}
      </Text>
    );
  }
  return (
    <Tooltip label={t('masked')} withArrow multiline w={240}>
      <Group gap={4} wrap="nowrap" tabIndex={0} aria-label={`${shown} — ${t('masked')}`} data-testid="pm-phone" data-masked="true">
        <Text size={size} ff="monospace" style={{ whiteSpace: 'nowrap' }}>
          {shown}
        </Text>
        <IconEyeOff size={14} aria-hidden color="var(--mantine-color-dimmed)" />
      </Group>
    </Tooltip>
  );
}
