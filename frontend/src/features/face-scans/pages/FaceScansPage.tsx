import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Badge, Button, Tabs } from '@mantine/core';
import { IconSettings } from '@tabler/icons-react';
import { useSession } from '@/auth/session';
import { PageHeader } from '@/components/PageHeader';
import { useFormatNumber } from '@/lib/numbers';
import { useUrlFilters } from '@/lib/urlFilters';
import { reviewFilters, type ReviewTab } from '../api';
import { ConfirmationQueue } from '../components/ConfirmationQueue';
import { ScanLog } from '../components/ScanLog';
import { useFaceConfirmations } from '../hooks';
import { paths } from '../paths';
import '@/app/pageStyles';

/** /wajah: the uncertain scans a teacher confirms with one tap, and the log of every scan. */
export default function FaceScansPage() {
  const { t } = useTranslation('face-scans');
  const { can } = useSession();
  const num = useFormatNumber();
  const { filters, update, reset } = useUrlFilters(reviewFilters);
  // The count on the tab: the queue is fetched (and refreshed) whichever tab is open.
  const queue = useFaceConfirmations();
  const waiting = queue.data?.data.length ?? 0;

  return (
    <>
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          can('face.manage') && (
            <Button component={Link} to={paths.settings} variant="default" mih={44} leftSection={<IconSettings size={18} aria-hidden />}>
              {t('settingsLink')}
            </Button>
          )
        }
      />
      <Tabs value={filters.tab} onChange={(v) => v && update({ tab: v as ReviewTab }, { push: true })} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab
            value="confirmations"
            mih={44}
            data-testid="face-tab-confirmations"
            rightSection={
              waiting > 0 ? (
                <Badge size="sm" color="yellow" variant="filled" circle={waiting < 10} data-testid="face-confirm-count">
                  {num(waiting)}
                </Badge>
              ) : undefined
            }
          >
            {t('tabs.confirmations')}
          </Tabs.Tab>
          <Tabs.Tab value="log" mih={44} data-testid="face-tab-log">
            {t('tabs.log')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="confirmations">{filters.tab === 'confirmations' && <ConfirmationQueue />}</Tabs.Panel>
        <Tabs.Panel value="log">
          {filters.tab === 'log' && <ScanLog filters={filters} update={update} clear={() => reset({ tab: filters.tab })} />}
        </Tabs.Panel>
      </Tabs>
    </>
  );
}
