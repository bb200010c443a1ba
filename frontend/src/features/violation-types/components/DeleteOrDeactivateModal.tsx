import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { isApiError } from '@/api/errors';
import { errorMessage, notifyError, notifySuccess } from '@/components/serverErrors';

/** What the dialog deletes: anything with an id, a name and an active flag. */
export interface Deletable {
  id: number;
  name: string;
  active: boolean;
}

interface MutationLike<V> {
  mutate: (vars: V, opts: { onSuccess: () => void; onError: (err: unknown) => void }) => void;
  isPending: boolean;
}

export interface DeleteOrDeactivateTexts {
  title: string;
  confirm: string;
  explain?: string;
  /** Heading of the 409 alert; the server's message is its body. */
  inUseTitle?: string;
  /** Shown under the server's message when deactivation is offered. */
  offerDeactivate?: string;
  submit: string;
  deactivate: string;
  deleted: string;
  deactivated: string;
}

/**
 * Confirms, then deletes. Master data already used by recorded data is refused with a 409:
 * the same dialog then shows the server's message and offers deactivation instead, so
 * nothing stored is lost.
 */
export function DeleteOrDeactivateModal<T extends Deletable>({
  item,
  onClose,
  texts,
  remove,
  save,
  testId = 'delete-conflict',
}: {
  item: T | null;
  onClose: () => void;
  texts: (item: T) => DeleteOrDeactivateTexts;
  remove: MutationLike<number>;
  save: MutationLike<{ id: number; input: { active: boolean } }>;
  testId?: string;
}) {
  const { t: tc } = useTranslation();
  const [conflict, setConflict] = useState<string | null>(null);
  useEffect(() => setConflict(null), [item]);
  const tx = item ? texts(item) : null;

  let alertBody: ReactNode = conflict;
  if (conflict && item?.active && tx?.offerDeactivate) {
    alertBody = (
      <Stack gap={6}>
        <Text size="sm">{conflict}</Text>
        <Text size="sm">{tx.offerDeactivate}</Text>
      </Stack>
    );
  }

  return (
    <Modal opened={!!item} onClose={onClose} title={tx?.title}>
      {item && tx && (
        <Stack gap="md">
          <Text>{tx.confirm}</Text>
          {tx.explain && (
            <Text size="sm" c="dimmed">
              {tx.explain}
            </Text>
          )}
          {conflict && (
            <Alert color="orange" icon={<IconAlertTriangle />} role="alert" title={tx.inUseTitle} data-testid={testId}>
              {alertBody}
            </Alert>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {tc('actions.cancel')}
            </Button>
            {conflict ? (
              item.active && (
                <Button
                  color="orange"
                  loading={save.isPending}
                  onClick={() =>
                    save.mutate(
                      { id: item.id, input: { active: false } },
                      {
                        onSuccess: () => {
                          notifySuccess(tx.deactivated);
                          onClose();
                        },
                        onError: (err) => notifyError(err, tc),
                      },
                    )
                  }
                >
                  {tx.deactivate}
                </Button>
              )
            ) : (
              <Button
                color="red"
                loading={remove.isPending}
                onClick={() =>
                  remove.mutate(item.id, {
                    onSuccess: () => {
                      notifySuccess(tx.deleted);
                      onClose();
                    },
                    onError: (err) => {
                      if (isApiError(err) && err.status === 409) setConflict(errorMessage(err, tc));
                      else notifyError(err, tc);
                    },
                  })
                }
              >
                {tx.submit}
              </Button>
            )}
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
