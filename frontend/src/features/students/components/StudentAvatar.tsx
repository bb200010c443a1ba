import { Avatar, type AvatarProps } from '@mantine/core';
import { initials } from '@/lib/names';

/** The student's initials in a circle (photos come later). */
export function StudentAvatar({ name, gender, ...rest }: { name: string; gender?: string } & AvatarProps) {
  return (
    <Avatar color={gender === 'P' ? 'pink' : 'blue'} radius="xl" alt="" {...rest}>
      {initials(name)}
    </Avatar>
  );
}
