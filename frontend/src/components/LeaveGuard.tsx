import { useEffect } from 'react';
import { useBlocker } from 'react-router';
import { Button, Group, Modal, Text } from '@mantine/core';

export interface LeaveGuardProps {
  /** Something is not saved yet. */
  dirty: boolean;
  /** The dialog's texts, in the feature's words. */
  title: string;
  body: string;
  stay: string;
  leave: string;
  /** data-testid of the dialog, and of its stay / leave buttons. */
  testId: string;
  stayTestId?: string;
  leaveTestId?: string;
}

/**
 * Warns before unsaved changes are lost: a dialog when navigating to another path inside the
 * app (react-router's blocker), the browser's own question when the tab is closed or reloaded.
 */
export function LeaveGuard({ dirty, title, body, stay, leave, testId, stayTestId, leaveTestId }: LeaveGuardProps) {
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname);

  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      // Older browsers need a returnValue to ask at all.
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  useEffect(() => {
    if (blocker.state === 'blocked' && !dirty) blocker.proceed();
  }, [blocker, dirty]);

  return (
    <Modal opened={blocker.state === 'blocked'} onClose={() => blocker.reset?.()} title={title} data-testid={testId}>
      <Text size="sm" mb="md">
        {body}
      </Text>
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={() => blocker.reset?.()} data-autofocus data-testid={stayTestId}>
          {stay}
        </Button>
        <Button color="red" onClick={() => blocker.proceed?.()} data-testid={leaveTestId}>
          {leave}
        </Button>
      </Group>
    </Modal>
  );
}
