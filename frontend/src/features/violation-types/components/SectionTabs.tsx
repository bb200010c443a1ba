import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { Tabs } from '@mantine/core';
import { useSession } from '@/auth/session';
import { paths } from '../paths';

/** Links the feature's pages: types & categories, import, SP thresholds, handling types. */
export function SectionTabs() {
  const { t } = useTranslation('violation-types');
  const { can } = useSession();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const tabs = [
    { path: paths.types, label: t('tabs.types') },
    ...(can('violation_types.manage') ? [{ path: paths.import, label: t('tabs.import') }] : []),
    { path: paths.thresholds, label: t('tabs.thresholds') },
    { path: paths.handling, label: t('tabs.handling') },
  ];
  return (
    <Tabs value={pathname} onChange={(v) => v && v !== pathname && navigate(v)} mb="md" keepMounted={false}>
      <Tabs.List aria-label={t('tabs.label')} style={{ flexWrap: 'wrap' }}>
        {tabs.map((tab) => (
          <Tabs.Tab key={tab.path} value={tab.path}>
            {tab.label}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  );
}
