import { useTranslation } from 'react-i18next';
import { LeaveGuard } from '@/components/LeaveGuard';

/** The messaging settings' unsaved-changes guard (another tab or page, or closing the tab). */
export function MessagingLeaveGuard({ dirty }: { dirty: boolean }) {
  const { t } = useTranslation('settings');
  return (
    <LeaveGuard
      dirty={dirty}
      title={t('messaging.leave.title')}
      body={t('messaging.leave.body')}
      stay={t('messaging.leave.stay')}
      leave={t('messaging.leave.leave')}
      testId="messaging-leave-dialog"
      leaveTestId="messaging-leave-confirm"
    />
  );
}
