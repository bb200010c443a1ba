import type { ReactNode } from 'react';
import type { RoutePermission } from '@/app/feature';
import { SchoolProfileSection } from './components/SchoolProfileSection';
import { AttendanceFollowUpSection } from './components/AttendanceFollowUpSection';
import { StudentAffairsSection } from './components/StudentAffairsSection';
import { JournalIntegration } from './components/JournalIntegration';
import { MessagingSettings } from './components/MessagingSettings';
import { FaceKiosks } from './components/FaceKiosks';
import { FaceSettingsForm } from './components/FaceSettingsForm';
import { AttendanceDayRuleCard } from './components/AttendanceDayRuleCard';
import { BackupPanel } from '@/features/data-safety/BackupPanel';
import { ResetPanel } from '@/features/data-safety/ResetPanel';
import { LetterNumberSettings } from '@/features/warning-letters/components/LetterNumberSettings';
import { PointsPolicySection } from '@/features/achievements/components/PointsPolicySection';

/**
 * The Settings page is a set of tabs, each a list of sections. A later feature adds its
 * settings by adding a section here (e.g. the journal token under "integrations") or a tab.
 */
export interface SettingsSection {
  id: string;
  permission: RoutePermission;
  element: ReactNode;
}

export interface SettingsTab {
  /** URL segment: /settings/<id>. */
  id: string;
  /** i18n key in the settings namespace. */
  labelKey: string;
  /** Needed to see the tab (its sections may need more). */
  permission: RoutePermission;
  sections: SettingsSection[];
}

export const settingsTabs: SettingsTab[] = [
  {
    id: 'school',
    labelKey: 'tabs.school',
    permission: 'settings.view',
    sections: [
      { id: 'school-profile', permission: 'settings.view', element: <SchoolProfileSection /> },
      { id: 'attendance-day-rule', permission: 'settings.view', element: <AttendanceDayRuleCard /> },
      { id: 'letter-numbering', permission: 'settings.view', element: <LetterNumberSettings /> },
      { id: 'points-policy', permission: 'violation_types.view', element: <PointsPolicySection /> },
      { id: 'attendance-follow-up', permission: 'settings.view', element: <AttendanceFollowUpSection /> },
    ],
  },
  {
    id: 'integrations',
    labelKey: 'tabs.integrations',
    permission: 'settings.manage',
    sections: [
      { id: 'student-affairs', permission: 'settings.manage', element: <StudentAffairsSection /> },
      { id: 'journal', permission: 'settings.manage', element: <JournalIntegration /> },
    ],
  },
  {
    id: 'messaging',
    labelKey: 'tabs.messaging',
    permission: 'settings.view',
    sections: [{ id: 'parent-messaging', permission: 'settings.view', element: <MessagingSettings /> }],
  },
  {
    id: 'face',
    labelKey: 'tabs.face',
    permission: 'face.manage',
    sections: [
      { id: 'face-kiosks', permission: 'face.manage', element: <FaceKiosks /> },
      { id: 'face-settings', permission: 'face.manage', element: <FaceSettingsForm /> },
    ],
  },
  {
    id: 'data',
    labelKey: 'tabs.data',
    permission: 'data.backup',
    sections: [
      { id: 'backups', permission: 'data.backup', element: <BackupPanel /> },
      { id: 'reset', permission: 'data.reset', element: <ResetPanel /> },
    ],
  },
];
