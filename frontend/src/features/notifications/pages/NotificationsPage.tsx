import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMediaQuery } from '@mantine/hooks';
import { Button, Card } from '@mantine/core';
import { IconChecks } from '@tabler/icons-react';
import { PageHeader } from '@/components/PageHeader';
import { DataList } from '@/components/DataList';
import { useUnreadCount } from '@/app/unread';
import { DesktopNotifyPrompt } from '../components/DesktopNotifyPrompt';
import { NotificationItem } from '../components/NotificationItem';
import { useMarkAllRead, useNotifications } from '../hooks';
import { useOpenNotification } from '../open';
import '@/app/pageStyles';

const PER_PAGE = 20;

/** The signed-in user's notifications, 20 a page, newest first; mark one or all read. */
export default function NotificationsPage() {
  const { t } = useTranslation('notifications');
  const narrow = useMediaQuery('(max-width: 36em)');
  const [page, setPage] = useState(1);
  const list = useNotifications({ page, per_page: PER_PAGE });
  const unread = useUnreadCount();
  const markAll = useMarkAllRead();
  const open = useOpenNotification();
  const rows = list.data?.data ?? [];

  return (
    <>
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          <Button
            variant="light"
            leftSection={<IconChecks size={18} aria-hidden />}
            disabled={unread === 0}
            loading={markAll.isPending}
            onClick={() => markAll.mutate()}
            data-testid="mark-all-read"
          >
            {t('markAllRead')}
          </Button>
        }
      />
      <Card withBorder padding={0} maw={860}>
        <DesktopNotifyPrompt />
        <DataList
          query={list}
          rows={rows}
          rowKey={(n) => n.id}
          narrow={!!narrow}
          card={(n) => <NotificationItem n={n} onOpen={open} divided={false} />}
          testId="notifications-list"
          empty={{ message: t('empty'), testId: 'notifications-empty' }}
          meta={list.data?.meta}
          onPage={setPage}
          summaryTestId="notifications-summary"
        />
      </Card>
    </>
  );
}
