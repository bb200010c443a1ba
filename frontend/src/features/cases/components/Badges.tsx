import { useTranslation } from 'react-i18next';
import { Badge } from '@mantine/core';
import type { CaseRole, CaseStageName } from '../api';

const STAGE_COLOUR: Record<CaseStageName, string> = { identification: 'blue', handling: 'orange', conclusions: 'grape', closed: 'gray' };
const ROLE_COLOUR: Record<CaseRole, string> = { terduga_pelaku: 'red', korban: 'teal', saksi: 'blue', pelapor: 'violet' };

export function StageBadge({ stage }: { stage: CaseStageName }) {
  const { t } = useTranslation('cases');
  return (
    <Badge variant="light" color={STAGE_COLOUR[stage]} tt="none" data-testid="case-stage" data-stage={stage}>
      {t(`stage.${stage}`)}
    </Badge>
  );
}

export function RoleBadge({ role }: { role: CaseRole | '' }) {
  const { t } = useTranslation('cases');
  if (!role) return null;
  return (
    <Badge
      variant="light"
      color={ROLE_COLOUR[role]}
      tt="none"
      data-testid="case-role"
      data-role={role}
      style={{ flexShrink: 0, maxWidth: 'none' }}
      styles={{ root: { height: 'auto', paddingBlock: 2 }, label: { whiteSpace: 'normal', overflow: 'visible' } }}
    >
      {t(`role.${role}`)}
    </Badge>
  );
}
