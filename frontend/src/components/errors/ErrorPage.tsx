import type { ReactNode } from 'react';
import { Button, Center, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { Icon } from '@tabler/icons-react';

export interface ErrorPageProps {
  icon: Icon;
  color: string;
  title: string;
  message: string;
  actions: ReactNode;
  testId: string;
}

/**
 * The shared layout of the 403, 404 and "server unreachable" pages: a title and a sentence in
 * the user's words (no HTTP status number: it means nothing to a teacher).
 */
export function ErrorPage({ icon: IconComponent, color, title, message, actions, testId }: ErrorPageProps) {
  return (
    <Center mih="60vh" p="md" data-testid={testId}>
      <Stack align="center" gap="md" maw={520} ta="center">
        <ThemeIcon size={96} radius={48} variant="light" color={color} aria-hidden>
          <IconComponent size={56} stroke={1.5} />
        </ThemeIcon>
        <Title order={1} size="h2">
          {title}
        </Title>
        <Text c="dimmed" role="alert">
          {message}
        </Text>
        <Group justify="center" gap="sm">
          {actions}
        </Group>
      </Stack>
    </Center>
  );
}

export function ActionButton(props: { onClick: () => void; children: ReactNode; primary?: boolean; leftSection?: ReactNode }) {
  return (
    <Button variant={props.primary ? 'filled' : 'default'} onClick={props.onClick} leftSection={props.leftSection}>
      {props.children}
    </Button>
  );
}
