import type { ReactNode } from 'react';
import { ActionIcon, Menu } from '@mantine/core';
import { IconDots } from '@tabler/icons-react';
import { useTouchSize } from '../touch';

export interface RowMenuItem {
  label: string;
  icon: ReactNode;
  onClick: () => void;
  /** A destructive item: red, below a divider, away from the others. */
  danger?: boolean;
  disabled?: boolean;
}

/**
 * One touch-sized button opening a row's actions, so "edit" and "delete" are never two small
 * icons side by side (a mis-tap on a phone would delete).
 */
export function RowMenu({ label, items }: { label: string; items: RowMenuItem[] }) {
  const size = useTouchSize();
  const safe = items.filter((i) => !i.danger);
  const danger = items.filter((i) => i.danger);
  return (
    <Menu position="bottom-end" withinPortal shadow="md">
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" size={size} aria-label={label}>
          <IconDots size={20} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {safe.map((i) => (
          <Menu.Item key={i.label} leftSection={i.icon} onClick={i.onClick} disabled={i.disabled} py="sm">
            {i.label}
          </Menu.Item>
        ))}
        {safe.length > 0 && danger.length > 0 && <Menu.Divider />}
        {danger.map((i) => (
          <Menu.Item key={i.label} color="red.8" leftSection={i.icon} onClick={i.onClick} disabled={i.disabled} py="sm">
            {i.label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
