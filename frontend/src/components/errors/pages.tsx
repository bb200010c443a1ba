import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { IconArrowLeft, IconLayoutDashboard, IconMapOff, IconPlugConnectedX, IconRefresh, IconShieldLock, IconAlertTriangle } from '@tabler/icons-react';
import { ActionButton, ErrorPage } from './ErrorPage';

function useBackAndHome() {
  const navigate = useNavigate();
  const { t } = useTranslation();
  const back = () => {
    // Nothing to go back to when the page was opened directly: go home instead.
    const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (idx > 0) navigate(-1);
    else navigate('/', { replace: true });
  };
  return (
    <>
      <ActionButton onClick={back} leftSection={<IconArrowLeft size={18} />}>
        {t('actions.back')}
      </ActionButton>
      <ActionButton primary onClick={() => navigate('/dashboard')} leftSection={<IconLayoutDashboard size={18} />}>
        {t('actions.dashboard')}
      </ActionButton>
    </>
  );
}

/** 403: shows the server's message when there is one. */
export function ForbiddenPage({ message }: { message?: string }) {
  const { t } = useTranslation();
  const actions = useBackAndHome();
  return (
    <ErrorPage
      testId="error-403"
      icon={IconShieldLock}
      color="orange"
      title={t('errors.forbidden.title')}
      message={message || t('errors.forbidden.message')}
      actions={actions}
    />
  );
}

/** 404: unknown routes and records that do not exist. */
export function NotFoundPage({ message }: { message?: string }) {
  const { t } = useTranslation();
  const actions = useBackAndHome();
  return (
    <ErrorPage
      testId="error-404"
      icon={IconMapOff}
      color="blue"
      title={t('errors.notFound.title')}
      message={message || t('errors.notFound.message')}
      actions={actions}
    />
  );
}

/** The server did not answer: say so plainly and offer to try again. */
export function ServerUnreachablePage({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <ErrorPage
      testId="error-unreachable"
      icon={IconPlugConnectedX}
      color="red"
      title={t('errors.unreachable.title')}
      message={t('errors.unreachable.message')}
      actions={
        <ActionButton primary onClick={onRetry} leftSection={<IconRefresh size={18} />}>
          {t('actions.retry')}
        </ActionButton>
      }
    />
  );
}

/** Anything else that broke a page (a bug, a 500). */
export function UnexpectedErrorPage({ message, onRetry }: { message?: string; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <ErrorPage
      testId="error-unexpected"
      icon={IconAlertTriangle}
      color="red"
      title={t('errors.unexpected.title')}
      message={message || t('errors.unexpected.message')}
      actions={
        <ActionButton primary onClick={onRetry} leftSection={<IconRefresh size={18} />}>
          {t('actions.retry')}
        </ActionButton>
      }
    />
  );
}
