import { useMediaQuery } from '@mantine/hooks';

/** Icon buttons are at least 44 px on phones (a finger's width), Mantine's `lg` (34 px) elsewhere. */
export function useTouchSize(): number | 'lg' {
  const phone = useMediaQuery('(max-width: 48em)');
  return phone ? 44 : 'lg';
}
