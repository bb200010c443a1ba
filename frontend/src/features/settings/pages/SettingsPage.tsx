import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useParams } from 'react-router';
import { Stack, Tabs } from '@mantine/core';
import { useSession } from '@/auth/session';
import { ForbiddenPage, NotFoundPage } from '@/components/errors';
import { PageHeader } from '@/components/PageHeader';
import { settingsTabs } from '../sections';
import '@/app/pageStyles';

/** /settings/:tab — tabs the user may open; /settings goes to the first of them. */
export default function SettingsPage() {
  const { t } = useTranslation('settings');
  const { t: tc } = useTranslation();
  const navigate = useNavigate();
  const { can } = useSession();
  const { tab } = useParams();
  const visible = settingsTabs.filter((x) => can(x.permission));
  if (!tab) return visible[0] ? <Navigate to={`/settings/${visible[0].id}`} replace /> : <ForbiddenPage />;
  const current = settingsTabs.find((x) => x.id === tab);
  if (!current) return <NotFoundPage />;
  // Named in the user's words (the tab's label), never the permission's code, as RequirePermission does.
  if (!can(current.permission)) return <ForbiddenPage message={tc('errors.forbidden.missingPage', { page: t(current.labelKey) })} />;

  return (
    <>
      <PageHeader title={t('title')} description={t('description')} />
      <Tabs value={current.id} onChange={(v) => v && navigate(`/settings/${v}`)} keepMounted={false} mb="md">
        <Tabs.List>
          {visible.map((x) => (
            <Tabs.Tab key={x.id} value={x.id} data-testid={`settings-tab-${x.id}`}>
              {t(x.labelKey)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {/* Every tab has its panel (aria-controls points somewhere); only the open one has content. */}
        {visible.map((x) => (
          <Tabs.Panel key={x.id} value={x.id} pt="md">
            {x.id === current.id && (
              <Stack gap="md">
                {x.sections
                  .filter((s) => can(s.permission))
                  .map((s) => (
                    <div key={s.id}>{s.element}</div>
                  ))}
              </Stack>
            )}
          </Tabs.Panel>
        ))}
      </Tabs>
    </>
  );
}
