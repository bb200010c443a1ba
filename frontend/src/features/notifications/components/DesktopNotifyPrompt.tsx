import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Group, Paper, Text } from '@mantine/core';
import { IconBellRinging } from '@tabler/icons-react';
import { notifyPermission, requestNotifyPermission } from '@/platform';

const ASKED_KEY = 'tatib.notifications.osPromptAnswered';

function answered(): boolean {
  try {
    return globalThis.localStorage?.getItem(ASKED_KEY) === '1';
  } catch {
    return false;
  }
}

/**
 * "Turn on desktop notifications?", asked once and only here: the browser's own question
 * comes from the user's click on "Turn on", never by itself. Either answer is remembered.
 */
export function DesktopNotifyPrompt() {
  const { t } = useTranslation('notifications');
  const [hidden, setHidden] = useState(() => notifyPermission() !== 'default' || answered());
  if (hidden) return null;
  const done = () => {
    try {
      globalThis.localStorage?.setItem(ASKED_KEY, '1');
    } catch {
      /* private mode: asked again next time */
    }
    setHidden(true);
  };
  return (
    <Paper withBorder p="sm" m="sm" radius="md" bg="gray.0" data-testid="notify-prompt">
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <IconBellRinging size={18} aria-hidden style={{ flex: '0 0 18px', marginTop: 2 }} />
        <div>
          <Text size="sm" fw={600}>
            {t('prompt.question')}
          </Text>
          <Text size="xs" c="dark.4">
            {t('prompt.detail')}
          </Text>
          <Group gap="xs" mt="xs">
            <Button size="compact-sm" onClick={() => void requestNotifyPermission().finally(done)}>
              {t('prompt.enable')}
            </Button>
            <Button size="compact-sm" variant="subtle" color="gray.8" onClick={done}>
              {t('prompt.later')}
            </Button>
          </Group>
        </div>
      </Group>
    </Paper>
  );
}
