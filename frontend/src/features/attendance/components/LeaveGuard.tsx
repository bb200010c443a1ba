import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker } from 'react-router';
import { Button, Group, Modal, Text } from '@mantine/core';

/**
 * Warns before unsaved attendance is lost: a dialog when moving to another class, another date
 * or another page (the form's class and date are in the path), the browser's own question when
 * the tab is closed or reloaded.
 */
export function LeaveGuard({ dirty }: { dirty: boolean }) {
  const { t } = useTranslation('attendance');
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname);

  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  useEffect(() => {
    if (blocker.state === 'blocked' && !dirty) blocker.proceed();
  }, [blocker, dirty]);

  return (
    <Modal opened={blocker.state === 'blocked'} onClose={() => blocker.reset?.()} title={t('leave.title')} data-testid="attendance-leave-dialog">
      <Text size="sm" mb="md">
        {t('leave.body')}
      </Text>
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={() => blocker.reset?.()} data-autofocus data-testid="leave-stay">
          {t('leave.stay')}
        </Button>
        <Button color="red" onClick={() => blocker.proceed?.()} data-testid="leave-go">
          {t('leave.leave')}
        </Button>
      </Group>
    </Modal>
  );
}
