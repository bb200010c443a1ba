import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Anchor, Button, Collapse, Group, List, Text } from '@mantine/core';
import { IconCheck, IconChevronDown, IconChevronUp, IconStack2 } from '@tabler/icons-react';
import { useSession } from '@/auth/session';
import { notifyError, notifySuccess } from '@/components/serverErrors';
import { useFormatDate } from '@/lib/useFormatDate';
import { useResolveHandling } from '../hooks';
import { paths } from '../paths';
import type { Handling } from '../types';
import { HandlingStatusBadge } from './Badges';

/**
 * Under a shared handling record on a violation's page: "also covers N other violations", each
 * linked (those the user may see; the rest are only counted), and "resolve all" for the record.
 */
export function SharedCovers({ h, currentId }: { h: Handling; currentId: number }) {
  const { t } = useTranslation('violations');
  const { t: tc } = useTranslation();
  const { can } = useSession();
  const fmt = useFormatDate();
  const [open, setOpen] = useState(false);
  const resolve = useResolveHandling();
  const covers = h.covers ?? [];
  const others = covers.filter((c) => c.id !== currentId);
  const hidden = Math.max(0, h.violation_count - covers.length);
  const unresolved = covers.filter((c) => c.handling_status !== 'resolved').length;
  if (!h.shared || h.violation_count <= 1) return null;

  const resolveAll = async () => {
    try {
      await resolve.mutateAsync(h.id);
      notifySuccess(t('shared.resolvedAll', { count: unresolved }));
    } catch (err) {
      notifyError(err, tc);
    }
  };

  return (
    <>
      <Group gap="xs" wrap="wrap" data-testid={`shared-${h.id}`}>
        <IconStack2 size={16} aria-hidden />
        <Button
          variant="subtle"
          size="compact-sm"
          rightSection={open ? <IconChevronUp size={14} aria-hidden /> : <IconChevronDown size={14} aria-hidden />}
          onClick={() => setOpen((o) => !o)}
          aria-expanded={open}
          mih={44}
          data-testid="shared-toggle"
        >
          {t('shared.alsoCovers', { count: h.violation_count - 1 })}
        </Button>
        {can('handlings.resolve') && unresolved > 0 && (
          <Button
            variant="light"
            color="teal"
            size="compact-sm"
            mih={44}
            leftSection={<IconCheck size={16} aria-hidden />}
            loading={resolve.isPending}
            onClick={() => void resolveAll()}
            data-testid="shared-resolve"
          >
            {t('shared.resolveAll', { count: unresolved })}
          </Button>
        )}
      </Group>
      <Collapse in={open}>
        <List size="sm" spacing={4} listStyleType="none" data-testid="shared-covers">
          {others.map((c) => (
            <List.Item key={c.id}>
              <Group gap="xs" wrap="wrap">
                <Anchor component={Link} to={paths.detail(c.id)} size="sm">
                  {c.student_name}
                </Anchor>
                <Text size="xs" c="dimmed">
                  {[c.class_name, c.type_name, fmt(c.occurred_on, 'shortDate')].filter(Boolean).join(' · ')}
                </Text>
                <HandlingStatusBadge status={c.handling_status} />
              </Group>
            </List.Item>
          ))}
          {hidden > 0 && (
            <List.Item>
              <Text size="xs" c="dimmed">
                {t('shared.hidden', { count: hidden })}
              </Text>
            </List.Item>
          )}
        </List>
      </Collapse>
    </>
  );
}
